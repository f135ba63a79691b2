// Device enumeration, the per-thread current device, and hipDeviceReset.
#include "api_common.hpp"

using namespace peer;

hipError_t api::hipGetDeviceCount(int *count) {
    Runtime *rt = nullptr;
    hipError_t e = prologue(rt);
    if (!count) return e == hipSuccess ? hipErrorInvalidValue : e;
    *count = e == hipSuccess ? rt->count() : 0;
    return e;
}

hipError_t api::hipSetDevice(int deviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(deviceId)) return hipErrorInvalidDevice;
    thread_state().current_device = deviceId;
    return hipSuccess;
}

hipError_t api::hipGetDevice(int *deviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!deviceId) return hipErrorInvalidValue;
    *deviceId = thread_state().current_device;
    return hipSuccess;
}

// CONTRACT.md §2 hipDeviceReset: free C's allocations (which unmaps
// them from every peer), remove every peer mapping in C's VM, clear C -> *.
hipError_t api::hipDeviceReset(void) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    const int c = thread_state().current_device;
    kmd::Status first;
    {
        std::lock_guard lock(rt->mu);
        for (const auto &e : rt->table.owned_by(c))
            if (kmd::Status s = rt->free_locked(e.base); !s && first.ok()) first = s;
        for (const auto &e : rt->table.all())
            if (kmd::Status s = rt->unmap_from(*e.data, c); !s && first.ok()) first = s;
        for (size_t p = 0; p < rt->enabled[size_t(c)].size(); ++p)
            rt->enabled[size_t(c)][p] = false;
    }
    // C's copy context is replaced, as HIP destroys the primary context: a
    // context the kernel marked guilty (job timeout) or that saw VRAM loss
    // refuses every later CS with -ECANCELED (amdgpu_cs_parser_init,
    // amdgpu_cs_pass1), and only a new context clears that sticky error.
    if (kmd::Status q = rt->device(c).queue->renew_context(); !q && first.ok()) first = q;
    // The KFD path has no context to replace: a user queue that hung
    // (kfd::SdmaQueue::hung, sticky like a guilty context) is destroyed and a
    // new one created, as HIP's reset destroys the device's queues.
    if (kmd::Status q = rt->renew_kfd_queue_if_hung(rt->device(c)); !q && first.ok()) first = q;
    if (!first.ok()) {
        record_kernel_error(first);
        return Runtime::map_kernel_error(first);
    }
    return hipSuccess;
}
