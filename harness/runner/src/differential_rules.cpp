// The differences between the harness and ROCm's HIP that
// harness/peer/CONTRACT.md §4 documents, as the differential run recognises
// them in two answers. Each row quotes its §4 row's first cell verbatim;
// runner.differential-rules fails when a quoted row is missing from §4, so
// the contract stays the owner of every divergence. A difference no row
// matches is `unexplained`.
#include "runner/differential.hpp"

namespace harness::runner {

namespace {

// The instance's destination device: the second of `pair=a>b`, else
// `device=d`; -1 when neither.
int destination(const report::InstanceRecord &r) {
    for (const auto &[k, v] : r.params) {
        if (k == "pair" && v.find('>') != std::string::npos)
            return std::stoi(v.substr(v.find('>') + 1));
        if (k == "device") return std::stoi(v);
    }
    return -1;
}

// ROCclr 5.2.3 makes its P2P staging buffer only when the last GPU has
// fewer P2P agents (GPUs with a link to it) than other GPUs
// (device/rocm/rocdevice.cpp Device::create), and stages a copy through it
// whenever the current device is not among the destination's P2P agents
// (rocvirtual.cpp submitCopyMemoryP2P): on a machine whose last GPU every
// other reaches, a copy to a GPU that some GPU cannot reach dereferences the
// missing buffer.
bool rocm_p2p_stage_missing(const DiffContext &c) {
    if (!c.topology || !c.instance) return false;
    const cases::Topology &t = *c.topology;
    const int n = t.device_count, dst = destination(*c.instance);
    if (n < 2 || dst < 0 || dst >= n) return false;
    int reach_last = 0;
    for (int e = 0; e < n - 1; ++e)
        reach_last += t.can_access(e, n - 1) ? 1 : 0;
    if (reach_last < n - 1) return false; // the buffer exists
    for (int e = 0; e < n; ++e)
        if (e != dst && !t.can_access(e, dst)) return true;
    return false;
}

} // namespace

std::span<const DocumentedDifference> documented_differences() {
    static constexpr const char *kStageMissing =
        "a copy to a GPU some other GPU cannot reach, where every GPU reaches the last one";
    static constexpr DocumentedDifference kRows[] = {
        {"can_access_peer", "hipErrorInvalidDevice", "hipSuccess", "",
         "CanAccessPeer(-1,-1) / (N,N)"},
        {"disable_peer_access", "hipErrorPeerAccessNotEnabled", "hipErrorInvalidDevice", "",
         "Disable on self or an incapable pair"},
        {"disable_peer_access", "hipErrorPeerAccessNotEnabled", "hipSuccess", "reset",
         "hipDeviceReset clears enabled state"},
        {"enable_peer_access", "hipSuccess", "hipErrorPeerAccessAlreadyEnabled", "reset",
         "hipDeviceReset clears enabled state"},
        {"get_address_range", "hipSuccess", "crash", "", "GetAddressRange with NULL pbase/psize"},
        {"memcpy_peer", "hipErrorInvalidValue", "hipSuccess", "pointer-not-owned",
         "MemcpyPeer pointer not owned by the given id"},
        {"memcpy_peer_async", "hipErrorInvalidValue", "hipSuccess", "",
         "MemcpyPeer pointer not owned by the given id"},
        {"memcpy_peer", "hipErrorInvalidValue", "crash", "overlapping",
         "MemcpyPeer overlapping ranges"},
        {"memcpy_peer", "hipErrorInvalidValue", "hipSuccess", "freed-pointer",
         "MemcpyPeer with a freed pointer"},
        {"memcpy_peer", "hipErrorInvalidValue", "crash", "freed-pointer",
         "MemcpyPeer with a freed pointer"},
        {"verify", "ok", "failed", "allocation/reallocation-after-free-reads-zero",
         "hipMalloc memory reads zero"},
        {"memset", "hipErrorInvalidValue", "crash", "", "hipMemset of a range past the allocation"},
        {"memcpy", "hipErrorInvalidValue", "hipSuccess", "memcpy-invalid",
         "hipMemcpy with a host pointer and a device-to-device kind"},
        {"host_malloc", "hipErrorInvalidValue", "hipSuccess", "",
         "hipHostMalloc with an unknown flag bit"},
        {"host_register", "hipErrorHostMemoryAlreadyRegistered", "hipSuccess", "",
         "hipHostRegister of memory already registered"},
        {"host_register", "hipErrorInvalidValue", "hipErrorOutOfMemory", "",
         "hipHostRegister of 0 bytes"},
        {"host_get_device_pointer", "hipErrorInvalidValue", "hipSuccess", "",
         "hipHostGetDevicePointer with flags other than 0"},
        {"mem_get_info", "hipErrorInvalidValue", "crash", "", "hipMemGetInfo with a NULL output"},
        {"event_create", "hipErrorInvalidValue", "hipSuccess", "event-invalid",
         "hipEventCreateWithFlags(hipEventInterprocess)"},
        {"stream_synchronize", "hipErrorInvalidHandle", "hipErrorContextIsDestroyed", "",
         "a stream hipStreamDestroy has ended"},
        {"peek_at_last_error", "hipErrorInvalidValue", "hipSuccess", "last-error",
         "a successful call after a failed one"},
        {"get_last_error", "hipErrorInvalidValue", "hipSuccess", "last-error",
         "a successful call after a failed one"},
        {"memcpy_peer", "", "crash", "", kStageMissing, rocm_p2p_stage_missing},
        {"memcpy_peer_async", "", "crash", "", kStageMissing, rocm_p2p_stage_missing},
        {"memcpy", "", "crash", "", kStageMissing, rocm_p2p_stage_missing},
    };
    return kRows;
}

} // namespace harness::runner
