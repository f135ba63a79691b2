// The HIP runtime a process's instances call: the harness's own peer API
// (harness/peer), or ROCm's libamdhip64 loaded at run time, so that
// `peer-harness differential` can run the same case files through both and
// compare their answers step by step. A runtime is made in the process that
// runs instances (a batch child), never in the runner: ROCm's runtime starts
// threads and opens /dev/kfd, which a fork must not inherit.
#pragma once

#include "runner/runtime_kind.hpp"

#include <hip/hip_runtime_api.h>
#include <peer/peer_debug.h>

#include <cstdint>
#include <memory>
#include <string>

namespace harness::runner {

// Every HIP call the step interpreter makes, with the harness header's
// types (ROCm 5.2.3 uses the same values for the codes, kinds and flags the
// cases pass; structures whose layout differs, hipDeviceProp_t, are only
// passed to the harness: differential_steps.cpp marks those steps). The
// interpreter declares a member of the same name for each entry, so a step
// calls its process's runtime; runner.hip-calls fails if a step calls a HIP
// function missing from this list.
// clang-format off
#define PEER_RUNNER_HIP_CALLS(X) \
    X(hipError_t, hipDeviceCanAccessPeer, (int *canAccessPeer, int deviceId, int peerDeviceId), (canAccessPeer, deviceId, peerDeviceId)) \
    X(hipError_t, hipDeviceDisablePeerAccess, (int peerDeviceId), (peerDeviceId)) \
    X(hipError_t, hipDeviceEnablePeerAccess, (int peerDeviceId, unsigned int flags), (peerDeviceId, flags)) \
    X(hipError_t, hipDeviceGetAttribute, (int *pi, hipDeviceAttribute_t attr, int deviceId), (pi, attr, deviceId)) \
    X(hipError_t, hipDeviceGetName, (char *name, int len, hipDevice_t device), (name, len, device)) \
    X(hipError_t, hipDeviceGetPCIBusId, (char *pciBusId, int len, int device), (pciBusId, len, device)) \
    X(hipError_t, hipDeviceReset, (), ()) \
    X(hipError_t, hipDeviceSynchronize, (), ()) \
    X(hipError_t, hipEventCreate, (hipEvent_t *event), (event)) \
    X(hipError_t, hipEventCreateWithFlags, (hipEvent_t *event, unsigned flags), (event, flags)) \
    X(hipError_t, hipEventDestroy, (hipEvent_t event), (event)) \
    X(hipError_t, hipEventElapsedTime, (float *ms, hipEvent_t start, hipEvent_t stop), (ms, start, stop)) \
    X(hipError_t, hipEventQuery, (hipEvent_t event), (event)) \
    X(hipError_t, hipEventRecord, (hipEvent_t event, hipStream_t stream), (event, stream)) \
    X(hipError_t, hipEventSynchronize, (hipEvent_t event), (event)) \
    X(hipError_t, hipFree, (void *ptr), (ptr)) \
    X(hipError_t, hipGetDevice, (int *deviceId), (deviceId)) \
    X(hipError_t, hipGetDeviceCount, (int *count), (count)) \
    X(hipError_t, hipGetDeviceProperties, (hipDeviceProp_t *prop, int deviceId), (prop, deviceId)) \
    X(const char *, hipGetErrorName, (hipError_t hip_error), (hip_error)) \
    X(const char *, hipGetErrorString, (hipError_t hip_error), (hip_error)) \
    X(hipError_t, hipGetLastError, (), ()) \
    X(hipError_t, hipHostFree, (void *ptr), (ptr)) \
    X(hipError_t, hipHostGetDevicePointer, (void **devPtr, void *hstPtr, unsigned int flags), (devPtr, hstPtr, flags)) \
    X(hipError_t, hipHostMalloc, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags)) \
    X(hipError_t, hipHostRegister, (void *hostPtr, size_t sizeBytes, unsigned int flags), (hostPtr, sizeBytes, flags)) \
    X(hipError_t, hipHostUnregister, (void *hostPtr), (hostPtr)) \
    X(hipError_t, hipMalloc, (void **ptr, size_t size), (ptr, size)) \
    X(hipError_t, hipMemGetAddressRange, (hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr), (pbase, psize, dptr)) \
    X(hipError_t, hipMemGetInfo, (size_t *free, size_t *total), (free, total)) \
    X(hipError_t, hipMemcpy, (void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind), (dst, src, sizeBytes, kind)) \
    X(hipError_t, hipMemcpyAsync, (void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream), (dst, src, sizeBytes, kind, stream)) \
    X(hipError_t, hipMemcpyHtoD, (hipDeviceptr_t dst, void *src, size_t sizeBytes), (dst, src, sizeBytes)) \
    X(hipError_t, hipMemcpyPeer, (void *dst, int dstDeviceId, const void *src, int srcDeviceId, size_t sizeBytes), (dst, dstDeviceId, src, srcDeviceId, sizeBytes)) \
    X(hipError_t, hipMemcpyPeerAsync, (void *dst, int dstDeviceId, const void *src, int srcDevice, size_t sizeBytes, hipStream_t stream), (dst, dstDeviceId, src, srcDevice, sizeBytes, stream)) \
    X(hipError_t, hipMemset, (void *dst, int value, size_t sizeBytes), (dst, value, sizeBytes)) \
    X(hipError_t, hipMemsetAsync, (void *dst, int value, size_t sizeBytes, hipStream_t stream), (dst, value, sizeBytes, stream)) \
    X(hipError_t, hipPeekAtLastError, (), ()) \
    X(hipError_t, hipSetDevice, (int deviceId), (deviceId)) \
    X(hipError_t, hipStreamAddCallback, (hipStream_t stream, hipStreamCallback_t callback, void *userData, unsigned int flags), (stream, callback, userData, flags)) \
    X(hipError_t, hipStreamCreate, (hipStream_t *stream), (stream)) \
    X(hipError_t, hipStreamDestroy, (hipStream_t stream), (stream)) \
    X(hipError_t, hipStreamQuery, (hipStream_t stream), (stream)) \
    X(hipError_t, hipStreamSynchronize, (hipStream_t stream), (stream)) \
    X(hipError_t, hipStreamWaitEvent, (hipStream_t stream, hipEvent_t event, unsigned int flags), (stream, event, flags)) \
    X(hipError_t, hipStreamWaitValue32, (hipStream_t stream, void *ptr, uint32_t value, unsigned int flags, uint32_t mask), (stream, ptr, value, flags, mask))
// clang-format on

struct HipCalls {
#define PEER_RUNNER_HIP_POINTER(ret, name, params, args) ret(*name) params = nullptr;
    PEER_RUNNER_HIP_CALLS(PEER_RUNNER_HIP_POINTER)
#undef PEER_RUNNER_HIP_POINTER
};

class Runtime {
  public:
    virtual ~Runtime() = default;
    virtual RuntimeKind kind() const = 0;
    const HipCalls &hip() const { return hip_; }

    // Host access to device memory, for the interpreter's initial contents,
    // `fill` and `verify`: the harness's debug API (the buffer's CPU mapping
    // or a staging engine job, peer_debug.h), or plain hipMemcpy on ROCm.
    virtual hipError_t write_spans(void *device, const peerHostSpan *spans, size_t count) const = 0;
    virtual hipError_t equal_spans(const void *device, const peerHostSpan *spans, size_t count,
                                   int *equal) const = 0;
    virtual hipError_t read(const void *device, void *host, size_t bytes) const = 0;

    // Between two instances of one process: every device as a fresh process
    // finds it (no peer access enabled, nothing allocated, device 0 current).
    // false when that failed and the process should end.
    virtual bool restore_fresh_state() const = 0;

  protected:
    HipCalls hip_;
};

// The harness's own peer API.
std::unique_ptr<Runtime> make_harness_runtime();

// ROCm's HIP: PEER_HARNESS_ROCM_HIP (a path) if set, else libamdhip64.so.5
// from the dynamic loader's search path. nullptr with `error` saying what is
// missing (no library, or a symbol the interpreter needs).
std::unique_ptr<Runtime> load_rocm_runtime(std::string &error);

// The library load_rocm_runtime would open.
std::string rocm_hip_library();

} // namespace harness::runner
