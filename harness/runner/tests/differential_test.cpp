// The differential run's comparison (runner/differential.hpp) on records made
// by hand, its rules against CONTRACT.md §4, and the interpreter's HIP call
// table against the step sources: pure, no run.
#include <catch2/catch.hpp>

#include "runner/differential.hpp"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace harness::runner;
using harness::report::InstanceRecord;
using harness::report::Status;

namespace {

InstanceRecord rec(const std::string &name, Status st, std::vector<std::string> answers,
                   int failed_step = 0) {
    InstanceRecord r;
    r.name = name;
    r.suite = name.substr(0, name.find('/'));
    r.kase =
        name.substr(r.suite.size() + 1, name.find('/', r.suite.size() + 1) - r.suite.size() - 1);
    r.status = st;
    for (size_t i = 0; i < answers.size(); ++i)
        r.answers.push_back({static_cast<int>(i) + 1, answers[i]});
    if (failed_step) r.failures.push_back({failed_step, "f.yaml", 7, "the check failed", ""});
    return r;
}

// Step 1 is set_device, step 2 can_access_peer, step 3 verify.
StepInfo kinds(const std::string &, const std::string &, int step) {
    static const char *k[] = {"?", "set_device", "can_access_peer", "verify", "memcpy_peer"};
    return {step >= 1 && step <= 4 ? k[step] : "?", "f.yaml:" + std::to_string(step)};
}

Trace no_trace(const InstanceRecord &) {
    return {};
}

std::string read(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("differential: equal answers are compared and agree", "[differential]") {
    std::vector<InstanceRecord> h{
        rec("s/c/pair=0>1/path=drm", Status::pass, {"hipSuccess", "hipSuccess", "ok"}),
        rec("s/c/pair=0>1/path=kfd", Status::pass, {"hipSuccess", "hipSuccess", "ok"})};
    std::vector<InstanceRecord> r{
        rec("s/c/pair=0>1/path=kfd", Status::pass, {"hipSuccess", "hipSuccess", "ok"})};
    const DiffSummary d = compare_runs(h, r, kinds, no_trace);
    CHECK(d.compared == 6); // both harness paths against ROCm's one instance
    CHECK(d.rows.empty());
    CHECK(d.unexplained() == 0);
    CHECK_THAT(render_differential(d),
               Catch::EndsWith("6 steps compared, 0 documented differences, 0 unexplained, 0 not "
                               "comparable\n"));
}

TEST_CASE("differential: a deliberately wrong harness answer is unexplained; what follows it is "
          "not compared",
          "[differential]") {
    std::vector<InstanceRecord> h{
        rec("s/c/pair=0>1/path=kfd", Status::pass, {"hipSuccess", "hipErrorNotReady", "ok"})};
    std::vector<InstanceRecord> r{
        rec("s/c/pair=0>1/path=kfd", Status::pass, {"hipSuccess", "hipSuccess", "ok"})};
    const DiffSummary d = compare_runs(h, r, kinds, no_trace);
    REQUIRE(d.rows.size() == 1);
    CHECK_FALSE(d.rows[0].documented);
    CHECK(d.rows[0].step == 2);
    CHECK(d.rows[0].info.kind == "can_access_peer");
    CHECK(d.rows[0].harness == "hipErrorNotReady");
    CHECK(d.rows[0].rocm == "hipSuccess");
    CHECK(d.unexplained() == 1);
    CHECK(d.compared == 2);
    CHECK(d.not_comparable == 1);
    CHECK(d.not_comparable_reasons.at("follows a difference in its instance") == 1);
    const std::string text = render_differential(d);
    CHECK_THAT(text, Catch::Contains("UNEXPLAINED  s/c/pair=0>1/path=kfd") &&
                         Catch::Contains("step 2 can_access_peer (f.yaml:2)") &&
                         Catch::EndsWith("2 steps compared, 0 documented differences, 1 "
                                         "unexplained, 1 not comparable\n"));
}

TEST_CASE("differential: a difference a CONTRACT.md §4 row names is documented", "[differential]") {
    std::vector<InstanceRecord> h{
        rec("s/c/device=0/path=kfd", Status::pass, {"hipSuccess", "hipErrorInvalidDevice"})};
    std::vector<InstanceRecord> r{
        rec("s/c/device=0/path=kfd", Status::fail, {"hipSuccess", "hipSuccess"}, 2)};
    const DiffSummary d = compare_runs(h, r, kinds, no_trace);
    REQUIRE(d.rows.size() == 1);
    CHECK(d.rows[0].documented);
    CHECK(d.rows[0].contract == std::string("CanAccessPeer(-1,-1) / (N,N)"));
    CHECK(d.unexplained() == 0);
    CHECK(d.documented() == 1);
    // The same answers on another step kind match no row.
    const StepLookup other = [](const std::string &, const std::string &, int) {
        return StepInfo{"memcpy_peer", ""};
    };
    CHECK(compare_runs(h, r, other, no_trace).unexplained() == 1);
}

TEST_CASE("differential: not comparable answers are counted by reason; a failure both runtimes "
          "share is no difference",
          "[differential]") {
    std::vector<InstanceRecord> h{
        rec("s/a/device=0/path=kfd", Status::pass, {"hipSuccess", "ok", "ok"}),
        rec("s/b/device=0/path=kfd", Status::fail, {"hipSuccess", "hipSuccess", "failed"}, 3)};
    std::vector<InstanceRecord> r{
        rec("s/a/device=0/path=kfd", Status::pass,
            {"hipSuccess", "not comparable: the harness's debug API", "ok"}),
        rec("s/b/device=0/path=kfd", Status::fail, {"hipSuccess", "hipSuccess", "failed"}, 3)};
    const DiffSummary d = compare_runs(h, r, kinds, no_trace);
    CHECK(d.rows.empty());
    CHECK(d.not_comparable == 1);
    CHECK(d.not_comparable_reasons.at("the harness's debug API") == 1);
    CHECK(d.compared == 5);
    CHECK(d.both_failed == 1);
    CHECK_THAT(render_differential(d), Catch::Contains("seen by both runtimes: 1 step(s)"));
}

TEST_CASE("differential: a crash is placed at the step its log traced", "[differential]") {
    const Trace t =
        trace_of("step 1\nanswer 1: hipSuccess\nstep 2\nanswer 2: hipSuccess\nstep 3\n");
    CHECK(t.crashed_in == 3);
    REQUIRE(t.answers.size() == 2);
    CHECK(t.answers[1].answer == "hipSuccess");
    CHECK(trace_of("step 1\nanswer 1: ok\n").crashed_in == 0);
    std::vector<InstanceRecord> h{rec("s/c/device=0/path=kfd", Status::pass,
                                      {"hipSuccess", "hipSuccess", "hipErrorInvalidValue"})};
    InstanceRecord crashed = rec("s/c/device=0/path=kfd", Status::crash, {});
    crashed.reason = "killed by SIGSEGV";
    const DiffSummary d = compare_runs(h, {crashed}, kinds, [&](const InstanceRecord &x) {
        return x.status == Status::crash ? t : Trace{};
    });
    REQUIRE(d.rows.size() == 1);
    CHECK(d.rows[0].step == 3);
    CHECK(d.rows[0].rocm == "crash (killed by SIGSEGV)");
    CHECK(d.compared == 3);
}

TEST_CASE("differential: instances are matched without their path", "[differential]") {
    CHECK(differential_key("memcpy-peer/copy/pair=0>1/path=kfd/size=4Ki") ==
          "memcpy-peer/copy/pair=0>1/size=4Ki");
    CHECK(differential_key("devices/count") == "devices/count");
    // ROCm's run ran the drm instance (no kfd twin was drawn): it is the match.
    std::vector<InstanceRecord> h{rec("s/c/size=1/path=drm", Status::pass, {"hipSuccess"})};
    std::vector<InstanceRecord> r{rec("s/c/size=1/path=drm", Status::pass, {"hipSuccess"})};
    CHECK(compare_runs(h, r, kinds, no_trace).compared == 1);
    // An instance ROCm's run skipped is not compared, with its reason.
    InstanceRecord skipped = rec("s/c/size=1/path=drm", Status::skip, {});
    skipped.reason = "why not";
    const DiffSummary d = compare_runs(h, {skipped}, kinds, no_trace);
    CHECK(d.compared == 0);
    CHECK(d.not_comparable_reasons.at("ROCm's run skipped it: why not") == 1);
}

TEST_CASE("differential: every documented difference quotes a row of CONTRACT.md §4",
          "[differential][contract]") {
    const std::string contract = read(std::string(PEER_CONTRACT_DIR) + "/" + "CONTRACT.md");
    const size_t s4 = contract.find("## 4. Divergences from ROCm's runtime");
    const size_t s5 = contract.find("## 5.", s4);
    REQUIRE(s4 != std::string::npos);
    const std::string section = contract.substr(s4, s5 - s4);
    for (const auto &row : documented_differences()) {
        INFO(row.contract);
        CHECK(section.find("\n| " + std::string(row.contract) + " |") != std::string::npos);
    }
}

TEST_CASE("the interpreter calls HIP only through its runtime's table",
          "[differential][hip-calls]") {
    // Every hip* function a step source calls must be an entry of
    // PEER_RUNNER_HIP_CALLS (runtime.hpp): a call missing from it would reach
    // the harness's own runtime in a process that runs ROCm's.
    const std::string table = read(RUNNER_SRC "/runtime.hpp");
    std::set<std::string> listed;
    const std::regex entry(R"(X\([^,]+,\s*(hip\w+),)");
    for (auto it = std::sregex_iterator(table.begin(), table.end(), entry);
         it != std::sregex_iterator(); ++it)
        listed.insert((*it)[1]);
    REQUIRE(listed.size() > 40);
    const std::regex call(R"(\b(hip[A-Z]\w*)\s*\()");
    for (const char *file : {"executor.cpp", "executor_memory.cpp", "executor_device.cpp",
                             "executor_host.cpp", "executor_streams.cpp", "executor_events.cpp",
                             "executor_disruptive.cpp", "executor_rocm.cpp", "executor_impl.hpp"}) {
        const std::string text = read(std::string(RUNNER_SRC) + "/" + file);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), call);
             it != std::sregex_iterator(); ++it) {
            const std::string name = (*it)[1];
            if (name.rfind("hipError", 0) == 0) continue; // a code named in a message
            INFO(file << " calls " << name);
            CHECK(listed.count(name) == 1);
        }
    }
}
