/*
 * The peer-memory subset of HIP's runtime API, implemented on the amdgpu
 * kernel driver (libdrm_amdgpu + libhsakmt), not on ROCm.
 *
 * Names, types and numeric error codes are HIP's (hip_runtime_api.h), so
 * HIP-style test code compiles against this header unchanged and results read
 * the same as HIP's. Behaviour follows /work/shared/docs/peer-api-spec.md
 * (condition order and codes), which records where it diverges from ROCm.
 *
 * Plain C so that C and C++ callers (and dlsym) see the same symbols.
 */
#ifndef PEER_HIP_PEER_H
#define PEER_HIP_PEER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HIP's numeric values; keep them in sync with hipGetErrorName's table. */
typedef enum hipError_t {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorMemoryAllocation = 2, /* HIP's older alias of OutOfMemory */
    hipErrorNotInitialized = 3,
    hipErrorInvalidDevicePointer = 17,
    hipErrorNoDevice = 100,
    hipErrorInvalidDevice = 101,
    hipErrorIllegalState = 401,
    hipErrorNotFound = 500,
    hipErrorIllegalAddress = 700,
    hipErrorLaunchTimeOut = 702,
    hipErrorPeerAccessAlreadyEnabled = 704,
    hipErrorPeerAccessNotEnabled = 705,
    hipErrorLaunchFailure = 719,
    hipErrorUnknown = 999
} hipError_t;

/* As in HIP: a device pointer is an untyped pointer. */
typedef void *hipDeviceptr_t;

/* hipExtGetLinkTypeAndHopCount link types (HSA_AMD_LINK_INFO_TYPE_*). */
#define HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT 0
#define HSA_AMD_LINK_INFO_TYPE_QPI 1
#define HSA_AMD_LINK_INFO_TYPE_PCIE 2
#define HSA_AMD_LINK_INFO_TYPE_INFINBAND 3
#define HSA_AMD_LINK_INFO_TYPE_XGMI 4

/* ---- errors ---------------------------------------------------------- */
const char *hipGetErrorName(hipError_t error);
const char *hipGetErrorString(hipError_t error);

/* ---- devices --------------------------------------------------------- */
/* GPU nodes of the KFD topology in node order, filtered by
 * HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES. No device -> hipErrorNoDevice
 * and *count = 0. */
hipError_t hipGetDeviceCount(int *count);
/* The current device is per thread; a thread that never set one uses 0. */
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
/* Frees every allocation owned by the current device (unmapping it from every
 * peer), removes every peer mapping in the current device's VM and clears its
 * enabled peer state. */
hipError_t hipDeviceReset(void);

/* ---- memory ---------------------------------------------------------- */
/* VRAM on the current device; the address is reserved on every device so a
 * pointer names one allocation process-wide. size 0 -> hipSuccess, NULL. */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr);

/* Host <-> device transfers through SDMA and a GTT staging buffer, executed by
 * the device that owns the allocation (so checking a buffer does not move
 * it). Synchronous. */
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
/* Byte fill through SDMA CONSTANT_FILL on the owning device. Synchronous. */
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);

/* ---- peer access ----------------------------------------------------- */
hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);
/* Synchronous: returns once every byte has landed (see peer-api-spec.md §2). */
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                         size_t sizeBytes);
/* Link type (HSA_AMD_LINK_INFO_TYPE_*) and hop count of the KFD link
 * device1 -> device2. Invalid or equal ids -> hipErrorInvalidDevice; NULL
 * outputs -> hipErrorInvalidValue; no link -> hipErrorInvalidValue. */
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                        uint32_t *hopcount);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEER_HIP_PEER_H */
