// What every entry point does first: initialise on first use and answer
// hipErrorNoDevice when no GPU is visible (HIP_INIT_API does the same).
#pragma once

#include "api_impl.hpp"
#include "runtime.hpp"
#include "thread_state.hpp"

namespace peer {

inline hipError_t prologue(Runtime *&rt) {
    rt = &Runtime::get();
    if (rt->init_status() != hipSuccess) {
        record_kernel_error(rt->init_kernel_status());
        return rt->init_status();
    }
    return rt->count() == 0 ? hipErrorNoDevice : hipSuccess;
}

inline uint64_t addr(const void *p) {
    return reinterpret_cast<uintptr_t>(p);
}

} // namespace peer
