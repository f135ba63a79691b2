// A machine manifest: what a lab writes once per box (the machine-file schema
// of fixtures/machines/README.md), read by the harness itself. Expectations
// computed from it (rules.hpp) never come from the kernel under test.
#pragma once

#include "cases/location.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace harness::manifest {

struct Gpu {
    std::string name;    // symbolic ("gpu0"), used by xgmi_hives and pcie_p2p
    std::string product; // marketing name
    int family = 0;
    uint64_t vram_bytes = 0;
    uint64_t visible_vram_bytes = 0;
    uint64_t bar_address = 0; // physical BAR address; 0 = not given
    int dma_mask_bits = 0;    // 0 = not given
    bool iommu_remapping = false;
    int sdma_xgmi_engines = -1; // num_sdma_xgmi_engines KFD must report; -1 = not given
    bool large_bar() const { return visible_vram_bytes != 0 && visible_vram_bytes == vram_bytes; }
};

struct Kernel {
    int major = 6, minor = 1;
    bool pci_p2pdma = true;
    bool dmabuf_move_notify = true;
    bool hsa_amd_p2p = true;
    bool param_pcie_p2p = true;
    bool at_least(int maj, int min) const { return major > maj || (major == maj && minor >= min); }
    // First releases of versioned rules, from fixtures/machines/kernel/releases.yaml
    // (set by load_manifest; {major, minor}).
    std::pair<int, int> iommu_remap_lifts_dma_mask_from{0, 0};
    std::pair<int, int> all_bars_peer_check_from{0, 0};
};

struct Manifest {
    std::string file;
    std::string name;
    Kernel kernel;
    std::vector<Gpu> gpus;                     // HIP device order
    std::vector<uint64_t> hive_of;             // per GPU, 0 = no hive
    std::vector<std::pair<int, int>> pcie_p2p; // unordered pairs, as listed
};

// Reads a machine file. Errors: "file:line:col: error: what was expected".
std::variant<Manifest, cases::Diagnostic> load_manifest(const std::string &path);

// "mixed-4" -> <dir>/mixed-4.yaml unless `name_or_path` is an existing file.
std::string resolve_manifest_path(const std::string &name_or_path, const std::string &dir);

} // namespace harness::manifest
