// The run summary report.html and trend draw from (worst outcome per pair,
// fastest copy, flaky and expected failures from lab.json), the verdict
// sentence, and the reproducer command of an instance.
#include "lab/html.hpp"
#include "lab/reproducer.hpp"
#include "lab/run_summary.hpp"
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace harness::lab;
using harness::report::CopyFigure;
using harness::report::InstanceRecord;
using harness::report::Status;
using nlohmann::json;

namespace {

InstanceRecord rec(const std::string &name, const std::string &key, const std::string &value,
                   Status st) {
    InstanceRecord r;
    r.name = name;
    r.suite = "s";
    r.kase = name.substr(0, name.find('/'));
    r.params = {{key, value}};
    r.status = st;
    return r;
}

CopyFigure copy(int src, int dst, double gbps) {
    CopyFigure f;
    f.src = src, f.dst = dst, f.gbps = gbps, f.bytes = 1 << 20, f.link = "xgmi";
    f.peak_gbps = 50, f.clock = "sdma-timestamp";
    return f;
}

} // namespace

TEST_CASE("pairs, devices and triples land in the right cells", "[report-model]") {
    RunResults run;
    run.records = {
        rec("a/1", "pair", "0>1", Status::fail), rec("a/2", "pair", "0>1", Status::crash),
        rec("a/3", "pair", "0>1", Status::pass), rec("b/1", "triple", "2>3+0", Status::pass),
        rec("c/1", "device", "2", Status::skip), rec("d/1", "size", "4Ki", Status::pass)};
    run.records[2].copies = {copy(0, 1, 10), copy(0, 1, 30), copy(1, 0, 5)};
    const RunSummary s = summarize(run);
    CHECK(s.devices == 4);
    const Tally &t = s.pairs.at({0, 1});
    CHECK(t.fail == 2);
    CHECK(t.pass == 1);
    CHECK(t.worst == Outcome::fail);
    CHECK(t.worst_status == Status::crash); // a crash outranks a failure
    CHECK(s.pairs.at({2, 3}).pass == 1);
    CHECK(s.pairs.at({2, 2}).skip == 1);
    CHECK(s.unpaired.pass == 1);
    CHECK(s.best_copy.at({0, 1}).gbps == 30);
    CHECK(s.best_copy.at({1, 0}).gbps == 5);
    CHECK(s.families.at("s/a").fail == 2);
}

TEST_CASE("lab.json turns failures into flaky and expected ones", "[report-model]") {
    labtest::TempDir t;
    RunResults run;
    run.dir = t.path.string();
    run.records = {rec("a/1", "pair", "0>1", Status::fail), rec("a/2", "pair", "1>0", Status::fail),
                   rec("a/3", "pair", "1>0", Status::fail)};
    std::ofstream(t.path / files::kLabJson) << json{
        {"verdicts",
         {{{"name", "a/1"}, {"verdict", "Flake"}},
          {{"name", "a/2"}, {"verdict", "ExpectedFail"}},
          {{"name", "a/3"},
           {"verdict", "Regression"}}}}}.dump();
    const RunSummary s = summarize(run);
    CHECK(s.judged);
    CHECK(s.regressions == 1);
    CHECK(s.pairs.at({0, 1}).worst == Outcome::flaky);
    CHECK(s.pairs.at({1, 0}).worst == Outcome::fail);
    CHECK(s.pairs.at({1, 0}).expected == 1);
    const std::string v = render_html(run);
    CHECK(v.find("<strong>REGRESSION</strong>: 1 regression(s)") != std::string::npos);
    CHECK(v.find("1 flaky") != std::string::npos);
    CHECK(v.find("1 expected failure(s)") != std::string::npos);
}

TEST_CASE("a run where everything passed says PASS", "[report-model]") {
    RunResults run;
    run.records = {rec("a/1", "pair", "0>1", Status::pass),
                   rec("a/2", "pair", "1>0", Status::skip)};
    const std::string page = render_html(run);
    CHECK(page.find("<div id=\"verdict\" class=\"verdict good\"><strong>PASS</strong>: all 1 "
                    "instances that ran passed. 1 skipped.</div>") != std::string::npos);
    CHECK(page.find("id=\"failures\">None.") != std::string::npos);
}

TEST_CASE("the reproducer runs one instance as the run ran it", "[report-model]") {
    json sim = {{"on_simulator", true},      {"machine", "mi300x-8"}, {"faults", "/f/k01.yaml"},
                {"cases", {"/c/a", "/c/b"}}, {"depth", "full"},       {"seed", 7}};
    CHECK(reproducer_command(sim, "x/y/pair=0>1/size=4Mi") ==
          "peer-harness run --machine mi300x-8 --faults /f/k01.yaml --cases /c/a --cases /c/b "
          "--depth full --seed 7 'x/y/pair=0>1/size=4Mi'");
    json hw = {{"on_simulator", false}, {"machine", ""},    {"manifest", "/lab/box.yaml"},
               {"cases", {"/c"}},       {"depth", "quick"}, {"seed", 1}};
    CHECK(reproducer_command(hw, "a,b[c]") ==
          "peer-harness run --expect /lab/box.yaml --cases /c 'a\\,b\\[c\\]'");
}
