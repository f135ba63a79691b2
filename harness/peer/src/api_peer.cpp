// The peer calls of CONTRACT.md, checks in the order listed there.
#include "api_common.hpp"
#include "copy_paths.hpp"

#include <hsakmttypes.h>

#include <algorithm>

using namespace peer;

hipError_t api::hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;                         // row 1
    if (!canAccessPeer) return hipErrorInvalidValue;                                    // row 2
    if (!rt->valid(deviceId) || !rt->valid(peerDeviceId)) return hipErrorInvalidDevice; // row 3
    *canAccessPeer = deviceId != peerDeviceId && rt->can_access(deviceId, peerDeviceId) ? 1 : 0;
    return hipSuccess; // rows 4, 5
}

hipError_t api::hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e; // row 1
    if (flags != 0) return hipErrorInvalidValue;                // row 2
    const int c = thread_state().current_device;
    if (!rt->valid(peerDeviceId) || peerDeviceId == c || !rt->can_access(c, peerDeviceId))
        return hipErrorInvalidDevice; // row 3
    std::lock_guard lock(rt->mu);
    if (rt->enabled[size_t(c)][size_t(peerDeviceId)]) return hipErrorPeerAccessAlreadyEnabled;
    // Row 5: map every live allocation of the peer into C; on a kernel
    // failure undo what this call mapped and report it.
    std::vector<std::shared_ptr<Allocation>> done;
    for (const auto &e : rt->table.owned_by(peerDeviceId)) {
        if (kmd::Status s = rt->map_into(*e.data, c); !s) {
            for (auto &a : done)
                (void)rt->unmap_from(*a, c);
            (void)rt->unmap_from(*e.data, c);
            record_kernel_error(s);
            return Runtime::map_kernel_error(s);
        }
        done.push_back(e.data);
    }
    rt->enabled[size_t(c)][size_t(peerDeviceId)] = true;
    return hipSuccess;
}

hipError_t api::hipDeviceDisablePeerAccess(int peerDeviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e; // row 1
    if (!rt->valid(peerDeviceId)) return hipErrorInvalidDevice; // row 2
    const int c = thread_state().current_device;
    std::lock_guard lock(rt->mu);
    if (!rt->enabled[size_t(c)][size_t(peerDeviceId)]) return hipErrorPeerAccessNotEnabled; // 3
    // Row 4: every mapping of the peer's memory in C's VM goes, even if one
    // unmap fails (that failure is reported).
    kmd::Status first;
    for (const auto &e : rt->table.owned_by(peerDeviceId))
        if (kmd::Status s = rt->unmap_from(*e.data, c); !s && first.ok()) first = s;
    rt->enabled[size_t(c)][size_t(peerDeviceId)] = false;
    if (!first.ok()) {
        record_kernel_error(first);
        return Runtime::map_kernel_error(first);
    }
    return hipSuccess;
}

hipError_t api::hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                              size_t sizeBytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;                           // row 1
    if (!rt->valid(srcDeviceId) || !rt->valid(dstDeviceId)) return hipErrorInvalidDevice; // 2
    ThreadState &t = thread_state();
    if (sizeBytes == 0) {
        t.last_path = peerCopyPathNone;
        t.last_engine = -1;
        return hipSuccess; // row 3
    }
    if (!dst || !src) return hipErrorInvalidValue;                                    // row 4
    return peer_copy(*rt, addr(dst), dstDeviceId, addr(src), srcDeviceId, sizeBytes); // 5-7
}

namespace {
bool hip_link_type(uint32_t kfd_type, uint32_t &out) {
    switch (kfd_type) {
    case HSA_IOLINK_TYPE_XGMI:
        out = HSA_AMD_LINK_INFO_TYPE_XGMI;
        return true;
    case HSA_IOLINKTYPE_PCIEXPRESS:
        out = HSA_AMD_LINK_INFO_TYPE_PCIE;
        return true;
    case HSA_IOLINKTYPE_HYPERTRANSPORT:
        out = HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT;
        return true;
    case HSA_IOLINK_TYPE_QPI_1_1:
        out = HSA_AMD_LINK_INFO_TYPE_QPI;
        return true;
    case HSA_IOLINK_TYPE_INFINIBAND:
        out = HSA_AMD_LINK_INFO_TYPE_INFINBAND;
        return true;
    default:
        return false;
    }
}
} // namespace

// CONTRACT.md hipExtGetLinkTypeAndHopCount, following ROCm's observed
// behaviour (its hip-tests): the answer is one for the unordered pair, so
// both directions agree even where KFD lists a link in one direction only.
hipError_t api::hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                             uint32_t *hopcount) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;                   // row 1
    if (!linktype || !hopcount) return hipErrorInvalidValue;                      // row 2
    if (device1 < 0 || device2 < 0) return hipErrorInvalidValue;                  // row 3
    if (!rt->valid(device1) || !rt->valid(device2)) return hipErrorInvalidDevice; // row 4
    if (device1 == device2) return hipErrorInvalidValue;                          // row 5
    const int lo = std::min(device1, device2), hi = std::max(device1, device2);
    // Row 6: a direct KFD link in either direction (the lower id's first):
    // one hop, as ROCr clamps every KFD link's hop count to 1.
    for (const kmd::Link *l : {rt->link(lo, hi), rt->link(hi, lo)}) {
        if (l && l->weight != 0 && hip_link_type(l->type, *linktype)) {
            *hopcount = 1;
            return hipSuccess;
        }
    }
    // Row 7: both GPUs link to one common node (the CPU root complex): the
    // GPU-CPU-GPU path libhsakmt builds as an indirect link when the kernel
    // offers no p2p_link; PCIe, two hops.
    for (const kmd::Link &a : rt->device(lo).node.links)
        for (const kmd::Link &b : rt->device(hi).node.links)
            if (a.to_node == b.to_node && a.to_node != rt->device(hi).node.node &&
                b.to_node != rt->device(lo).node.node) {
                *linktype = HSA_AMD_LINK_INFO_TYPE_PCIE;
                *hopcount = 2;
                return hipSuccess;
            }
    return hipErrorInvalidValue; // row 8: no path at all
}
