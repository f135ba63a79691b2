// --shard I/N and `peer-harness merge`: the shards partition the selected
// instances, and their merge equals the unsharded run (records compared
// without durations and log paths).
#include "lab/merge.hpp"
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace harness::lab;
namespace fs = std::filesystem;

namespace {

RunResults load(const fs::path &p) {
    auto r = read_run(p.string());
    REQUIRE(std::holds_alternative<RunResults>(r));
    return std::get<RunResults>(r);
}

} // namespace

TEST_CASE("record_differences ignores durations and logs, names everything else", "[merge]") {
    harness::report::InstanceRecord a, b;
    a.name = b.name = "s/x";
    a.duration_s = 1;
    b.duration_s = 2;
    b.log = "logs/00001.log";
    CHECK(record_differences({a}, {b}).empty());
    // Measured copy times differ between any two runs; the copy itself not.
    harness::report::CopyFigure f;
    f.step = 2;
    f.bytes = 4096;
    f.ns = 100;
    f.gbps = 40.96;
    f.clock = "sdma-timestamp";
    a.copies = {f};
    f.ns = 200;
    f.gbps = 20.48;
    b.copies = {f};
    CHECK(record_differences({a}, {b}).empty());
    b.copies[0].bytes = 8192;
    CHECK(record_differences({a}, {b}).size() == 1);
    b.copies = a.copies;
    b.status = harness::report::Status::fail;
    CHECK(record_differences({a}, {b}).size() == 1);
    CHECK(record_differences({a}, {}) == std::vector<std::string>{"only in the first: s/x"});
}

TEST_CASE("three shards merge into the unsharded run", "[merge][sim]") {
    labtest::TempDir t;
    const std::string cases = std::string(LAB_TEST_DATA) + "/lab-selftest.yaml";
    const std::string cases2 = std::string(LAB_SOURCE_DIR) + "/cases/can-access-peer.yaml";
    auto run = [&](const std::string &dir, std::vector<std::string> extra) {
        std::vector<std::string> a{"run",     "--machine", "mixed-4",
                                   "--cases", cases,       "--cases",
                                   cases2,    "--results", (t.path / dir).string()};
        a.insert(a.end(), extra.begin(), extra.end());
        return labtest::run(a, t.path, dir + ".txt");
    };
    auto whole = run("whole", {});
    REQUIRE(whole.code == 1); // lab/fail-*, lab/crash
    std::set<std::string> seen;
    size_t total = 0;
    for (int i = 1; i <= 3; ++i) {
        auto r = run("s" + std::to_string(i), {"--shard", std::to_string(i) + "/3"});
        INFO(r.output);
        REQUIRE(r.code <= 1);
        auto shard = load(t.path / ("s" + std::to_string(i)));
        CHECK(!shard.records.empty());
        for (const auto &rec : shard.records) {
            CHECK(seen.insert(rec.name).second); // no instance in two shards
            ++total;
        }
    }
    const RunResults w = load(t.path / "whole");
    CHECK(total == w.records.size());

    auto m = labtest::run({"merge", "-o", (t.path / "merged").string(), (t.path / "s3").string(),
                           (t.path / "s1").string(), (t.path / "s2").string()},
                          t.path, "merge.txt");
    INFO(m.output);
    REQUIRE(m.code == 0);
    const RunResults merged = load(t.path / "merged");
    CHECK(record_differences(w.records, merged.records).empty());
    CHECK(labtest::read_text(t.path / "merged" / "results.csv").size() > 0);
    CHECK(fs::exists(t.path / "merged" / "report.html"));
    CHECK(merged.metadata["shard"] == nlohmann::json::array({1, 1}));

    // Same shard twice, or one missing: refused with exit 2.
    auto dup = labtest::run({"merge", "-o", (t.path / "bad").string(), (t.path / "s1").string(),
                             (t.path / "s1").string(), (t.path / "s2").string()},
                            t.path, "dup.txt");
    CHECK(dup.code == 2);
    CHECK(dup.output.find("shard 1 again") != std::string::npos);
    CHECK(dup.output.find("shard 3/3 is missing") != std::string::npos);
    auto bad = labtest::run({"run", "--machine", "mixed-4", "--cases", cases, "--shard", "4/3"},
                            t.path, "badshard.txt");
    CHECK(bad.code == 2);
}
