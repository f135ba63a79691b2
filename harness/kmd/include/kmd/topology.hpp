// KFD topology as libhsakmt reports it: the GPU nodes in node order, their
// render minors, PCI location, hive, and io/p2p links. Read once, then the
// KFD is closed again: the harness drives the GPUs through their render nodes
// (libdrm_amdgpu), the topology only says which GPUs exist and how they link.
#pragma once

#include "kmd/status.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kmd {

struct Link {
    uint32_t to_node = 0;
    uint32_t type = 0; // HSA_IOLINKTYPE_* (2 PCIe, 11 XGMI)
    uint32_t weight = 0;
    uint32_t flags = 0; // HSA_LINKPROPERTY bits: 0 Override ... 4 NoPeerToPeerDMA
    // io_link max_bandwidth in MB/s as KFD computes it (PCIe: lanes x speed of
    // the link caps; XGMI: per-link rate); 0 when the kernel gives none. The
    // nominal peak a measured copy is compared with.
    uint32_t max_bandwidth_mbytes = 0;
};

struct GpuNode {
    uint32_t node = 0; // KFD node id
    int render_minor = -1;
    uint32_t domain = 0;
    uint32_t location_id = 0; // bus << 8 | device << 3 | function
    uint16_t device_id = 0;
    uint64_t hive_id = 0;
    uint64_t unique_id = 0;
    uint64_t local_mem_bytes = 0;
    // Its VRAM bank is FRAME_BUFFER_PRIVATE: part of it is beyond the CPU's
    // BAR (kfd_topology reports FB_PUBLIC only for a large BAR).
    bool small_bar = false;
    std::string name;
    // Compute properties as KFD reports them (hipGetDeviceProperties).
    uint32_t simd_count = 0;  // simd_count (NumFComputeCores)
    uint32_t simd_per_cu = 0; // simd_per_cu
    uint32_t wave_size = 0;   // wave_front_size
    uint32_t lds_kb = 0;      // lds_size_in_kb
    uint32_t max_waves_per_simd = 0;
    uint32_t max_clock_mhz = 0;                              // max_engine_clk_fcompute
    uint32_t gfx_major = 0, gfx_minor = 0, gfx_stepping = 0; // from gfx_target_version
    uint32_t sdma_engines = 0;                               // num_sdma_engines
    uint32_t sdma_xgmi_engines = 0;                          // num_sdma_xgmi_engines
    // An io_link to a node without SIMDs (a CPU): kfd_crat.c gives every GPU
    // one to its NUMA node's CPU (kfd_fill_gpu_direct_io_link_to_cpu).
    bool cpu_link = false;
    std::vector<Link> links; // io_links and p2p_links from this node
};

struct Topology {
    std::vector<GpuNode> gpus; // every GPU node, in node order
};

// hsaKmtOpenKFD, AcquireSystemProperties, per-node properties and links, then
// release and close. No KFD -> ENODEV with the failing call's name.
Status read_topology(Topology &out);

// Which GPUs (indices into Topology::gpus) are visible, in HIP device order.
// ROCR_VISIBLE_DEVICES selects among all GPUs, then HIP_VISIBLE_DEVICES among
// those; each is a comma-separated list of indices, and as in HIP the list
// ends at the first entry that is not a valid, unused index (so "-1" hides
// every device). NULL means not set. Pure function.
std::vector<size_t> visible_devices(size_t gpu_count, const char *rocr_visible,
                                    const char *hip_visible);

// Whether a link gives `from` a direct path to the peer's VRAM: non-zero
// weight and not flagged Override+NoPeerToPeerDMA (ROCr's RegisterLinkInfo
// skips such links; harness/peer/CONTRACT.md §2 CanAccessPeer row 5).
bool link_allows_peer_access(const Link &link);

// "0000:0c:00.0" from domain and location id (the form amdgpu prefixes to
// its kernel log lines).
std::string pci_slot_name(uint32_t domain, uint32_t location_id);

} // namespace kmd
