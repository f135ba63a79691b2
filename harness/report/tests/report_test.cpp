#include <catch2/catch.hpp>

#include "report/journal.hpp"
#include "report/junit.hpp"
#include "report/markup.hpp"
#include "report/summary.hpp"
#include "report/timing.hpp"

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace harness::report;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/report-test-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

InstanceRecord rec(int i, const std::string &name, Status s, const std::string &reason = {}) {
    InstanceRecord r;
    r.index = i;
    r.name = name;
    r.suite = name.substr(0, name.find('/'));
    r.kase =
        name.substr(name.find('/') + 1, name.find('/', name.find('/') + 1) - name.find('/') - 1);
    r.status = s;
    r.reason = reason;
    return r;
}

} // namespace

TEST_CASE("journal lines round-trip every field", "[journal]") {
    TempDir d;
    std::string path = (d.path / "results.jsonl").string();
    InstanceRecord r = rec(7, "s/c/pair=0>1", Status::fail, "expected hipSuccess");
    r.params = {{"pair", "0>1"}};
    r.failures.push_back({3, "cases/x.yaml", 12, "got hipErrorInvalidDevice", "doc sentence"});
    r.kernel_errors.push_back("GEM_VA: EINVAL (22)");
    r.duration_s = 1.25;
    r.log = "logs/00007.log";
    r.step_times = {{1, 0.125}, {3, 1100.5}};
    {
        auto w = std::get<JournalWriter>(JournalWriter::open(path, true));
        CHECK(w.start(7, r.name).empty());
        CHECK(w.end(r).empty());
    }
    auto st = read_journal(path);
    CHECK(st.problems.empty());
    REQUIRE(st.ended.count(r.name) == 1);
    const auto &back = st.ended.at(r.name);
    CHECK(to_json(back) == to_json(r));
    CHECK(st.started_only.empty());
}

TEST_CASE("golden: a journal from a killed run", "[journal]") {
    for (const auto &dir : fs::directory_iterator(REPORT_GOLDENS)) {
        DYNAMIC_SECTION(dir.path().filename().string()) {
            auto st = read_journal((dir.path() / "results.jsonl").string());
            std::ifstream in(dir.path() / "expected.json");
            auto want = nlohmann::json::parse(in);
            CHECK(st.problems.size() == want["problems"].get<size_t>());
            auto recs = records_of(st);
            REQUIRE(recs.size() == want["records"].size());
            for (size_t i = 0; i < recs.size(); ++i) {
                CHECK(recs[i].name == want["records"][i]["name"]);
                CHECK(status_name(recs[i].status) == want["records"][i]["status"]);
            }
        }
    }
}

TEST_CASE("appending after a torn line keeps later lines readable", "[journal]") {
    TempDir d;
    std::string path = (d.path / "results.jsonl").string();
    {
        std::ofstream o(path);
        o << "{\"event\":\"start\",\"index\":1,\"name\":\"s/a\"}\n{\"event\":\"en";
    }
    {
        auto w = std::get<JournalWriter>(JournalWriter::open(path, false));
        CHECK(w.end(rec(1, "s/a", Status::pass)).empty());
    }
    auto st = read_journal(path);
    CHECK(st.problems.size() == 1);
    CHECK(st.ended.at("s/a").status == Status::pass);
}

TEST_CASE("summary counts per family and lists failures and skip reasons", "[summary]") {
    std::vector<InstanceRecord> rs = {
        rec(1, "s/a/x=1", Status::pass), rec(2, "s/a/x=2", Status::fail, "bad"),
        rec(3, "s/b", Status::skip, "no xgmi pair"), rec(4, "t/c", Status::crash, "SIGSEGV"),
        rec(5, "t/c/x", Status::timeout, "60 s")};
    Summary s = summarise(rs);
    CHECK(s.families.size() == 3);
    CHECK(s.families.at("s/a").of(Status::pass) == 1);
    CHECK(s.families.at("s/a").of(Status::fail) == 1);
    CHECK(s.total.failures() == 3);
    CHECK(s.skip_reasons.at("no xgmi pair") == 1);
    std::string text = render_summary(s, 12.5);
    CHECK(text.find("5 instances: 1 passed, 3 failed, 1 skipped, wall time 12.5 s") !=
          std::string::npos);
    CHECK(text.find("crash      t/c") != std::string::npos);
}

TEST_CASE("junit marks skips, failures and crashes and escapes names", "[junit]") {
    std::vector<InstanceRecord> rs = {
        rec(1, "s/a/pair=0>1", Status::pass), rec(2, "s/a/x=<&>", Status::fail, "bad \"quote\""),
        rec(3, "s/b", Status::skip, "no pair"), rec(4, "s/c", Status::crash, "SIGSEGV")};
    std::string x = render_junit(rs, "run");
    CHECK(x.find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\"") != std::string::npos);
    CHECK(x.find("name=\"s/a/pair=0&gt;1\"") != std::string::npos);
    CHECK(x.find("<skipped message=\"no pair\"/>") != std::string::npos);
    CHECK(x.find("<error type=\"crash\" message=\"SIGSEGV\">") != std::string::npos);
    CHECK(x.find("message=\"bad &quot;quote&quot;\"") != std::string::npos);
}

#include "report/csv.hpp"

TEST_CASE("csv is sorted by name, uses deqp-runner's words and quotes when needed", "[csv]") {
    std::vector<InstanceRecord> rs = {rec(2, "s/b", Status::crash), rec(1, "s/a,x", Status::pass),
                                      rec(3, "s/c\"q", Status::timeout)};
    rs[0].duration_s = 1.5;
    CHECK(render_csv(rs) == "\"s/a,x\",Pass,0.000\ns/b,Crash,1.500\n\"s/c\"\"q\",Timeout,0.000\n");
}

#include "report/compare.hpp"

TEST_CASE("compare finds new failures, fixes and changes between runs", "[compare]") {
    std::vector<InstanceRecord> before = {rec(1, "s/a", Status::pass), rec(2, "s/b", Status::fail),
                                          rec(3, "s/c", Status::skip), rec(4, "s/d", Status::fail),
                                          rec(5, "s/gone", Status::pass)};
    std::vector<InstanceRecord> after = {
        rec(1, "s/a", Status::crash), rec(2, "s/b", Status::pass), rec(3, "s/c", Status::pass),
        rec(4, "s/d", Status::timeout), rec(6, "s/new", Status::pass)};
    Comparison c = compare_runs(before, after);
    REQUIRE(c.regressions.size() == 1);
    CHECK(c.regressions[0].name == "s/a");
    REQUIRE(c.fixes.size() == 1);
    CHECK(c.fixes[0].name == "s/b");
    REQUIRE(c.unskipped.size() == 1); // skip -> pass
    CHECK(c.unskipped[0].name == "s/c");
    REQUIRE(c.other.size() == 1); // fail -> timeout
    CHECK(c.other[0].name == "s/d");
    CHECK(c.only_before == std::vector<std::string>{"s/gone"});
    CHECK(c.only_after == std::vector<std::string>{"s/new"});
    CHECK(c.regressed());
    CHECK(c.gates());
    CHECK(render_comparison(c).find("pass       -> crash      s/a") != std::string::npos);
    CHECK_FALSE(compare_runs(before, before).regressed());
    CHECK_FALSE(compare_runs(before, before).gates());
}

TEST_CASE("compare: every kind of status change and what gates", "[compare]") {
    struct Row {
        Status before, after;
        const char *kind; // which list the change lands in
        bool gates;
    };
    const Row table[] = {
        {Status::pass, Status::fail, "regression", true},
        {Status::pass, Status::crash, "regression", true},
        {Status::pass, Status::timeout, "regression", true},
        {Status::pass, Status::incomplete, "regression", true},
        {Status::skip, Status::fail, "regression", true},
        {Status::pass, Status::skip, "new_skip", true},
        {Status::fail, Status::skip, "new_skip", true},
        {Status::skip, Status::pass, "unskipped", false},
        {Status::fail, Status::pass, "fix", false},
        {Status::crash, Status::pass, "fix", false},
        {Status::fail, Status::crash, "other", false},
        {Status::timeout, Status::fail, "other", false},
        {Status::pass, Status::pass, "none", false},
    };
    for (const auto &row : table) {
        CAPTURE(status_name(row.before), status_name(row.after));
        Comparison c = compare_runs({rec(1, "s/x", row.before)}, {rec(1, "s/x", row.after)});
        const std::string kind = !c.regressions.empty() ? "regression"
                                 : !c.new_skips.empty() ? "new_skip"
                                 : !c.unskipped.empty() ? "unskipped"
                                 : !c.fixes.empty()     ? "fix"
                                 : !c.other.empty()     ? "other"
                                                        : "none";
        CHECK(kind == row.kind);
        CHECK(c.gates() == row.gates);
    }
    // An instance that disappears gates; a new one does not.
    CHECK(compare_runs({rec(1, "s/x", Status::pass)}, {}).gates());
    CHECK_FALSE(compare_runs({}, {rec(1, "s/x", Status::fail)}).gates());
}

namespace {
InstanceRecord with_copy(InstanceRecord r, double gbps, bool simulated = false,
                         const char *clock = "sdma-timestamp", uint64_t bytes = 4 << 20) {
    CopyFigure f;
    f.step = 3;
    f.src = 0;
    f.dst = 1;
    f.bytes = bytes;
    f.gbps = gbps;
    f.ns = static_cast<uint64_t>(static_cast<double>(bytes) / gbps);
    f.clock = clock;
    f.link = "pcie";
    f.peak_gbps = 32;
    f.simulated = simulated;
    r.copies.push_back(f);
    return r;
}
} // namespace

TEST_CASE("compare: bandwidth beyond the threshold, and what of it gates", "[compare]") {
    const InstanceRecord base = with_copy(rec(1, "s/x", Status::pass), 20.0);
    struct Row {
        double after;
        bool simulated;
        const char *clock;
        double threshold;
        size_t listed;
        bool gates;
    };
    const Row table[] = {
        {19.0, false, "sdma-timestamp", 10, 0, false},        // -5%: noise
        {17.0, false, "sdma-timestamp", 10, 1, true},         // -15%: slower, gates
        {17.0, false, "sdma-timestamp", 20, 0, false},        // -15% under a 20% threshold
        {25.0, false, "sdma-timestamp", 10, 1, false},        // +25%: listed, faster never gates
        {10.0, true, "sdma-timestamp", 10, 1, false},         // simulated: listed, not gated
        {10.0, false, "host-fence", 10, 0, false},            // clocks differ: not compared
        {18.1, false, "sdma-timestamp", 10, 0, false},        // -9.5%: just inside
        {20.0 * 0.899, false, "sdma-timestamp", 10, 1, true}, // -10.1%: just beyond
    };
    for (const auto &row : table) {
        CAPTURE(row.after, row.simulated, row.clock, row.threshold);
        Comparison c = compare_runs(
            {base}, {with_copy(rec(1, "s/x", Status::pass), row.after, row.simulated, row.clock)},
            CompareOptions{row.threshold});
        CHECK(c.bandwidth.size() == row.listed);
        CHECK(c.gates() == row.gates);
        CHECK(c.bandwidth_clock_changed == (std::string(row.clock) == "host-fence" ? 1 : 0));
    }
    // Another byte count is another measurement: never matched.
    CHECK(compare_runs({base},
                       {with_copy(rec(1, "s/x", Status::pass), 5.0, false, "sdma-timestamp", 4096)})
              .bandwidth.empty());
    Comparison slow = compare_runs({base}, {with_copy(rec(1, "s/x", Status::pass), 10.0)});
    REQUIRE(slow.bandwidth.size() == 1);
    CHECK(slow.bandwidth[0].percent == Approx(-50.0));
    const std::string text = render_comparison(slow);
    CHECK(text.find("bandwidth beyond 10%") != std::string::npos);
    CHECK(text.find("20.000 ->    10.000 GB/s  -50.0% s/x step 3") != std::string::npos);
    CHECK(text.find("gate: FAIL") != std::string::npos);
    const std::string sim = render_comparison(
        compare_runs({base}, {with_copy(rec(1, "s/x", Status::pass), 10.0, true)}));
    CHECK(sim.find("bandwidth of 1 simulated copy step(s) moved beyond 10%") != std::string::npos);
    CHECK(sim.find("gate: pass") != std::string::npos);
}

TEST_CASE("copy figures survive the journal and reach bandwidth.csv", "[csv]") {
    InstanceRecord r = with_copy(rec(1, "s/x", Status::pass), 8.0, true);
    std::string err;
    auto back = record_from_json(to_json(r), err);
    REQUIRE(back);
    REQUIRE(back->copies.size() == 1);
    CHECK(back->copies[0] == r.copies[0]);
    CHECK(render_bandwidth_csv({r, rec(2, "s/none", Status::pass)}) ==
          "name,step,src,dst,bytes,ns,gbps,clock,link,peak_gbps,pct_peak,simulated\n"
          "s/x,3,0,1,4194304,524288,8.000,sdma-timestamp,pcie,32.000,25.0,simulated\n");
}

TEST_CASE("step times: malformed entries are dropped, the record stays readable", "[journal]") {
    auto j = to_json(rec(1, "s/c", Status::pass));
    j["step_ms"] = nlohmann::json::parse(R"([[1, 2.5], [2], ["3", 1.0], [4, "x"], 7, [5, 0]])");
    std::string err;
    auto back = record_from_json(j, err);
    REQUIRE(back);
    CHECK(back->step_times == std::vector<StepTime>{{1, 2.5}, {5, 0.0}});
    j["step_ms"] = "not a list";
    back = record_from_json(j, err);
    REQUIRE(back);
    CHECK(back->step_times.empty());
}

TEST_CASE("timing: instance time by family and parameter, steps named, largest first", "[timing]") {
    auto make = [](const std::string &name, const char *path, double s,
                   std::vector<StepTime> steps) {
        InstanceRecord r = rec(0, name, Status::pass);
        if (path) r.params = {{"path", path}};
        r.duration_s = s;
        r.step_times = std::move(steps);
        return r;
    };
    const std::vector<InstanceRecord> recs = {
        make("m/copy/a", "kfd", 0.5, {{1, 200}, {2, 250}}),
        make("m/copy/b", "drm", 0.25, {{1, 100}, {2, 100}}),
        make("m/copy/c", "kfd", 1.5, {{1, 1000}, {2, 350}}),
        make("z/none/x", nullptr, 0.75, {}),
    };
    const Timing by_path = time_by_family(recs, "path");
    CHECK(by_path.instances == 4);
    CHECK(by_path.seconds == Approx(3.0));
    REQUIRE(by_path.rows.size() == 3);
    CHECK(by_path.rows[0].family == "m/copy");
    CHECK(by_path.rows[0].group == "kfd");
    CHECK(by_path.rows[0].instances == 2);
    CHECK(by_path.rows[0].seconds == Approx(2.0));
    CHECK(by_path.rows[0].steps.at(1).ms == Approx(1200));
    CHECK(by_path.rows[0].steps.at(1).runs == 2);
    CHECK(by_path.rows[1].family == "z/none");
    CHECK(by_path.rows[1].group == "-"); // no such parameter
    CHECK(by_path.rows[2].group == "drm");
    auto namer = [](const std::string &family, int step) -> std::string {
        return family == "m/copy" && step == 1 ? "alloc" : "";
    };
    const std::string text = render_timing(by_path, "path", 2, namer);
    CHECK(text == "instance time 3.0 s over 4 instances, by case family and path, largest first\n"
                  " share   seconds instances   mean ms  family\n"
                  " 66.7%       2.0         2  1000.000  m/copy (path=kfd)\n"
                  "                           step  1 alloc                        1.2 s, "
                  "600.000 ms each\n"
                  "                           step  2 ?                            0.6 s, "
                  "300.000 ms each\n"
                  "                           outside the steps                    0.2 s\n"
                  " 25.0%       0.8         1   750.000  z/none (path=-)\n"
                  "(1 more rows: --top 0 lists all)\n");
    // Without a split, one row per family.
    const Timing whole = time_by_family(recs, "");
    REQUIRE(whole.rows.size() == 2);
    CHECK(whole.rows[0].instances == 3);
    CHECK(whole.rows[0].group.empty());
}

TEST_CASE("one escape serves XML and HTML", "[markup]") {
    CHECK(harness::report::markup_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
    // XML 1.0 forbids control characters even as entities; tab and newline stay.
    CHECK(harness::report::markup_escape(std::string("x\x01y\tz\n", 6)) == "x?y\tz\n");
    CHECK(harness::report::markup_escape("plain") == "plain");
}
