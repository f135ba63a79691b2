#include "kmd/topology.hpp"

#include <hsakmt.h>

#include <cerrno>
#include <cstdio>
#include <set>
#include <string_view>

namespace kmd {
namespace {

std::string ascii_name(const HSAuint16 *wide, size_t n) {
    std::string s;
    for (size_t i = 0; i < n && wide[i]; ++i)
        s.push_back(wide[i] < 0x80 ? char(wide[i]) : '?');
    return s;
}

// Closes the KFD again on every path out of read_topology.
struct KfdSession {
    bool open = false;
    bool acquired = false;
    ~KfdSession() {
        if (acquired) hsaKmtReleaseSystemProperties();
        if (open) hsaKmtCloseKFD();
    }
};

std::vector<size_t> filter(const std::vector<size_t> &from, const char *spec) {
    if (!spec) return from;
    std::vector<size_t> out;
    std::set<size_t> seen;
    std::string_view rest(spec);
    while (!rest.empty()) {
        const size_t comma = rest.find(',');
        std::string_view tok = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        while (!tok.empty() && tok.front() == ' ')
            tok.remove_prefix(1);
        while (!tok.empty() && tok.back() == ' ')
            tok.remove_suffix(1);
        // As HIP: the first entry that is not a valid, unused index ends the list.
        if (tok.empty()) return out;
        size_t v = 0;
        for (char c : tok) {
            if (c < '0' || c > '9' || v > from.size()) return out;
            v = v * 10 + size_t(c - '0');
        }
        if (v >= from.size() || !seen.insert(v).second) return out;
        out.push_back(from[v]);
    }
    return out;
}

} // namespace

Status read_topology(Topology &out) {
    out.gpus.clear();
    KfdSession s;
    // libhsakmt counts opens: a process that already holds the KFD open (the
    // peer API's KFD path) gets KERNEL_ALREADY_OPENED with the count raised,
    // which the matching hsaKmtCloseKFD lowers again.
    const HSAKMT_STATUS opened = hsaKmtOpenKFD();
    if (opened != HSAKMT_STATUS_SUCCESS && opened != HSAKMT_STATUS_KERNEL_ALREADY_OPENED)
        return Status::fail(ENODEV, "hsaKmtOpenKFD");
    s.open = true;
    HsaSystemProperties sys{};
    if (hsaKmtAcquireSystemProperties(&sys) != HSAKMT_STATUS_SUCCESS)
        return Status::fail(EIO, "hsaKmtAcquireSystemProperties");
    s.acquired = true;
    for (HSAuint32 n = 0; n < sys.NumNodes; ++n) {
        HsaNodeProperties p{};
        if (hsaKmtGetNodeProperties(n, &p) != HSAKMT_STATUS_SUCCESS)
            return Status::fail(EIO, "hsaKmtGetNodeProperties");
        // A node is a GPU when it has SIMDs (simd_count > 0), as in libhsakmt.
        if (p.NumFComputeCores == 0) continue;
        GpuNode g;
        g.node = n;
        g.render_minor = p.DrmRenderMinor;
        g.domain = p.Domain;
        g.location_id = p.LocationId;
        g.device_id = p.DeviceId;
        g.hive_id = p.HiveID;
        g.unique_id = p.UniqueID;
        g.local_mem_bytes = p.LocalMemSize;
        if (p.NumMemoryBanks > 0) {
            std::vector<HsaMemoryProperties> banks(p.NumMemoryBanks);
            if (hsaKmtGetNodeMemoryProperties(n, p.NumMemoryBanks, banks.data()) !=
                HSAKMT_STATUS_SUCCESS)
                return Status::fail(EIO, "hsaKmtGetNodeMemoryProperties");
            for (const auto &b : banks)
                g.small_bar = g.small_bar || b.HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE;
        }
        g.name = ascii_name(p.MarketingName, HSA_PUBLIC_NAME_SIZE);
        g.simd_count = p.NumFComputeCores;
        g.simd_per_cu = p.NumSIMDPerCU;
        g.wave_size = p.WaveFrontSize;
        g.lds_kb = p.LDSSizeInKB;
        g.max_waves_per_simd = p.MaxWavesPerSIMD;
        g.max_clock_mhz = p.MaxEngineClockMhzFCompute;
        g.gfx_major = p.EngineId.ui32.Major;
        g.gfx_minor = p.EngineId.ui32.Minor;
        g.gfx_stepping = p.EngineId.ui32.Stepping;
        g.sdma_engines = p.NumSdmaEngines;
        g.sdma_xgmi_engines = p.NumSdmaXgmiEngines;
        if (p.NumIOLinks > 0) {
            std::vector<HsaIoLinkProperties> links(p.NumIOLinks);
            if (hsaKmtGetNodeIoLinkProperties(n, p.NumIOLinks, links.data()) !=
                HSAKMT_STATUS_SUCCESS)
                return Status::fail(EIO, "hsaKmtGetNodeIoLinkProperties");
            for (const auto &l : links)
                g.links.push_back(Link{l.NodeTo, static_cast<uint32_t>(l.IoLinkType), l.Weight,
                                       l.Flags.LinkProperty, l.MaximumBandwidth});
        }
        out.gpus.push_back(std::move(g));
    }
    // Links to nodes that are not GPUs are CPU links (node ids are dense).
    for (GpuNode &g : out.gpus)
        for (const Link &l : g.links) {
            bool to_gpu = false;
            for (const GpuNode &o : out.gpus)
                to_gpu = to_gpu || o.node == l.to_node;
            g.cpu_link = g.cpu_link || (!to_gpu && l.to_node < sys.NumNodes);
        }
    return Status::success();
}

std::vector<size_t> visible_devices(size_t gpu_count, const char *rocr_visible,
                                    const char *hip_visible) {
    std::vector<size_t> all(gpu_count);
    for (size_t i = 0; i < gpu_count; ++i)
        all[i] = i;
    return filter(filter(all, rocr_visible), hip_visible);
}

bool link_allows_peer_access(const Link &link) {
    constexpr uint32_t kOverride = 1u << 0, kNoPeerToPeerDma = 1u << 4;
    if (link.weight == 0) return false;
    return (link.flags & (kOverride | kNoPeerToPeerDma)) != (kOverride | kNoPeerToPeerDma);
}

std::string pci_slot_name(uint32_t domain, uint32_t location_id) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", domain & 0xffff, (location_id >> 8) & 0xff,
                  (location_id >> 3) & 0x1f, location_id & 0x7);
    return buf;
}

} // namespace kmd
