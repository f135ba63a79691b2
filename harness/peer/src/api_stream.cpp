// Streams (streams.hpp) and hipDeviceSynchronize.
#include "api_common.hpp"
#include "streams.hpp"

#include <sdma/packets.hpp>

using namespace peer;

hipError_t api::hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!stream) return hipErrorInvalidValue;
    if (flags & ~unsigned(hipStreamNonBlocking)) return hipErrorInvalidValue;
    auto s = std::make_unique<ihipStream_t>();
    s->device = thread_state().current_device;
    s->flags = flags;
    StreamTable &t = *rt->streams;
    std::lock_guard lock(t.mu);
    *stream = s.get();
    t.created.emplace(s.get(), std::move(s));
    return hipSuccess;
}

// Waits for the stream's work, then forgets it. A failure of that work is
// returned here rather than lost (HIP returns hipSuccess).
hipError_t api::hipStreamDestroy(hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!stream || stream == hipStreamLegacy || stream == hipStreamPerThread)
        return hipErrorInvalidHandle;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    const hipError_t pending = stream_synchronize(*rt, *s);
    StreamTable &t = *rt->streams;
    std::lock_guard lock(t.mu);
    t.created.erase(s);
    return pending;
}

hipError_t api::hipStreamSynchronize(hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    return stream_synchronize(*rt, *s);
}

hipError_t api::hipStreamQuery(hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    return stream_query(*rt, *s);
}

hipError_t api::hipStreamGetDevice(hipStream_t stream, hipDevice_t *device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!device) return hipErrorInvalidValue;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    *device = s->device;
    return hipSuccess;
}

hipError_t api::hipStreamGetFlags(hipStream_t stream, unsigned int *flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!flags) return hipErrorInvalidValue;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    *flags = s->flags;
    return hipSuccess;
}

// Every stream of the current device, null stream included; the first kept
// failure is returned (each stream's is cleared).
hipError_t api::hipDeviceSynchronize() {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    hipError_t first = hipSuccess;
    for (ihipStream_t *s : streams_of(*rt, thread_state().current_device))
        if (hipError_t e = stream_synchronize(*rt, *s); e != hipSuccess && first == hipSuccess)
            first = e;
    return first;
}

// An SDMA POLL_REGMEM (memory form) on the stream's device: the engine, and
// with it every later job of that device, waits until the word matches.
// Nor has no POLL_REGMEM compare function and is refused.
hipError_t api::hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value,
                                     unsigned int flags, uint32_t mask) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    if (!ptr || (reinterpret_cast<uintptr_t>(ptr) & 3)) return hipErrorInvalidValue;
    uint32_t func = 0, ref = value, poll_mask = mask;
    switch (flags) {
    case hipStreamWaitValueGte:
        func = 5; // >=
        break;
    case hipStreamWaitValueEq:
        func = 3; // ==
        break;
    case hipStreamWaitValueAnd:
        func = 4; // (word & mask & value) != 0
        poll_mask = mask & value;
        ref = 0;
        break;
    case hipStreamWaitValueNor:
        return hipErrorNotSupported;
    default:
        return hipErrorInvalidValue;
    }
    // KFD path: streams run synchronously there and nothing polls (§7).
    if (rt->kfd()) return hipErrorNotSupported;
    PeerDevice &d = rt->device(s->device);
    uint64_t va = 0;
    uint32_t handle = 0;
    std::vector<std::shared_ptr<const void>> holds;
    {
        std::lock_guard lock(rt->mu);
        const uint64_t a = addr(ptr);
        if (const auto *e = rt->host.by_cpu.find_range(a, 4)) {
            va = e->data->va + (a - e->base);
            handle = e->data->dev[size_t(d.index)].bo->kms_handle();
            holds.push_back(e->data);
        } else if (const auto *e = rt->table.find_range(a, 4)) {
            va = a;
            if (e->owner == d.index) {
                handle = e->data->bo->kms_handle();
            } else if (auto it = e->data->peers.find(d.index); it != e->data->peers.end()) {
                handle = it->second.import->kms_handle();
            }
            holds.push_back(e->data);
        }
        if (!handle) return hipErrorInvalidValue; // not memory this device's VM maps
    }
    std::vector<uint32_t> ib;
    if (sdma::poll_regmem_mem(ib, d.gen, va, ref, poll_mask, func) != sdma::Error::none)
        return hipErrorInvalidValue;
    const uint32_t bos[] = {handle};
    return stream_enqueue(*rt, *s, d, ib, bos, std::move(holds));
}
