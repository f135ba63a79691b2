// peer-harness detect's pure parts: the margin rule (render_detect,
// detect_verdict) and which scenarios can fire on a machine
// (applicability.hpp), against the shipped machine files.
#include "manifest/manifest.hpp"
#include "runner/applicability.hpp"
#include "runner/detect.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace harness;
using runner::DetectRow;

namespace {

DetectRow row(const std::string &name, int exit_code, int failed,
              std::set<std::string> families = {}) {
    DetectRow r;
    r.scenario = name;
    r.exit_code = exit_code;
    r.failed = failed;
    r.families = std::move(families);
    return r;
}

std::string last_line(const std::string &text) {
    const auto end = text.find_last_not_of('\n');
    const auto start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - start);
}

manifest::Manifest machine(const std::string &name) {
    auto m = manifest::load_manifest(std::string(MACHINES_DIR) + "/" + name + ".yaml");
    REQUIRE(std::holds_alternative<manifest::Manifest>(m));
    return std::get<manifest::Manifest>(m);
}

runner::Applicability of_file(const manifest::Manifest &m, const std::string &scenario) {
    std::ifstream in(std::string(FAULTS_DIR) + "/" + scenario + ".yaml");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return runner::scenario_applicability_of(m, text.str());
}

} // namespace

TEST_CASE("a scenario caught by fewer instances than --min-margin is weak and fails detect",
          "[detect][margin]") {
    const DetectRow clean = row("(faithful)", 0, 0);
    const std::vector<DetectRow> one{row("narrow", 1, 1, {"s/a"})};
    const std::vector<DetectRow> two{row("narrow", 1, 2, {"s/a", "s/b"})};
    CHECK(runner::detect_verdict(clean, one, 2) == 1);
    CHECK(runner::detect_verdict(clean, two, 2) == 0);
    CHECK(runner::detect_verdict(clean, one, 1) == 0);
    CHECK(runner::detect_verdict(clean, two, 3) == 1);
    const std::string text = runner::render_detect(clean, one, 2);
    CHECK(text.find("narrow                             WEAK           1        1") !=
          std::string::npos);
    CHECK(last_line(text) ==
          "0 of 1 scenarios detected with margin >= 2, 1 weak, 0 not applicable, 0 false "
          "failures");
    CHECK(last_line(runner::render_detect(clean, two, 2)) ==
          "1 of 1 scenarios detected with margin >= 2, 0 weak, 0 not applicable, 0 false "
          "failures");
}

TEST_CASE("misses, run-level detections, n/a rows and false failures in the verdict",
          "[detect][margin]") {
    const DetectRow clean = row("(faithful)", 0, 0);
    DetectRow na = row("elsewhere", 0, 0);
    na.not_applicable = "no pair that kfd_mem_attach refuses";
    // The run failed before any instance (topology against the manifest).
    const DetectRow run_level = row("topology", 1, 0);
    CHECK(run_level.run_level());
    CHECK_FALSE(run_level.weak(2));
    CHECK(runner::detect_verdict(clean, {na, run_level}, 2) == 0);
    const std::string text = runner::render_detect(clean, {na, run_level}, 2);
    CHECK(text.find("elsewhere                          n/a") != std::string::npos);
    CHECK(text.find("no pair that kfd_mem_attach refuses") != std::string::npos);
    CHECK(last_line(text) == "1 of 1 scenarios detected with margin >= 2, 0 weak, 1 not "
                             "applicable, 0 false failures");
    CHECK(runner::detect_verdict(clean, {na, row("missed", 0, 0)}, 2) == 1);
    CHECK(runner::detect_verdict(row("(faithful)", 1, 3), {run_level}, 2) == 1);
    CHECK(last_line(runner::render_detect(row("(faithful)", 1, 3), {run_level}, 2))
              .ends_with(", 3 false failures"));
}

TEST_CASE("applicability: what cannot fire on an all-XGMI machine is not applicable",
          "[detect][applicability]") {
    const manifest::Manifest m = machine("mi300x-8");
    for (const char *sc :
         {"k07-move-under-running-blit", "k08-vram-without-p2p", "kfd-attach-allow-illegal",
          "kfd-map-partial-reported-full", "k12-asymmetric-gpu0-gpu2", "k10-pcie-p2p-param-ignored",
          "k10-large-bar-ignored", "kfd-attach-bar-kind"}) {
        INFO(sc);
        CHECK_FALSE(of_file(m, sc).applicable);
        CHECK_FALSE(of_file(m, sc).reason.empty());
    }
    for (const char *sc :
         {"k01-tail-loss-unaligned", "k08-dmabuf-force-gtt", "k21-hive-double-reset",
          "kfd-attach-refuse-legal", "k17-pair-gpu2-to-gpu0", "k13-zero-xgmi-sdma"}) {
        INFO(sc);
        CHECK(of_file(m, sc).applicable);
    }
}

TEST_CASE("applicability: mixed machines, missing GPUs, topology faults where they bite",
          "[detect][applicability]") {
    const manifest::Manifest m4 = machine("mixed-4");
    CHECK_FALSE(of_file(m4, "k10-pcie-p2p-param-ignored").applicable); // pcie_p2p is on
    CHECK_FALSE(of_file(m4, "k11-iommu-remap-ignored").applicable);    // 6.10: no remap rule
    for (const char *sc :
         {"k10-large-bar-ignored", "k11-narrow-dma-mask", "k12-asymmetric-gpu0-gpu2",
          "k07-move-under-running-blit", "k08-vram-without-p2p", "kfd-attach-allow-illegal",
          "kfd-attach-bar-kind"}) {
        INFO(sc);
        CHECK(of_file(m4, sc).applicable);
    }
    manifest::Manifest off = m4;
    off.kernel.param_pcie_p2p = false;
    CHECK(of_file(off, "k10-pcie-p2p-param-ignored").applicable);
    const manifest::Manifest m3 = machine("mixed-3");
    const runner::Applicability gone = of_file(m3, "k02-gart-window-16k-gpu3");
    CHECK_FALSE(gone.applicable);
    CHECK(gone.reason == "it names gpu3, which this machine does not have");
    // One fault that can fire is enough.
    CHECK(runner::scenario_applicability_of(m3,
                                            "faults:\n"
                                            "  - {kind: copy_chunk_tail_loss, devices: [gpu3]}\n"
                                            "  - {kind: copy_chunk_tail_loss, devices: [gpu0]}\n")
              .applicable);
    const manifest::Manifest one = machine("one-gpu");
    CHECK_FALSE(of_file(one, "k17-cross-device-dependency").applicable);
    CHECK_FALSE(of_file(one, "k09-null-dmabuf").applicable);
    CHECK(of_file(one, "k16-fence-early-select").applicable);
}
