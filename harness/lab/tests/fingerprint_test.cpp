// Fingerprint: the hashes are what they claim, and a run under the simulator
// records every field with the simulated machine's values.
#include "lab/fingerprint.hpp"
#include "lab/kernel_identity.hpp"
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace harness::lab;
namespace fs = std::filesystem;

TEST_CASE("FNV-1a 64 test vectors", "[fingerprint]") {
    CHECK(hex64(fnv1a("")) == "cbf29ce484222325");
    CHECK(hex64(fnv1a("a")) == "af63dc4c8601ec8c");
    CHECK(hex64(fnv1a("foobar")) == "85944171f73967e8");
}

TEST_CASE("case-file hash follows content and names, not the root's location", "[fingerprint]") {
    labtest::TempDir a, b;
    std::ofstream(a.path / "x.yaml") << "suite: s\n";
    std::ofstream(b.path / "x.yaml") << "suite: s\n";
    std::ofstream(a.path / "notes.txt") << "ignored";
    auto ha = hash_case_files({a.path.string()}), hb = hash_case_files({b.path.string()});
    REQUIRE(ha.index() == 0);
    CHECK(std::get<0>(ha) == std::get<0>(hb));
    std::ofstream(b.path / "x.yaml") << "suite: t\n";
    CHECK(std::get<0>(hash_case_files({b.path.string()})) != std::get<0>(ha));
    fs::rename(a.path / "x.yaml", a.path / "y.yaml");
    CHECK(std::get<0>(hash_case_files({a.path.string()})) != std::get<0>(ha));
    labtest::TempDir empty;
    CHECK(hash_case_files({empty.path.string()}).index() == 1);
}

TEST_CASE("missing fingerprint fields are named", "[fingerprint]") {
    nlohmann::json fp = {{"kernel_release", "6.1"}, {"gpus", nlohmann::json::array()}};
    auto m = missing_fingerprint_fields(fp);
    CHECK(m == std::vector<std::string>{"kernel_version", "kernel_config", "amdgpu_parameters",
                                        "on_simulator", "libdrm_amdgpu", "libhsakmt",
                                        "harness_version", "cases_hash", "topology_hash"});
}

TEST_CASE("kernel config options are read as Kconfig writes them", "[fingerprint]") {
    const auto o = parse_kernel_config("#\n# Linux/x86 6.10.0 Kernel Configuration\n"
                                       "CONFIG_DRM_AMDGPU=m\nCONFIG_HSA_AMD=y\n"
                                       "# CONFIG_HSA_AMD_P2P is not set\n"
                                       "CONFIG_PCI_P2PDMA=y\nCONFIG_OTHER=y\n");
    CHECK(o["CONFIG_DRM_AMDGPU"] == "m");
    CHECK(o["CONFIG_HSA_AMD"] == "y");
    CHECK(o["CONFIG_HSA_AMD_P2P"] == "n");
    CHECK(o["CONFIG_PCI_P2PDMA"] == "y");
    CHECK(o["CONFIG_DMABUF_MOVE_NOTIFY"] == "n"); // absent: off
    CHECK_FALSE(o.contains("CONFIG_OTHER"));      // only the recorded options
}

TEST_CASE("fingerprints flatten to comparable leaves", "[fingerprint]") {
    nlohmann::json fp = {{"kernel_release", "6.10.0"},
                         {"gpus", {{{"firmware", {{"sdma0", {{"version", "0x104"}}}}}}}}};
    auto f = flatten_fingerprint(fp);
    CHECK(f.at("kernel_release") == "6.10.0");
    CHECK(f.at("gpus[0].firmware.sdma0.version") == "0x104");
    CHECK(f.size() == 2);
}

TEST_CASE("a run on mixed-4 records the fingerprint in metadata.json", "[fingerprint][sim]") {
    labtest::TempDir t;
    const fs::path cases = fs::path(LAB_TEST_DATA) / "lab-selftest.yaml";
    auto r = labtest::run({"run", "--machine", "mixed-4", "--cases", cases.string(), "--results",
                           (t.path / "R").string(), "lab/pass-*"},
                          t.path);
    INFO(r.output);
    REQUIRE(r.code == 0);
    auto meta = labtest::read_json(t.path / "R" / "metadata.json");
    REQUIRE(meta.contains("fingerprint"));
    const auto &fp = meta["fingerprint"];
    CHECK(missing_fingerprint_fields(fp).empty());
    CHECK(!fp["kernel_release"].get<std::string>().empty());
    CHECK(fp["libdrm_amdgpu"].get<std::string>().rfind("2.4.", 0) == 0);
    CHECK(!fp["libhsakmt"].get<std::string>().empty());
    CHECK(fp["harness_version"] == labtest::git_describe());
    CHECK(fp["cases_hash"] == std::get<0>(hash_case_files({cases.string()})));
    CHECK(fp["topology_hash"].get<std::string>().size() == 16);
    REQUIRE(fp["gpus"].size() == 4); // mixed-4
    for (const auto &g : fp["gpus"]) {
        CHECK(g["pci_id"].get<std::string>().rfind("1002:", 0) == 0);
        CHECK(g["pci_slot"].get<std::string>().size() == 12); // 0000:0c:00.0
        CHECK(!g["product"].get<std::string>().empty());
        REQUIRE(g.contains("firmware"));
        CHECK(g["firmware"].contains("sdma0"));
    }
    // The same machine gives the same topology hash; another machine another.
    auto r2 = labtest::run({"run", "--machine", "mi300x-8", "--cases", cases.string(), "--results",
                            (t.path / "R2").string(), "lab/pass-a"},
                           t.path);
    REQUIRE(r2.code == 0);
    auto fp2 = labtest::read_json(t.path / "R2" / "metadata.json")["fingerprint"];
    CHECK(fp2["gpus"].size() == 8);
    CHECK(fp2["topology_hash"] != fp["topology_hash"]);
    CHECK(fp2["gpus"][0]["firmware"].size() >= 1);
}
