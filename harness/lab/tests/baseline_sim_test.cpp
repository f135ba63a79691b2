// Baselines end to end: a deterministic fault scenario (K01 on gpu1 of
// mixed-4) gives ExpectedFail, UnexpectedPass and a regression that retries
// do not turn into a flake; the self-test suite gives skips and flake
// patterns; `peer-harness baseline` writes the fails file that makes the same
// run pass the gate; and a scenario that fails with a probability
// (fixtures/faults/k01-tail-loss-probability.yaml) gives Flakes. Its draws
// are a fixed hash of (seed, occurrence number), occurrences counted per
// process: an instance that failed at its place in a batch of the first run
// is retried in a smaller batch, where it meets other draws.
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The quick depth's covering array picks these instances (memcpy-peer runs
// on both kernel paths); the K01 scenario fails the three 0>1 copies, both
// paths alike, and no 0>2 copy. A change of the case file or the covering
// array that renames them fails this test at its first CHECK, loudly.
const std::string kP01 = "memcpy-peer/copy/pair=0>1/size=4Mi";
const std::string kF1 = kP01 + "+1/src_offset=31/dst_offset=1/peer_mode=reverse_only/path=kfd";
const std::string kF2 = kP01 + "-1/src_offset=3/dst_offset=4093/peer_mode=disabled/path=drm";
const std::string kF3 = kP01 + "/src_offset=32/dst_offset=32/peer_mode=enabled/path=drm";
const std::string kP1 = "memcpy-peer/copy/pair=0>2/size=4Mi/src_offset=4093/dst_offset=4/"
                        "peer_mode=reverse_only/path=kfd";

std::map<std::string, json> verdicts(const fs::path &results) {
    std::map<std::string, json> out;
    const json lab = labtest::read_json(results / "lab.json");
    for (const auto &v : lab["verdicts"])
        out[v["name"].get<std::string>()] = v;
    return out;
}

labtest::Ran run_k01(const fs::path &dir, const fs::path &baseline, const std::string &results,
                     int retries) {
    return labtest::run_cmd({AMDGPU_SIM_BIN, "--machine", "mixed-4", "--faults",
                             std::string(LAB_TEST_DATA) + "/k01-narrow.yaml", "--",
                             PEER_HARNESS_BIN, "run", "--machine-type", "mixed-4", "--baseline",
                             baseline.string(), "--retries", std::to_string(retries), "--results",
                             (dir / results).string(),
                             "memcpy-peer/copy/pair=0>1/size=4Mi*,memcpy-peer/copy/pair=0>2/"
                             "size=4Mi*"},
                            dir, results + ".txt");
}

} // namespace

TEST_CASE("baseline: K01 fault gives ExpectedFail, UnexpectedPass and a gating regression",
          "[baseline][sim]") {
    labtest::TempDir t;
    const fs::path b = t.path / "expectations";
    fs::create_directories(b);
    std::ofstream(b / "mixed-4-fails.txt") << "# K01 on gpu1: known\n"
                                           << kF1 << ",Fail\n"
                                           << kF2 << ",Fail\n"
                                           << "# fixed long ago\n"
                                           << kP1 << ",Fail\n";
    std::ofstream(b / "other-machine-fails.txt") << kF3 << ",Fail\n"; // not this machine's

    auto r = run_k01(t.path, b, "R1", 1);
    INFO(r.output);
    CHECK(r.code == 1); // kF3 regressed
    auto v = verdicts(t.path / "R1");
    REQUIRE(v.size() == 6);
    CHECK(v[kF1]["verdict"] == "ExpectedFail");
    CHECK(v[kF2]["verdict"] == "ExpectedFail");
    CHECK(v[kP1]["verdict"] == "UnexpectedPass");
    CHECK(v[kF3]["verdict"] == "Regression");
    CHECK(v[kF3]["retries"] == json::array({"fail"})); // re-run once, failed again
    CHECK(fs::exists(t.path / "R1" / "retries" / "1" / "results.jsonl"));
    CHECK(labtest::read_text(t.path / "R1" / "failures.csv") ==
          kF3 + ",Fail\n" + kP1 + ",UnexpectedPass\n");

    // The fails file written from that run makes the same run pass the gate.
    auto w = labtest::run(
        {"baseline", (t.path / "R1").string(), "-o", (b / "mixed-4-fails.txt").string()}, t.path,
        "baseline.txt");
    REQUIRE(w.code == 0);
    const std::string fails = labtest::read_text(b / "mixed-4-fails.txt");
    CHECK(fails.find(kF3 + ",Fail\n") != std::string::npos);
    CHECK(fails.find(kP1) == std::string::npos);
    CHECK(fails.find("# kernel ") != std::string::npos); // the fingerprint header
    auto r2 = run_k01(t.path, b, "R2", 1);
    INFO(r2.output);
    CHECK(r2.code == 0);
    auto v2 = verdicts(t.path / "R2");
    CHECK(v2[kF3]["verdict"] == "ExpectedFail");
    CHECK(v2[kP1]["verdict"] == "Pass");
    CHECK(!fs::exists(t.path / "R2" / "retries"));
}

TEST_CASE("baseline: skips are not run, flake patterns never gate, bad files exit 2",
          "[baseline][sim]") {
    labtest::TempDir t;
    const fs::path b = t.path / "x";
    fs::create_directories(b);
    std::ofstream(b / "mixed-4-fails.txt") << "lab/fail-a,Fail\n";
    std::ofstream(b / "mixed-4-skips.txt") << "# kills the machine\nlab/cr.sh\n";
    std::ofstream(b / "mixed-4-flakes.txt") << "# Bug Report: none\nlab/fail-b\n";
    const std::string cases = std::string(LAB_TEST_DATA) + "/lab-selftest.yaml";
    auto r = labtest::run({"run", "--machine", "mixed-4", "--cases", cases, "--baseline",
                           b.string(), "--results", (t.path / "R").string()},
                          t.path);
    INFO(r.output);
    CHECK(r.code == 0);
    auto v = verdicts(t.path / "R");
    CHECK(v["lab/fail-a"]["verdict"] == "ExpectedFail");
    CHECK(v["lab/fail-b"]["verdict"] == "Flake");
    CHECK(v["lab/crash"]["verdict"] == "Skip");
    CHECK(labtest::read_text(t.path / "R" / "results.jsonl").find("baseline skips: ") !=
          std::string::npos);
    CHECK(v["lab/pass-a"]["verdict"] == "Pass");

    // Without the baseline the same run fails (the gate is the baseline's doing).
    auto plain = labtest::run(
        {"run", "--machine", "mixed-4", "--cases", cases, "--results", (t.path / "P").string()},
        t.path, "plain.txt");
    CHECK(plain.code == 1);

    std::ofstream(b / "mixed-4-fails.txt") << "lab/fail-a\n";
    auto bad = labtest::run({"run", "--machine", "mixed-4", "--cases", cases, "--baseline",
                             b.string(), "--results", (t.path / "B").string()},
                            t.path, "bad.txt");
    CHECK(bad.code == 2);
    CHECK(bad.output.find("mixed-4-fails.txt:1:1: expected 'name,Status'") != std::string::npos);
    CHECK(!fs::exists(t.path / "B" / "results.jsonl"));
}

TEST_CASE("baseline: a fault with a probability gives Flakes (failed, then passed on a retry)",
          "[baseline][sim]") {
    labtest::TempDir t;
    const fs::path b = t.path / "expectations";
    fs::create_directories(b); // no expectations: every failure is unexpected
    const auto r = labtest::run_cmd(
        {AMDGPU_SIM_BIN, "--machine", "mixed-4", "--faults",
         std::string(PEER_FAULTS_DIR) + "/k01-tail-loss-probability.yaml", "--", PEER_HARNESS_BIN,
         "run", "--machine-type", "mixed-4", "--baseline", b.string(), "--retries", "2", "--cases",
         std::string(PEER_CASES_DIR) + "/memcpy-peer.yaml", "--results", (t.path / "P").string()},
        t.path, "P.txt");
    INFO(r.output);
    int flakes = 0, regressions = 0;
    for (const auto &[name, v] : verdicts(t.path / "P")) {
        INFO(name);
        if (v["verdict"] == "Flake") {
            ++flakes;
            // It failed first; its last retry passed, and nothing after it.
            REQUIRE(!v["retries"].empty());
            CHECK(v["retries"].back() == "pass");
            CHECK(v["status"] != "pass");
        }
        if (v["verdict"] == "Regression") ++regressions;
    }
    CHECK(flakes > 0);
    // Some copies fail on every attempt: the gate still closes on them.
    CHECK(regressions > 0);
    CHECK(r.code == 1);
}
