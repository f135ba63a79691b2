// Per-thread API state: the current device (HIP's is per thread), the last
// kernel failure (peerLastKernelError), the last copy path, pending launch
// configurations and the last refused load or launch.
#pragma once

#include "kmd/status.hpp"
#include "peer/peer_debug.h"

#include <string>
#include <vector>

namespace peer {

struct ThreadState {
    int current_device = 0;
    int last_errno = 0;
    const char *last_call = nullptr;
    std::string last_text;
    peerCopyPath last_path = peerCopyPathNone;
    int last_engine = -1;
    peerCopyTiming last_timing{}; // peerLastCopyTiming
    // hipGetLastError: the code of this thread's last failing HIP call.
    hipError_t last_error = hipSuccess;
    // Launch configurations pushed by __hipPushCallConfiguration or
    // hipConfigureCall and not yet popped; hipSetupArgument's bytes belong
    // to the last one.
    struct LaunchConfig {
        dim3 grid, block;
        size_t shared = 0;
        hipStream_t stream = nullptr;
        std::vector<unsigned char> args;
    };
    std::vector<LaunchConfig> launch_configs;
    // peerLastGpuCodeRefusal: what the last refused load or launch named.
    std::string last_refusal;
};

ThreadState &thread_state();
// Records a kernel failure for peerLastKernelError (success is ignored: the
// last failure stays until cleared).
void record_kernel_error(const kmd::Status &s);

} // namespace peer
