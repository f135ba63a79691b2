#include "runner/fresh_state.hpp"

#include <peer/hip_peer.h>
#include <peer/peer_debug.h>

namespace harness::runner {

bool restore_fresh_state() {
    int n = 0;
    bool ok = true;
    // No device (or a runtime that failed to start): nothing is held, and a
    // new process would fail the same way.
    if (hipGetDeviceCount(&n) == hipSuccess) {
        for (int d = 0; d < n; ++d) {
            ok = ok && hipSetDevice(d) == hipSuccess;
            ok = ok && hipDeviceReset() == hipSuccess;
            ok = ok && peerSetCopyPacketMax(d, 0) == hipSuccess; // 0: the default
        }
        if (n > 0) ok = ok && hipSetDevice(0) == hipSuccess;
    }
    peerClearLastKernelError();
    return ok;
}

} // namespace harness::runner
