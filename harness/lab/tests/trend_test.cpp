// Change points between nights (a family or pair that starts failing, a
// measured slowdown beyond the threshold, never a simulated one), the
// fingerprint fields that differ, how nights are found, and the CSV rows.
#include "lab/trend.hpp"
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace harness::lab;
using harness::report::CopyFigure;
using harness::report::InstanceRecord;
using harness::report::Status;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

InstanceRecord copy_instance(const std::string &kase, int a, int b, Status st, double gbps,
                             bool simulated = false) {
    InstanceRecord r;
    r.suite = "memcpy-peer", r.kase = kase, r.status = st;
    r.name = "memcpy-peer/" + kase + "/pair=" + std::to_string(a) + ">" + std::to_string(b);
    r.params = {{"pair", std::to_string(a) + ">" + std::to_string(b)}};
    if (gbps > 0) {
        CopyFigure f;
        f.src = a, f.dst = b, f.gbps = gbps, f.bytes = 64 << 20, f.link = "xgmi";
        f.peak_gbps = 50, f.clock = "sdma-timestamp", f.simulated = simulated;
        r.copies = {f};
    }
    return r;
}

Night night(const std::string &label, std::vector<InstanceRecord> records,
            const std::string &kernel = "6.10.0") {
    RunResults run;
    run.records = std::move(records);
    Night n;
    n.label = label;
    n.summary = summarize(run);
    n.fingerprint = {{"kernel_release", kernel}};
    return n;
}

} // namespace

TEST_CASE("a measured slowdown beyond the threshold is a change point at its night", "[trend]") {
    std::vector<Night> nights = {
        night("n1", {copy_instance("copy", 0, 1, Status::pass, 40)}),
        night("n2", {copy_instance("copy", 0, 1, Status::pass, 37)}), // -7.5%: noise
        night("n3", {copy_instance("copy", 0, 1, Status::pass, 20)}), // -46%
        night("n4", {copy_instance("copy", 0, 1, Status::pass, 21)})};
    auto c = find_change_points(nights, 10);
    REQUIRE(c.size() == 1);
    CHECK(c[0].kind == ChangePoint::Kind::slower);
    CHECK(c[0].night == 2);
    CHECK(c[0].subject == "0>1");
    CHECK(c[0].detail.rfind("37.00 -> 20.00 GB/s (-46%", 0) == 0);
    // A looser threshold lets it pass.
    CHECK(find_change_points(nights, 50).empty());
}

TEST_CASE("simulated figures and changed clocks never make a slowdown", "[trend]") {
    std::vector<Night> sim = {night("n1", {copy_instance("copy", 0, 1, Status::pass, 40, true)}),
                              night("n2", {copy_instance("copy", 0, 1, Status::pass, 4, true)})};
    CHECK(find_change_points(sim, 10).empty());
    std::vector<Night> clocks = {night("n1", {copy_instance("copy", 0, 1, Status::pass, 40)}),
                                 night("n2", {copy_instance("copy", 0, 1, Status::pass, 4)})};
    clocks[1].summary.best_copy.at({0, 1}).clock = "host-fence";
    CHECK(find_change_points(clocks, 10).empty());
}

TEST_CASE("a family and a pair that start failing, and recover", "[trend]") {
    auto pass = [](int a, int b) { return copy_instance("copy", a, b, Status::pass, 0); };
    std::vector<Night> nights = {
        night("n1", {pass(0, 1), pass(1, 0)}), night("n2", {pass(0, 1), pass(1, 0)}),
        night("n3", {copy_instance("copy", 0, 1, Status::fail, 0), pass(1, 0)}, "6.12.0"),
        night("n4", {copy_instance("copy", 0, 1, Status::crash, 0), pass(1, 0)}, "6.12.0"),
        night("n5", {pass(0, 1), pass(1, 0)})};
    auto c = find_change_points(nights, 10);
    REQUIRE(c.size() == 4);
    CHECK(c[0].kind == ChangePoint::Kind::family_failing);
    CHECK(c[0].subject == "memcpy-peer/copy");
    CHECK(c[0].night == 2);
    CHECK(c[1].kind == ChangePoint::Kind::pair_failing);
    CHECK(c[1].subject == "0>1");
    CHECK(c[1].night == 2); // still failing on n4: no new change point there
    CHECK(c[2].kind == ChangePoint::Kind::recovered);
    CHECK(c[2].night == 4);
    auto d = night_differences(nights[1], nights[2]);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == "kernel_release");
    CHECK(d[0].before == "6.10.0");
    CHECK(d[0].after == "6.12.0");
}

TEST_CASE("the simulator's machine and fault scenario count as differences", "[trend]") {
    Night a = night("a", {}), b = night("b", {});
    a.machine = b.machine = "mixed-4";
    b.faults = "k01-narrow.yaml";
    auto d = night_differences(a, b);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == "simulator.faults");
    CHECK(d[0].after == "k01-narrow.yaml");
}

TEST_CASE("nights: results directories, or directories of them in name order", "[trend]") {
    labtest::TempDir t;
    for (const char *n : {"nightly-2026-12-02", "nightly-2026-12-01", "nightly-2026-12-03"}) {
        fs::create_directories(t.path / "all" / n);
        std::ofstream(t.path / "all" / n / "results.jsonl") << "";
    }
    fs::create_directories(t.path / "all" / "notes");
    auto d = night_dirs({(t.path / "all").string()});
    REQUIRE(d.index() == 0);
    const auto &dirs = std::get<0>(d);
    REQUIRE(dirs.size() == 3);
    CHECK(fs::path(dirs[0]).filename() == "nightly-2026-12-01");
    CHECK(fs::path(dirs[2]).filename() == "nightly-2026-12-03");
    auto one = night_dirs({(t.path / "all" / "nightly-2026-12-02").string()});
    REQUIRE(one.index() == 0);
    CHECK(std::get<0>(one).size() == 1);
    auto bad = night_dirs({(t.path / "all" / "notes").string()});
    REQUIRE(bad.index() == 1);
    CHECK(std::get<1>(bad).find("not a results directory") != std::string::npos);
}

TEST_CASE("trend CSV: one row per night and ordered pair", "[trend]") {
    Trend t;
    t.nights = {night("n1", {copy_instance("copy", 0, 1, Status::pass, 40)}),
                night("n,2", {copy_instance("copy", 0, 1, Status::fail, 30)})};
    t.differs.resize(2);
    const std::string csv = render_trend_csv(t);
    CHECK(csv.find("1,n1,0>1,0,1,pass,pass,1,0,0,0,40.000,xgmi,50.0,80.0,measured\n") !=
          std::string::npos);
    CHECK(csv.find("2,\"n,2\",0>1,0,1,fail,fail,0,1,0,0,30.000,xgmi,50.0,60.0,measured\n") !=
          std::string::npos);
}
