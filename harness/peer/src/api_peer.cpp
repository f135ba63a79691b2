// The peer calls of peer-api-spec.md §2, checks in the order listed there.
#include "api_common.hpp"
#include "copy_paths.hpp"

#include <hsakmttypes.h>

using namespace peer;

extern "C" hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;                         // row 1
    if (!canAccessPeer) return hipErrorInvalidValue;                                    // row 2
    if (!rt->valid(deviceId) || !rt->valid(peerDeviceId)) return hipErrorInvalidDevice; // row 3
    *canAccessPeer = deviceId != peerDeviceId && rt->can_access(deviceId, peerDeviceId) ? 1 : 0;
    return hipSuccess; // rows 4, 5
}

extern "C" hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
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

extern "C" hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
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

extern "C" hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
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

extern "C" hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                                   uint32_t *hopcount) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!linktype || !hopcount) return hipErrorInvalidValue;
    if (!rt->valid(device1) || !rt->valid(device2) || device1 == device2)
        return hipErrorInvalidDevice;
    const kmd::Link *l = rt->link(device1, device2);
    if (!l) return hipErrorInvalidValue;
    switch (l->type) {
    case HSA_IOLINK_TYPE_XGMI:
        *linktype = HSA_AMD_LINK_INFO_TYPE_XGMI;
        break;
    case HSA_IOLINKTYPE_PCIEXPRESS:
        *linktype = HSA_AMD_LINK_INFO_TYPE_PCIE;
        break;
    case HSA_IOLINKTYPE_HYPERTRANSPORT:
        *linktype = HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT;
        break;
    case HSA_IOLINK_TYPE_QPI_1_1:
        *linktype = HSA_AMD_LINK_INFO_TYPE_QPI;
        break;
    case HSA_IOLINK_TYPE_INFINIBAND:
        *linktype = HSA_AMD_LINK_INFO_TYPE_INFINBAND;
        break;
    default:
        return hipErrorInvalidValue;
    }
    // ROCr clamps a KFD link's hop count to 1 (Runtime::RegisterLinkInfo,
    // hip-reference-behaviour.md §1): every reported link is one hop.
    *hopcount = 1;
    return hipSuccess;
}
