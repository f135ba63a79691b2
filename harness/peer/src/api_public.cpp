// The exported HIP entry points. Each forwards to its implementation
// (api_impl.hpp) and keeps the result as the thread's last error when it is
// a failure (hipGetLastError returns and clears it, hipPeekAtLastError only
// returns it). hipErrorNotReady is a state, not a failure, and is not kept,
// as in CUDA. Synchronous memory calls first wait for work queued on streams,
// as HIP's blocking null stream does.
#include "api_common.hpp"
#include "runtime.hpp"
#include "streams.hpp"
#include "thread_state.hpp"

#include <cstdint>

using namespace peer;

namespace {

// Every entry point returns through keep_error (api_common.hpp).
hipError_t keep(hipError_t e) {
    return keep_error(e);
}

// Stream work that may touch memory a synchronous call reads, writes or frees.
void wait_for_streams() {
    Runtime &rt = Runtime::get();
    if (rt.init_status() == hipSuccess && rt.count() > 0) drain_all_streams(rt);
}

} // namespace

extern "C" {

hipError_t hipGetLastError(void) {
    ThreadState &t = thread_state();
    const hipError_t e = t.last_error;
    t.last_error = hipSuccess;
    return e;
}

hipError_t hipPeekAtLastError(void) {
    return thread_state().last_error;
}

hipError_t hipDriverGetVersion(int *driverVersion) {
    if (!driverVersion) return keep(hipErrorInvalidValue);
    *driverVersion = HIP_VERSION;
    return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int *runtimeVersion) {
    if (!runtimeVersion) return keep(hipErrorInvalidValue);
    *runtimeVersion = HIP_VERSION;
    return hipSuccess;
}

hipError_t hipGetDeviceCount(int *count) {
    return keep(api::hipGetDeviceCount(count));
}
hipError_t hipSetDevice(int deviceId) {
    return keep(api::hipSetDevice(deviceId));
}
hipError_t hipGetDevice(int *deviceId) {
    return keep(api::hipGetDevice(deviceId));
}
hipError_t hipDeviceReset(void) {
    Runtime &rt = Runtime::get();
    if (rt.init_status() == hipSuccess && rt.count() > 0) {
        // HIP destroys the device's streams; their queued work ends first.
        const int c = thread_state().current_device;
        for (ihipStream_t *s : streams_of(rt, c)) {
            stream_drain(rt, *s);
            if (!s->is_null) (void)api::hipStreamDestroy(s);
        }
    }
    return keep(api::hipDeviceReset());
}
hipError_t hipDeviceSynchronize(void) {
    return keep(api::hipDeviceSynchronize());
}
hipError_t hipInit(unsigned int flags) {
    return keep(api::hipInit(flags));
}
hipError_t hipDeviceGet(hipDevice_t *device, int ordinal) {
    return keep(api::hipDeviceGet(device, ordinal));
}
hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device) {
    return keep(api::hipDeviceGetName(name, len, device));
}
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId) {
    return keep(api::hipGetDeviceProperties(prop, deviceId));
}
hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId) {
    return keep(api::hipDeviceGetAttribute(pi, attr, deviceId));
}
hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device) {
    return keep(api::hipDeviceGetPCIBusId(pciBusId, len, device));
}

hipError_t hipMalloc(void **ptr, size_t size) {
    return keep(api::hipMalloc(ptr, size));
}
hipError_t hipFree(void *ptr) {
    wait_for_streams();
    return keep(api::hipFree(ptr));
}
hipError_t hipMemGetInfo(size_t *free, size_t *total) {
    return keep(api::hipMemGetInfo(free, total));
}
hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr) {
    return keep(api::hipMemGetAddressRange(pbase, psize, dptr));
}
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind) {
    wait_for_streams();
    return keep(api::hipMemcpy(dst, src, sizeBytes, kind));
}
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream) {
    return keep(api::hipMemcpyAsync(dst, src, sizeBytes, kind, stream));
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes) {
    wait_for_streams();
    return keep(api::hipMemcpyHtoD(dst, src, sizeBytes));
}
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes) {
    wait_for_streams();
    return keep(api::hipMemcpyDtoH(dst, src, sizeBytes));
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes) {
    wait_for_streams();
    return keep(api::hipMemcpy(dst, src, sizeBytes, hipMemcpyDeviceToDevice));
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes, hipStream_t stream) {
    return keep(api::hipMemcpyAsync(dst, src, sizeBytes, hipMemcpyHostToDevice, stream));
}
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream) {
    return keep(api::hipMemcpyAsync(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream));
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream) {
    return keep(api::hipMemcpyAsync(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream));
}
hipError_t hipMemset(void *dst, int value, size_t sizeBytes) {
    wait_for_streams();
    return keep(api::hipMemset(dst, value, sizeBytes));
}
// Pitched memory is linear memory with rows padded to 256 bytes
// (CONTRACT.md §5.2; the alignment is this library's choice).
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
    if (!ptr || !pitch) return keep(hipErrorInvalidValue);
    const size_t p = (width + 255) & ~size_t(255);
    if (p < width || (height && p > SIZE_MAX / height)) return keep(hipErrorInvalidValue);
    const hipError_t e = api::hipMalloc(ptr, p * height);
    if (e == hipSuccess) *pitch = p;
    return keep(e);
}
hipError_t hipMalloc3D(hipPitchedPtr *pitchedDevPtr, hipExtent extent) {
    if (!pitchedDevPtr) return keep(hipErrorInvalidValue);
    size_t pitch = 0;
    void *p = nullptr;
    const size_t rows = extent.height * extent.depth;
    if (extent.depth && rows / extent.depth != extent.height) return keep(hipErrorInvalidValue);
    if (hipError_t e = hipMallocPitch(&p, &pitch, extent.width, rows); e != hipSuccess) return e;
    *pitchedDevPtr = make_hipPitchedPtr(p, pitch, extent.width, extent.height);
    return hipSuccess;
}
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream) {
    return keep(api::hipMemsetAsync(dst, value, sizeBytes, stream));
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
    return keep(api::hipHostMalloc(ptr, size, flags));
}
hipError_t hipHostFree(void *ptr) {
    wait_for_streams();
    return keep(api::hipHostFree(ptr));
}
hipError_t hipMallocHost(void **ptr, size_t size) {
    return keep(api::hipHostMalloc(ptr, size, hipHostMallocDefault));
}
hipError_t hipFreeHost(void *ptr) {
    wait_for_streams();
    return keep(api::hipHostFree(ptr));
}
hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags) {
    return keep(api::hipHostRegister(hostPtr, sizeBytes, flags));
}
hipError_t hipHostUnregister(void *hostPtr) {
    wait_for_streams();
    return keep(api::hipHostUnregister(hostPtr));
}
hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags) {
    return keep(api::hipHostGetDevicePointer(devPtr, hstPtr, flags));
}
hipError_t hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr) {
    return keep(api::hipHostGetFlags(flagsPtr, hostPtr));
}

hipError_t hipStreamCreate(hipStream_t *stream) {
    return keep(api::hipStreamCreateWithFlags(stream, hipStreamDefault));
}
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
    return keep(api::hipStreamCreateWithFlags(stream, flags));
}
// One SDMA ring per device: there is nothing to prioritise, so every priority
// is accepted and the range reported is the single priority 0.
hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int) {
    return keep(api::hipStreamCreateWithFlags(stream, flags));
}
hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = 0;
    return hipSuccess;
}
hipError_t hipStreamDestroy(hipStream_t stream) {
    return keep(api::hipStreamDestroy(stream));
}
hipError_t hipStreamSynchronize(hipStream_t stream) {
    return keep(api::hipStreamSynchronize(stream));
}
hipError_t hipStreamQuery(hipStream_t stream) {
    return keep(api::hipStreamQuery(stream));
}
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device) {
    return keep(api::hipStreamGetDevice(stream, device));
}
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags) {
    return keep(api::hipStreamGetFlags(stream, flags));
}
hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags,
                                uint32_t mask) {
    return keep(api::hipStreamWaitValue32(stream, ptr, value, flags, mask));
}

hipError_t hipEventCreate(hipEvent_t *event) {
    return keep(api::hipEventCreateWithFlags(event, hipEventDefault));
}
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
    return keep(api::hipEventCreateWithFlags(event, flags));
}
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
    return keep(api::hipEventRecord(event, stream));
}
hipError_t hipEventQuery(hipEvent_t event) {
    return keep(api::hipEventQuery(event));
}
hipError_t hipEventSynchronize(hipEvent_t event) {
    return keep(api::hipEventSynchronize(event));
}
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
    return keep(api::hipEventElapsedTime(ms, start, stop));
}
hipError_t hipEventDestroy(hipEvent_t event) {
    return keep(api::hipEventDestroy(event));
}
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
    return keep(api::hipStreamWaitEvent(stream, event, flags));
}
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *userData,
                                unsigned int flags) {
    return keep(api::hipStreamAddCallback(stream, callback, userData, flags));
}
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData) {
    return keep(api::hipLaunchHostFunc(stream, fn, userData));
}

hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId) {
    return keep(api::hipDeviceCanAccessPeer(canAccessPeer, deviceId, peerDeviceId));
}
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
    return keep(api::hipDeviceEnablePeerAccess(peerDeviceId, flags));
}
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
    wait_for_streams(); // queued copies may use the mappings Disable removes
    return keep(api::hipDeviceDisablePeerAccess(peerDeviceId));
}
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                         size_t sizeBytes) {
    wait_for_streams();
    return keep(api::hipMemcpyPeer(dst, dstDeviceId, src, srcDeviceId, sizeBytes));
}
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream) {
    return keep(api::hipMemcpyPeerAsync(dst, dstDeviceId, src, srcDevice, sizeBytes, stream));
}
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                        uint32_t *hopcount) {
    return keep(api::hipExtGetLinkTypeAndHopCount(device1, device2, linktype, hopcount));
}

} // extern "C"
