#include "report/journal.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace harness::report;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/runner-test-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

// Starts peer-harness with `args`, output into `out`; returns its pid.
pid_t spawn(const std::vector<std::string> &args, const fs::path &out) {
    pid_t pid = fork();
    if (pid == 0) {
        int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        std::vector<char *> argv;
        std::vector<std::string> all{PEER_HARNESS_BIN};
        all.insert(all.end(), args.begin(), args.end());
        // These runs happen on the build machine, which has no GPU: they say
        // so with the no-gpu manifest, as a lab would (without one, finding
        // no device is an error of its own).
        if (!args.empty() && args[0] == "run" &&
            std::find(args.begin(), args.end(), "--machine") == args.end())
            all.insert(all.begin() + 2, {"--expect", RUNNER_NO_GPU_MANIFEST});
        for (auto &a : all)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(PEER_HARNESS_BIN, argv.data());
        _exit(127);
    }
    return pid;
}

int wait_exit(pid_t pid) {
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct Ran {
    int code;
    std::string output;
};

// wait_exit, but a run still going after `limit` is killed (and -1
// returned): a run that never ends fails its test instead of hanging it.
int wait_exit_within(pid_t pid, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int st = 0;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

std::string read_text(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

Ran run(const std::vector<std::string> &args, const fs::path &dir) {
    fs::path out = dir / "harness-output.txt";
    int code = wait_exit(spawn(args, out));
    std::ifstream in(out);
    std::stringstream ss;
    ss << in.rdbuf();
    return {code, ss.str()};
}

std::map<std::string, Status> statuses(const fs::path &results) {
    std::map<std::string, Status> out;
    for (const auto &r : records_of(read_journal((results / "results.jsonl").string())))
        out[r.name] = r.status;
    return out;
}

int end_lines_for(const fs::path &journal, const std::string &name) {
    std::ifstream in(journal);
    std::string line;
    int n = 0;
    while (std::getline(in, line))
        n += line.find("\"event\":\"end\"") != std::string::npos &&
             line.find("\"name\":\"" + name + "\"") != std::string::npos;
    return n;
}

} // namespace

TEST_CASE("a crash, a hang and an abort are recorded and the run goes on", "[isolation]") {
    // The same statuses whether each instance has its own process or a batch
    // of them shares one (restarted after the crash, the hang and the abort).
    const std::string mode = GENERATE(as<std::string>{}, "process", "batch");
    INFO("--isolation " << mode);
    TempDir d;
    fs::path results = d.path / "r";
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/selftest.yaml", "--results", results.string(),
                 "--timeout", "1", "--isolation", mode},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    auto st = statuses(results);
    CHECK(st.size() == 8); // every instance is in the results file
    CHECK(st["selftest/pass-a"] == Status::pass);
    CHECK(st["selftest/crash"] == Status::crash);
    CHECK(st["selftest/pass-b"] == Status::pass);
    CHECK(st["selftest/hang"] == Status::timeout);
    CHECK(st["selftest/abort"] == Status::crash);
    CHECK(st["selftest/fail"] == Status::fail);
    CHECK(st["selftest/pass-c/n=1"] == Status::pass);
    CHECK(st["selftest/pass-c/n=2"] == Status::pass);
    CHECK(fs::exists(results / "metadata.json"));
    CHECK(fs::exists(results / "junit.xml"));
    CHECK(r.output.find("8 instances: 4 passed, 4 failed, 0 skipped") != std::string::npos);
    // The journal and Catch2's console reporter name the failing step's file and line.
    CHECK(r.output.find("selftest.yaml:18: step 1:") != std::string::npos);
    auto journal = read_journal((results / "results.jsonl").string());
    const auto &fail = journal.ended.at("selftest/fail");
    REQUIRE(fail.failures.size() == 1);
    CHECK(fail.failures[0].line == 18);
    CHECK(fail.failures[0].message == "selftest: failing on purpose");
    CHECK(fail.failures[0].doc == "a step that fails on purpose");
}

TEST_CASE("a batch restarts after its culprit: every instance starts and ends once",
          "[isolation][batch]") {
    TempDir d;
    fs::path results = d.path / "r";
    // One batch for all 8 instances: the crash, the hang and the abort each
    // end a child; what follows each of them runs in the next one.
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/selftest.yaml", "--results", results.string(),
                 "--timeout", "1", "--isolation", "batch", "--batch-size", "8"},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    const fs::path journal = results / "results.jsonl";
    std::ifstream in(journal);
    std::string line;
    std::vector<std::string> events;
    while (std::getline(in, line)) {
        auto j = nlohmann::json::parse(line);
        events.push_back(j.at("event").get<std::string>() + " " + j.at("name").get<std::string>());
    }
    // In run order, each start directly followed by its end: the journal
    // shows the instance that was running when its child died.
    const std::vector<std::string> want{
        "start selftest/pass-a",     "end selftest/pass-a",     "start selftest/crash",
        "end selftest/crash",        "start selftest/pass-b",   "end selftest/pass-b",
        "start selftest/hang",       "end selftest/hang",       "start selftest/abort",
        "end selftest/abort",        "start selftest/fail",     "end selftest/fail",
        "start selftest/pass-c/n=1", "end selftest/pass-c/n=1", "start selftest/pass-c/n=2",
        "end selftest/pass-c/n=2"};
    CHECK(events == want);
    auto recs = read_journal(journal.string()).ended;
    CHECK(recs.at("selftest/crash").reason == "killed by SIGSEGV");
    CHECK(recs.at("selftest/abort").reason == "killed by SIGABRT");
    CHECK(recs.at("selftest/hang").reason.find("per-instance timeout") != std::string::npos);
    CHECK(recs.at("selftest/pass-b").status == Status::pass);
    // The crashed instance's log holds the stack it died with (crash_trace.cpp).
    const std::string crash_log = recs.at("selftest/crash").log;
    REQUIRE_FALSE(crash_log.empty());
    const std::string trace = read_text(results / crash_log);
    CHECK(trace.find("fatal signal SEGV") != std::string::npos);
    CHECK(std::count(trace.begin(), trace.end(), '\n') >= 4); // the line and its frames
}

TEST_CASE("--max-failures ends the run while an instance waits for a slot", "[max-failures]") {
    // stop-waiting.yaml says how the instance of the other path ends up
    // waiting when the second failure arrives; the run once spun there.
    TempDir d;
    const fs::path results = d.path / "r", out = d.path / "out.txt";
    const int code = wait_exit_within(
        spawn({"run", "--cases", RUNNER_TEST_DATA "/stop-waiting.yaml", "--results",
               results.string(), "--timeout", "1", "--jobs", "1", "--max-failures", "2"},
              out),
        std::chrono::seconds(60));
    const std::string text = read_text(out);
    INFO(text);
    REQUIRE(code == 1);
    auto st = statuses(results);
    CHECK(st["stop-waiting/crash/path=drm"] == Status::crash);
    CHECK(st["stop-waiting/hang/path=drm"] == Status::timeout);
    CHECK(st.count("stop-waiting/other-path/path=kfd") == 0);
    CHECK(text.find("1 instances not run") != std::string::npos);
}

TEST_CASE("a batch in flight ends after its running instance at --max-failures",
          "[max-failures][batch]") {
    TempDir d;
    fs::path results = d.path / "r";
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/stop-batch.yaml", "--results",
                 results.string(), "--jobs", "1", "--batch-size", "32", "--max-failures", "1"},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    auto st = statuses(results);
    CHECK(st.size() == 1);
    CHECK(st["stop-batch/fail-first"] == Status::fail);
    CHECK(r.output.find("20 instances not run") != std::string::npos);
}

TEST_CASE("what an instance prints is in its own log, and a quiet instance has none",
          "[isolation][batch]") {
    // In a batch the child's output is captured in memory and saved per
    // instance, by the child after a return, by the runner after a crash or
    // a timeout; one process per instance writes the log as it goes.
    const std::string mode = GENERATE(as<std::string>{}, "process", "batch");
    INFO("--isolation " << mode);
    TempDir d;
    fs::path results = d.path / "r";
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/output.yaml", "--results", results.string(),
                 "--timeout", "1", "--isolation", mode, "--batch-size", "7"},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    auto recs = read_journal((results / "results.jsonl").string()).ended;
    REQUIRE(recs.size() == 7);
    auto log_of = [&](const std::string &name) -> std::string {
        const std::string rel = recs.at(name).log;
        if (rel.empty()) return {};
        std::ifstream in(results / rel);
        return {std::istreambuf_iterator<char>(in), {}};
    };
    CHECK(log_of("output/prints-and-fails") == "selftest: failing on purpose\n");
    // What the instance printed, then the stack it died with (crash_trace.cpp).
    CHECK(log_of("output/crash")
              .rfind("selftest: crash on purpose\npeer-harness: fatal signal SEGV at address ",
                     0) == 0);
    CHECK(log_of("output/hang") == "selftest: hang on purpose\n");
    for (const char *quiet :
         {"output/quiet-a", "output/quiet-b", "output/quiet-c", "output/quiet-d"}) {
        INFO(quiet);
        CHECK(recs.at(quiet).log.empty());
        CHECK(recs.at(quiet).status == Status::pass);
    }
    // Nothing else was left in the logs directory: one file per instance that printed.
    size_t files = 0;
    for (const auto &e : fs::directory_iterator(results / "logs")) {
        (void)e;
        ++files;
    }
    CHECK(files == 3);
}

TEST_CASE("each step's time is recorded, within the instance's own duration", "[timing]") {
    // In a batch the child times each instance itself: the runner may read a
    // short instance's start and end in one go, whenever it next polls that
    // child, so its own clock would give one instance another's time.
    const std::string mode = GENERATE(as<std::string>{}, "process", "batch");
    INFO("--isolation " << mode);
    TempDir d;
    fs::path results = d.path / "r";
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/timing.yaml", "--results", results.string(),
                 "--jobs", "2", "--isolation", mode, "--batch-size", "5"},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1); // stops-at-failure fails on purpose
    auto recs = records_of(read_journal((results / "results.jsonl").string()));
    REQUIRE(recs.size() == 16);
    for (const auto &rec : recs) {
        INFO(rec.name);
        const bool stops = rec.kase == "stops-at-failure";
        CHECK(rec.status == (stops ? Status::fail : Status::pass));
        REQUIRE(rec.step_times.size() == (stops ? 2u : 3u));
        double in_steps_ms = 0;
        for (size_t i = 0; i < rec.step_times.size(); ++i) {
            CHECK(rec.step_times[i].step == static_cast<int>(i) + 1);
            CHECK(rec.step_times[i].ms >= 0);
            in_steps_ms += rec.step_times[i].ms;
        }
        // Steps are rounded to the microsecond each.
        CHECK(in_steps_ms <= rec.duration_s * 1000 + 0.001 * 3);
        CHECK(rec.duration_s > 0);
    }
    // The timing report names the steps from the run's own case files.
    Ran t = run({"timing", results.string()}, d.path);
    INFO(t.output);
    CHECK(t.code == 0);
    CHECK(t.output.find("over 16 instances") != std::string::npos);
    CHECK(t.output.find("timing/three-steps\n") != std::string::npos);
    CHECK(t.output.find("step  3 selftest") != std::string::npos);
    CHECK(t.output.find("outside the steps") != std::string::npos);
}

TEST_CASE("with --jobs 2 the same statuses are recorded, reported in order", "[isolation]") {
    TempDir d;
    fs::path results = d.path / "r";
    const std::string mode = GENERATE(as<std::string>{}, "process", "batch");
    INFO("--isolation " << mode);
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/selftest.yaml", "--results", results.string(),
                 "--timeout", "1", "--jobs", "2", "--isolation", mode, "--batch-size", "3"},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    auto st = statuses(results);
    CHECK(st.size() == 8);
    CHECK(st["selftest/crash"] == Status::crash);
    CHECK(st["selftest/hang"] == Status::timeout);
    CHECK(st["selftest/abort"] == Status::crash);
    CHECK(st["selftest/fail"] == Status::fail);
    CHECK(st["selftest/pass-c/n=2"] == Status::pass);
    // Catch2 still reports in declaration order: crash before hang before abort.
    size_t crash = r.output.find("selftest/crash\n"), hang = r.output.find("selftest/hang\n"),
           abort = r.output.find("selftest/abort\n");
    CHECK(crash < hang);
    CHECK(hang < abort);
}

TEST_CASE("a killed run resumes without rerunning what was started", "[resume]") {
    const std::string mode = GENERATE(as<std::string>{}, "process", "batch");
    INFO("--isolation " << mode);
    TempDir d;
    fs::path results = d.path / "r";
    pid_t pid = spawn({"run", "--cases", RUNNER_TEST_DATA "/resume.yaml", "--results",
                       results.string(), "--timeout", "60", "--isolation", mode},
                      d.path / "first.txt");
    // Wait (bounded) until the hanging instance has started, then kill the runner.
    bool started = false;
    for (int i = 0; i < 200 && !started; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        auto st = read_journal((results / "results.jsonl").string());
        started = st.started_only.count("resume/hang") == 1;
    }
    REQUIRE(started);
    kill(pid, SIGKILL);
    wait_exit(pid);
    CHECK(statuses(results).size() == 3); // pass-a, pass-b ended; hang started

    Ran r = run(
        {"run", "--resume", "--results", results.string(), "--timeout", "5", "--isolation", mode},
        d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    auto st = statuses(results);
    CHECK(st.size() == 5);
    CHECK(st["resume/pass-a"] == Status::pass);
    CHECK(st["resume/pass-b"] == Status::pass);
    CHECK(st["resume/hang"] == Status::incomplete); // started before: final, not rerun
    CHECK(st["resume/pass-c"] == Status::pass);
    CHECK(st["resume/fail-d"] == Status::fail);
    CHECK(end_lines_for(results / "results.jsonl", "resume/pass-a") == 1);
    CHECK(end_lines_for(results / "results.jsonl", "resume/hang") == 1);
}

TEST_CASE("a fresh run refuses a directory holding a run", "[resume]") {
    TempDir d;
    fs::path results = d.path / "r";
    std::vector<std::string> args{"run",       "--cases",        RUNNER_TEST_DATA "/resume.yaml",
                                  "--results", results.string(), "resume/pass-a"};
    CHECK(run(args, d.path).code == 0);
    Ran again = run(args, d.path);
    CHECK(again.code == 2);
    CHECK(again.output.find("--resume") != std::string::npos);
}

TEST_CASE("Catch2 options keep working: test specs, listing, reporters", "[catch]") {
    TempDir d;
    Ran l = run({"run", "--cases", RUNNER_TEST_DATA "/selftest.yaml", "--list-test-names-only"},
                d.path);
    CHECK(l.code == 0);
    CHECK(l.output.find("selftest/pass-c/n=2") != std::string::npos);
    fs::path junit = d.path / "out.xml";
    // A test spec right after --cases is a test spec, not a second case path.
    Ran j = run({"run", "--results", (d.path / "r").string(), "--cases",
                 RUNNER_TEST_DATA "/selftest.yaml", "selftest/pass-*", "-r", "junit", "-o",
                 junit.string()},
                d.path);
    INFO(j.output);
    CHECK(j.code == 0);
    std::ifstream in(junit);
    std::stringstream ss;
    ss << in.rdbuf();
    CHECK(ss.str().find("name=\"selftest/pass-c/n=1\"") != std::string::npos);
    CHECK(ss.str().find("selftest/crash") == std::string::npos);
    CHECK(statuses(d.path / "r").size() == 4);
}

TEST_CASE("disruptive cases need an explicit opt-in outside the simulator", "[disruptive]") {
    TempDir d;
    if (getenv("LD_PRELOAD") || getenv("PEER_HARNESS_SIMULATOR")) {
        // Under amdgpu-sim disruptive cases always run; this test is about
        // real hardware, so it must be started outside the simulator.
        FAIL("run this test outside amdgpu-sim");
    }
    Ran skipped = run({"run", "--cases", RUNNER_TEST_DATA "/disruptive.yaml", "--results",
                       (d.path / "a").string()},
                      d.path);
    CHECK(skipped.code == 0);
    auto a = records_of(read_journal((d.path / "a" / "results.jsonl").string()));
    REQUIRE(a.size() == 1);
    CHECK(a[0].status == Status::skip);
    CHECK(a[0].reason.find("--allow-disruptive") != std::string::npos);

    run({"run", "--cases", RUNNER_TEST_DATA "/disruptive.yaml", "--results",
         (d.path / "b").string(), "--allow-disruptive"},
        d.path);
    auto b = records_of(read_journal((d.path / "b" / "results.jsonl").string()));
    REQUIRE(b.size() == 1);
    CHECK(b[0].status != Status::skip); // it ran (and, with no device here, did not fault)
}

TEST_CASE("a bad case file stops the run with file:line:col and exit code 2", "[loader]") {
    TempDir d;
    Ran r = run({"run", "--cases", RUNNER_TEST_DATA "/bad-expect.yaml", "--results",
                 (d.path / "r").string()},
                d.path);
    CHECK(r.code == 2);
    CHECK(r.output.find("bad-expect.yaml:6:17: error: step selftest takes no 'expect'") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(d.path / "r" / "results.jsonl"));
}

TEST_CASE("every kind of check fails when the expectation is wrong", "[sim]") {
    TempDir d;
    fs::path results = d.path / "r";
    Ran r = run({"run", "--machine", "mixed-4", "--cases",
                 RUNNER_TEST_DATA "/wrong-expectations.yaml", "--results", results.string()},
                d.path);
    INFO(r.output);
    CHECK(r.code == 1);
    auto recs = records_of(read_journal((results / "results.jsonl").string()));
    std::set<std::string> families;
    for (const auto &rec : recs) {
        INFO(rec.name << ": " << rec.reason);
        // The unmapped read faults without a step asking for it: a failure
        // with its own kernel-log lines is IGT's dmesg-fail, lines attached.
        if (rec.kase == "unmapped-read-succeeds") {
            CHECK(rec.status == Status::dmesg_fail);
            CHECK_FALSE(rec.kernel_log.empty());
        } else {
            CHECK(rec.status == Status::fail);
        }
        REQUIRE(rec.failures.size() == 1);
        families.insert(rec.kase);
    }
    CHECK(families.size() == 9); // every case had at least one instance on mixed-4
    for (const auto &rec : recs) {
        const std::string &m = rec.failures[0].message;
        if (rec.kase == "can-access-value")
            CHECK(m.find("wrote 1, expected 0") != std::string::npos);
        if (rec.kase == "copy-path") CHECK(m.find("path, expected staged") != std::string::npos);
        if (rec.kase == "mapped-read-faults") CHECK(m.find("it must fault") != std::string::npos);
        if (rec.kase == "unmapped-read-succeeds")
            CHECK(m.find("it must succeed") != std::string::npos);
        if (rec.kase == "guard-changed")
            CHECK(m.find("in 1 byte(s); first at guard before the buffer, byte -1") !=
                  std::string::npos);
        if (rec.kase == "payload-changed")
            CHECK(m.find("in 1 byte(s); first at offset 2048") != std::string::npos);
    }
}

TEST_CASE("the default suite's verdicts are the same in batches and one process each",
          "[sim-suite]") {
    TempDir d;
    std::map<std::string, std::string> verdicts[2], logs[2];
    const std::string modes[2] = {"process", "batch"};
    for (int m = 0; m < 2; ++m) {
        fs::path results = d.path / modes[m];
        Ran r = run({"run", "--machine", "mixed-4", "--jobs", "2", "--isolation", modes[m],
                     "--results", results.string()},
                    d.path);
        INFO(modes[m] << ": "
                      << r.output.substr(r.output.size() > 4000 ? r.output.size() - 4000 : 0));
        REQUIRE((r.code == 0 || r.code == 1));
        for (const auto &rec : records_of(read_journal((results / "results.jsonl").string()))) {
            std::string v = std::string(status_name(rec.status)) + " | " + rec.reason;
            for (const auto &f : rec.failures)
                v += " | " + f.message;
            verdicts[m][rec.name] = v;
            // The temporary directory goes with the test: a crash's stack
            // (crash_trace.cpp) is kept in the report instead.
            if (rec.status == Status::crash && !rec.log.empty())
                logs[m][rec.name] = read_text(results / rec.log);
        }
    }
    REQUIRE(verdicts[0].size() > 100); // the suite ran, not an empty selection
    CHECK(verdicts[0].size() == verdicts[1].size());
    for (const auto &[name, v] : verdicts[0]) {
        INFO(name);
        INFO("process log: " << logs[0][name]);
        INFO("batch log: " << logs[1][name]);
        CHECK(verdicts[1][name] == v);
    }
}
