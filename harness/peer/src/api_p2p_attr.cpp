// hipDeviceGetP2PAttribute (CONTRACT.md §5.10): the peer calls' answers for
// one ordered pair, in ROCm 5.2.3's order of checks.
#include "api_common.hpp"

using namespace peer;

namespace {

hipError_t p2p_attribute(int *value, hipDeviceP2PAttr attr, int src, int dst) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;                         // row 1
    if (!value) return hipErrorInvalidValue;                                            // row 2
    if (src == dst || !rt->valid(src) || !rt->valid(dst)) return hipErrorInvalidDevice; // row 3
    switch (attr) {
    case hipDevP2PAttrAccessSupported: // row 4: hipDeviceCanAccessPeer(src, dst)
        return api::hipDeviceCanAccessPeer(value, src, dst);
    case hipDevP2PAttrPerformanceRank:
    case hipDevP2PAttrNativeAtomicSupported: {
        // Row 5 (ROCm): both report the link type of the pair, as ROCm 5.2.3
        // fills them from the same link query.
        uint32_t type = 0, hops = 0;
        if (hipError_t e = api::hipExtGetLinkTypeAndHopCount(src, dst, &type, &hops);
            e != hipSuccess)
            return e;
        *value = int(type);
        return hipSuccess;
    }
    case hipDevP2PAttrHipArrayAccessSupported:
        *value = 0; // row 6 (decision): arrays are not offered (§6)
        return hipSuccess;
    }
    return hipErrorInvalidValue; // row 7: an attribute HIP does not define
}

} // namespace

extern "C" hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int srcDevice,
                                               int dstDevice) {
    return keep_error(p2p_attribute(value, attr, srcDevice, dstDevice));
}
