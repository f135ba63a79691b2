// The harness's own peer rules, table-tested against the machines the team
// documents (fixtures/machines/README.md says what each one shows), and the
// manifest reader's file:line:col errors.
#include "manifest/manifest.hpp"
#include "manifest/rules.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace harness::manifest;
using harness::cases::LinkType;

namespace {

Manifest load(const std::string &name) {
    auto r = load_manifest(resolve_manifest_path(name, MANIFEST_MACHINES_DIR));
    if (auto *d = std::get_if<harness::cases::Diagnostic>(&r)) FAIL(d->to_string());
    return std::get<Manifest>(r);
}

std::string diag_of(const std::string &text) {
    char path[] = "/tmp/manifest-test-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(path) << text;
    auto r = load_manifest(path);
    std::remove(path);
    auto *d = std::get_if<harness::cases::Diagnostic>(&r);
    REQUIRE(d);
    return d->to_string().substr(std::string(path).size());
}

// Rows: "x" XGMI + direct, "P" PCIe direct, "." PCIe no direct, "-" self.
void check_matrix(const std::string &machine, const std::vector<std::string> &rows) {
    const auto t = expected_topology(load(machine));
    REQUIRE(t.device_count == static_cast<int>(rows.size()));
    for (int a = 0; a < t.device_count; ++a)
        for (int b = 0; b < t.device_count; ++b) {
            INFO(machine << " " << a << " -> " << b);
            const char want = rows[static_cast<size_t>(a)][static_cast<size_t>(b)];
            const char got = a == b                                                      ? '-'
                             : t.link_type(a, b) == LinkType::xgmi                       ? 'x'
                             : t.can_access(a, b) && t.link_type(a, b) == LinkType::pcie ? 'P'
                                                                                         : '.';
            CHECK(got == want);
            if (t.link_type(a, b) == LinkType::xgmi) CHECK(t.can_access(a, b));
        }
}

} // namespace

TEST_CASE("expected peer matrix per documented machine", "[manifest][rules]") {
    // mixed-4: MI210 hive, large-BAR W7900, small-BAR RX 7900 XTX nobody reaches.
    check_matrix("mixed-4", {"-xP.", "x-P.", "PP-.", "PPP-"});
    // mixed-3: small-BAR RX 6900 XT; MI100's 44-bit mask cannot reach W7900's BAR.
    check_matrix("mixed-3", {"-PP", ".-.", ".P-"});
    // No CONFIG_HSA_AMD_P2P and small BARs: no peer at all.
    check_matrix("rx7900xtx-2", {"-.", ".-"});
    check_matrix("one-gpu", {"-"});
    check_matrix("no-gpu", {});
}

TEST_CASE("every pair of one hive is XGMI", "[manifest][rules]") {
    const Manifest m = load("mi300x-8");
    const auto t = expected_topology(m);
    REQUIRE(t.device_count == 8);
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b)
            if (a != b) CHECK((t.link_type(a, b) == LinkType::xgmi && t.can_access(a, b)));
}

TEST_CASE("each PCIe condition alone refuses access", "[manifest][rules]") {
    Manifest base = load("w7900-2");
    REQUIRE(pcie_peer_accessible(base, 0, 1));
    struct Row {
        const char *what;
        void (*change)(Manifest &);
        const char *why;
    };
    const Row rows[] = {
        {"no HSA_AMD_P2P", [](Manifest &m) { m.kernel.hsa_amd_p2p = false; }, "CONFIG_HSA_AMD_P2P"},
        {"no PCI_P2PDMA", [](Manifest &m) { m.kernel.pci_p2pdma = false; }, "CONFIG_HSA_AMD_P2P"},
        {"no MOVE_NOTIFY", [](Manifest &m) { m.kernel.dmabuf_move_notify = false; },
         "CONFIG_HSA_AMD_P2P"},
        {"pcie_p2p=0", [](Manifest &m) { m.kernel.param_pcie_p2p = false; }, "pcie_p2p=0"},
        {"not listed", [](Manifest &m) { m.pcie_p2p.clear(); }, "chipset"},
        {"small BAR", [](Manifest &m) { m.gpus[0].visible_vram_bytes = 256ull << 20; },
         "small BAR"},
        {"DMA mask",
         [](Manifest &m) {
             m.gpus[0].bar_address = 1ull << 45;
             m.gpus[1].dma_mask_bits = 44;
         },
         "DMA mask"},
    };
    for (const auto &r : rows) {
        INFO(r.what);
        Manifest m = base;
        r.change(m);
        std::string why;
        CHECK_FALSE(pcie_peer_accessible(m, 0, 1, &why));
        CHECK(why.find(r.why) != std::string::npos);
    }
    // From 6.12 a remapping IOMMU in front of the accessor lifts the mask.
    Manifest m = base;
    m.gpus[0].bar_address = 1ull << 45;
    m.gpus[1].dma_mask_bits = 44;
    m.gpus[1].iommu_remapping = true;
    m.kernel.major = 6;
    m.kernel.minor = 12;
    CHECK(pcie_peer_accessible(m, 0, 1));
    m.kernel.minor = 11;
    CHECK_FALSE(pcie_peer_accessible(m, 0, 1));
}

TEST_CASE("register BARs: the VRAM rule before the all-BARs change, the PCIe path after",
          "[manifest][rules]") {
    Manifest m = load("w7900-2");
    m.gpus[0].visible_vram_bytes = 256ull << 20; // small BAR owner
    struct Row {
        int major, minor;
        bool p2p_listed, pcie_p2p_param;
        bool reachable;
        const char *rule;
    };
    const Row rows[] = {
        {6, 10, true, true, false, "6.10: a small-BAR owner's registers follow the VRAM rule"},
        {7, 1, true, true, false, "7.1: still the VRAM rule"},
        {7, 2, true, true, true, "7.2: the PCIe path alone; the BAR size no longer matters"},
        {7, 2, false, true, false, "7.2: no chipset P2P between them"},
        {7, 2, true, false, false, "7.2: amdgpu.pcie_p2p=0"},
    };
    for (const Row &r : rows) {
        INFO(r.rule);
        Manifest k = m;
        k.kernel.major = r.major;
        k.kernel.minor = r.minor;
        k.kernel.param_pcie_p2p = r.pcie_p2p_param;
        if (!r.p2p_listed) k.pcie_p2p.clear();
        CHECK(register_bar_peer_accessible(k, 0, 1) == r.reachable);
        // The VRAM itself stays unreachable (small BAR) on every version.
        CHECK_FALSE(pcie_peer_accessible(k, 0, 1));
        const auto t = expected_topology(k);
        CHECK(t.can_map_registers(1, 0) == r.reachable);
    }
}

TEST_CASE("dma-buf placement of an imported VRAM buffer", "[manifest][placement]") {
    const Manifest m4 = load("mixed-4");
    CHECK(expected_import_placement(m4, 0, 1) == Placement::vram); // XGMI
    CHECK(expected_import_placement(m4, 0, 2) == Placement::vram); // P2P, large BAR
    CHECK(expected_import_placement(m4, 2, 3) == Placement::vram);
    CHECK(expected_import_placement(m4, 3, 0) == Placement::gtt); // small BAR exporter
    const Manifest rx = load("rx7900xtx-2");                      // no MOVE_NOTIFY: pinned GTT
    CHECK(expected_import_placement(rx, 0, 1) == Placement::gtt);
    CHECK(expected_import_placement(rx, 1, 0) == Placement::gtt);
    Manifest nop2p = load("w7900-2");
    CHECK(expected_import_placement(nop2p, 0, 1) == Placement::vram);
    nop2p.pcie_p2p.clear();
    CHECK(expected_import_placement(nop2p, 0, 1) == Placement::gtt);
}

TEST_CASE("the import_in_vram selector is the manifest's import placement",
          "[manifest][placement]") {
    // mixed-3: gpu2's imports by gpu1 stay in VRAM although gpu1 cannot reach
    // gpu2 directly (44-bit DMA mask); gpu0 (small BAR) exports to GTT.
    const Manifest m3 = load("mixed-3");
    const auto t = expected_topology(m3);
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            INFO(a << " -> " << b);
            CHECK(t.import_stays_in_vram(a, b) ==
                  (a != b && expected_import_placement(m3, a, b) == Placement::vram));
        }
    CHECK(t.import_stays_in_vram(2, 1));
    CHECK(!t.can_access(1, 2));
    CHECK(!t.import_stays_in_vram(0, 1));
    const auto pairs = harness::cases::select(t, "import_in_vram");
    REQUIRE(pairs.has_value());
    CHECK(pairs->size() == 4); // 1>0, 1>2, 2>0, 2>1
}

TEST_CASE("manifest errors name file, line and column", "[manifest][errors]") {
    CHECK(diag_of("name: x\n") == ":1:1: error: expected key 'kernel'");
    CHECK(diag_of("name: x\nkernel: {version: six}\ngpus: []\n") ==
          ":2:19: error: expected a kernel version like \"6.10\"");
    CHECK(diag_of("name: x\nkernel: {version: \"6.1\"}\ngpus:\n  - {name: a, product: p, "
                  "family: 141, vram: 12Qi}\n") ==
          ":4:46: error: expected a size (a number with an optional Ki/Mi/Gi/Ti suffix)");
    CHECK(diag_of("name: x\nkernel: {version: \"6.1\"}\ngpus: []\npcie_p2p:\n  - [gpu0, gpu1]\n") ==
          ":5:6: error: expected the name of a GPU of this machine");
    CHECK(diag_of("name: [\n").find(":2:1: error: expected YAML") == 0);
    auto r = load_manifest("/nonexistent/machine.yaml");
    REQUIRE(std::holds_alternative<harness::cases::Diagnostic>(r));
}

namespace {

// A manifest in a scratch directory with an asics/ folder beside it.
std::string asic_diag(const std::string &machine, const std::string &chip, Manifest *out) {
    char tmpl[] = "/tmp/manifest-asic-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    const std::string dir = tmpl;
    REQUIRE(mkdir((dir + "/asics").c_str(), 0700) == 0);
    std::ofstream(dir + "/asics/chip.yaml") << chip;
    std::ofstream(dir + "/m.yaml") << machine;
    auto r = load_manifest(dir + "/m.yaml");
    std::string text;
    if (auto *d = std::get_if<harness::cases::Diagnostic>(&r)) {
        text = d->to_string();
        for (const std::string &f : {dir + "/asics/chip.yaml", dir + "/m.yaml"})
            if (text.rfind(f, 0) == 0)
                text = (f == dir + "/m.yaml" ? "m" : "chip") + text.substr(f.size());
    } else if (out) {
        *out = std::get<Manifest>(r);
    }
    std::remove((dir + "/asics/chip.yaml").c_str());
    std::remove((dir + "/m.yaml").c_str());
    rmdir((dir + "/asics").c_str());
    rmdir(dir.c_str());
    return text;
}

const char *kAsicMachine = "name: m\nkernel: {version: \"6.8\"}\ngpus:\n  - name: gpu0\n"
                           "    asic: chip\n    visible_vram: 256Mi\n";
const char *kChip = "product: Chip\nfamily: 143\nvram: 16Gi\nsdma_xgmi_engines: 0\n";

} // namespace

TEST_CASE("a GPU entry's ASIC facts come from asics/NAME.yaml", "[manifest][asic]") {
    Manifest m;
    CHECK(asic_diag(kAsicMachine, kChip, &m).empty());
    REQUIRE(m.gpus.size() == 1);
    CHECK(m.gpus[0].product == "Chip");
    CHECK(m.gpus[0].family == 143);
    CHECK(m.gpus[0].vram_bytes == 16ull << 30);
    CHECK(m.gpus[0].visible_vram_bytes == 256ull << 20);
    CHECK_FALSE(m.gpus[0].large_bar());
    // The shipped machines: mixed-3's gpu1 is an MI100 with a 44-bit mask.
    const Manifest m3 = load("mixed-3");
    CHECK(m3.gpus[1].product == "AMD Instinct MI100");
    CHECK(m3.gpus[1].dma_mask_bits == 44);
}

TEST_CASE("ASIC references: a repeated fact, an unknown ASIC, a bad ASIC file",
          "[manifest][asic][errors]") {
    std::string repeated = kAsicMachine;
    repeated += "    family: 143\n";
    CHECK(asic_diag(repeated, kChip, nullptr).find("m:7:13: error: expected no 'family' here") ==
          0);
    std::string unknown = kAsicMachine;
    unknown.replace(unknown.find("asic: chip"), 10, "asic: nope");
    CHECK(asic_diag(unknown, kChip, nullptr).find("m:5:11: error: unknown ASIC 'nope'") == 0);
    CHECK(asic_diag(kAsicMachine, "product: Chip\nfamily: 143\nvram: 16Qi\n", nullptr)
              .find("chip:3:7: error: expected a size") == 0);
}

TEST_CASE("versioned rules start at the releases of kernel/releases.yaml", "[manifest][releases]") {
    const Manifest m = load("mixed-3");
    CHECK(m.kernel.iommu_remap_lifts_dma_mask_from == std::pair{6, 12});
    CHECK(m.kernel.all_bars_peer_check_from == std::pair{7, 2});
    char tmpl[] = "/tmp/manifest-releases-XXXXXX";
    REQUIRE(mkdtemp(tmpl));
    const std::string dir = tmpl;
    REQUIRE(mkdir((dir + "/kernel").c_str(), 0700) == 0);
    std::ofstream(dir + "/kernel/releases.yaml")
        << "iommu_remap_lifts_dma_mask: \"6.1\"\nall_bars_peer_check: \"6.2\"\n";
    std::ofstream(dir + "/m.yaml") << "name: m\nkernel: {version: \"6.8\"}\ngpus: []\n";
    auto r = load_manifest(dir + "/m.yaml");
    std::remove((dir + "/kernel/releases.yaml").c_str());
    std::remove((dir + "/m.yaml").c_str());
    rmdir((dir + "/kernel").c_str());
    rmdir(dir.c_str());
    REQUIRE(std::holds_alternative<Manifest>(r));
    CHECK(std::get<Manifest>(r).kernel.all_bars_peer_check_from == std::pair{6, 2});
}
