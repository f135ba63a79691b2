// What every entry point does first: initialise on first use and answer
// hipErrorNoDevice when no GPU is visible (HIP_INIT_API does the same).
#pragma once

#include "api_impl.hpp"
#include "runtime.hpp"
#include "thread_state.hpp"

#include <string>

namespace peer {

inline hipError_t prologue(Runtime *&rt) {
    rt = &Runtime::get();
    if (rt->init_status() != hipSuccess) {
        record_kernel_error(rt->init_kernel_status());
        return rt->init_status();
    }
    return rt->count() == 0 ? hipErrorNoDevice : hipSuccess;
}

// Keeps a failure as the thread's last error (hipGetLastError, CONTRACT.md
// §5.1); hipErrorNotReady is a state, not a failure. The extern "C" entry
// points return through it.
inline hipError_t keep_error(hipError_t e) {
    if (e != hipSuccess && e != hipErrorNotReady) thread_state().last_error = e;
    return e;
}

// gcnArchName of a device: "gfx" + KFD's gfx_target_version (api_props.cpp).
std::string gfx_target(const kmd::GpuNode &n);

inline uint64_t addr(const void *p) {
    return reinterpret_cast<uintptr_t>(p);
}

} // namespace peer
