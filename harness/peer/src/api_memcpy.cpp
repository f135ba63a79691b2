// hipMemcpy with kinds, the async copies and fills, hipMemGetInfo.
#include "api_common.hpp"
#include "transfer.hpp"

using namespace peer;

hipError_t api::hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    return memcpy_kind(*rt, dst, src, sizeBytes, kind, nullptr);
}

hipError_t api::hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                               hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    return memcpy_kind(*rt, dst, src, sizeBytes, kind, s);
}

hipError_t api::hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    return memset_async(*rt, dst, value, sizeBytes, *s);
}

// Same checks in the same order as hipMemcpyPeer; then queued on the stream.
hipError_t api::hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                                   size_t sizeBytes, hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(srcDevice) || !rt->valid(dstDeviceId)) return hipErrorInvalidDevice;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    if (sizeBytes == 0) return hipSuccess;
    if (!dst || !src) return hipErrorInvalidValue;
    return memcpy_peer_async(*rt, dst, dstDeviceId, src, srcDevice, sizeBytes, *s);
}

// The current device's VRAM heap as the kernel counts it (every process's
// BOs, not only this one's), like HIP's answer from the KFD.
hipError_t api::hipMemGetInfo(size_t *free, size_t *total) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!free || !total) return hipErrorInvalidValue;
    uint64_t size = 0, used = 0;
    if (kmd::Status s = rt->device(thread_state().current_device).dev->vram_heap(size, used); !s) {
        record_kernel_error(s);
        return Runtime::map_kernel_error(s);
    }
    *total = size;
    *free = used < size ? size - used : 0;
    return hipSuccess;
}
