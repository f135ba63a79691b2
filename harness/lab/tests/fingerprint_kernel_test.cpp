// The fingerprint names the kernel under test: a run under amdgpu-sim on the
// machine in LAB_TEST_MACHINE records that machine file's kernel release,
// config, amdgpu parameters, GPUs and the firmware its INFO queries report,
// and the host's uname release appears nowhere in metadata.json or
// report.html. Registered once per machine (harness/lab/CMakeLists.txt);
// lab.unit leaves it out.
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <sys/utsname.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The machine file is the oracle: what the simulated kernel was told to be.
YAML::Node machine_file() {
    const char *path = std::getenv("LAB_TEST_MACHINE");
    REQUIRE(path != nullptr);
    return YAML::LoadFile(path);
}

// A GPU of the machine file with the facts of the ASIC it names (`asic:`,
// fixtures/machines/asics/<name>.yaml) under its own: what the simulator
// was told that GPU is.
YAML::Node gpu_facts(const YAML::Node &gpu) {
    YAML::Node out;
    if (gpu["asic"]) {
        const fs::path dir = fs::path(std::getenv("LAB_TEST_MACHINE")).parent_path() / "asics";
        for (const auto &kv :
             YAML::LoadFile((dir / (gpu["asic"].as<std::string>() + ".yaml")).string()))
            out[kv.first.as<std::string>()] = kv.second;
    }
    for (const auto &kv : gpu)
        out[kv.first.as<std::string>()] = kv.second;
    return out;
}

// Kconfig values a machine file's kernel.config gives (absent: the
// simulator's defaults, all on; fixtures/machines/README.md).
std::string config_value(const YAML::Node &k, const char *option) {
    const YAML::Node c = k["config"];
    return !c || !c[option] || c[option].as<bool>() ? "y" : "n";
}

std::string host_release() {
    utsname u{};
    REQUIRE(::uname(&u) == 0); // this test process runs on the host's kernel
    return u.release;
}

} // namespace

TEST_CASE("the fingerprint names the simulated kernel, never the host's", "[kernel-under-test]") {
    const YAML::Node m = machine_file();
    labtest::TempDir t;
    const fs::path cases = fs::path(LAB_TEST_DATA) / "lab-selftest.yaml";
    auto r = labtest::run({"run", "--machine", std::getenv("LAB_TEST_MACHINE"), "--cases",
                           cases.string(), "--results", (t.path / "R").string(), "lab/pass-a"},
                          t.path);
    INFO(r.output);
    REQUIRE(r.code == 0);
    const json fp = labtest::read_json(t.path / "R" / "metadata.json")["fingerprint"];
    INFO(fp.dump(1));
    CHECK(fp["on_simulator"] == true);

    // Kernel: uname(2), its config and the amdgpu module parameters.
    const YAML::Node k = m["kernel"];
    const std::string release = k["version"].as<std::string>() + ".0-amdgpu-sim";
    CHECK(fp["kernel_release"] == release);
    CHECK(fp["kernel_version"] == "#1 SMP amdgpu-sim " + m["name"].as<std::string>());
    CHECK(fp["kernel_config"]["source"] == "/boot/config-" + release);
    const json opts = fp["kernel_config"]["options"];
    CHECK(opts["CONFIG_DRM_AMDGPU"] == "m");
    for (const char *o : {"CONFIG_PCI_P2PDMA", "CONFIG_DMABUF_MOVE_NOTIFY", "CONFIG_HSA_AMD_P2P",
                          "CONFIG_HSA_AMD_SVM"}) {
        INFO(o);
        CHECK(opts[o] == config_value(k, o));
    }
    const json params = fp["amdgpu_parameters"];
    CHECK(params["lockup_timeout"] == std::to_string(k["job_timeout_ms"].as<int>()));
    const bool p2p_param = !k["params"] || !k["params"]["amdgpu.pcie_p2p"] ||
                           k["params"]["amdgpu.pcie_p2p"].as<bool>();
    if (config_value(k, "CONFIG_HSA_AMD_P2P") == "y")
        CHECK(params["pcie_p2p"] == (p2p_param ? "Y" : "N"));
    else
        CHECK_FALSE(params.contains("pcie_p2p"));
    // The simulated KFD's ioctl interface (no host KFD is reachable under it).
    CHECK(fp["kfd_interface"].get<std::string>().rfind("1.", 0) == 0);

    // GPUs: PCI identity, DEV_INFO and the INFO FW_VERSION queries.
    const YAML::Node gpus = m["gpus"];
    REQUIRE(fp["gpus"].size() == gpus.size());
    for (size_t i = 0; i < gpus.size(); ++i) {
        const YAML::Node g = gpu_facts(gpus[i]);
        const json &f = fp["gpus"][i];
        INFO("gpu " << i);
        CHECK(f["pci_slot"] == g["pci_slot"].as<std::string>());
        CHECK(f["pci_id"] == fmt::format("1002:{:04x}", g["device_id"].as<unsigned>()));
        CHECK(f["pci_revision"] == fmt::format("{:02x}", g["revision"].as<unsigned>()));
        CHECK(f["external_rev"] == fmt::format("{:02x}", g["external_rev"].as<unsigned>()));
        CHECK(f["family"] == g["family"].as<int>());
        CHECK(f["manifest_product"] == g["product"].as<std::string>());
        CHECK(!f["product"].get<std::string>().empty()); // libdrm's amdgpu.ids name
        // The model's SDMA firmware (fixtures/amdgpu-sim/drm/amdgpu_kms.cpp,
        // FW_VERSION): 0x100 + the SDMA IP major, feature sdma_fw_feature_version.
        const unsigned engines = g["sdma_engines"].as<unsigned>();
        const int sdma_major = std::stoi(g["sdma_ip"].as<std::string>());
        const unsigned feature =
            g["sdma_fw_feature_version"] ? g["sdma_fw_feature_version"].as<unsigned>() : 20;
        for (unsigned e = 0; e < engines; ++e) {
            const json &fw = f["firmware"]["sdma" + std::to_string(e)];
            CHECK(fw["version"] == fmt::format("0x{:08x}", 0x100 + sdma_major));
            CHECK(fw["feature"] == feature);
        }
        CHECK_FALSE(f["firmware"].contains("sdma" + std::to_string(engines)));
    }

    // Nowhere: neither metadata.json nor the report carries the host's release.
    const std::string host = host_release();
    REQUIRE(host != release);
    for (const char *file : {"metadata.json", "report.html", "summary.txt"}) {
        INFO(file);
        CHECK(labtest::read_text(t.path / "R" / file).find(host) == std::string::npos);
    }
}
