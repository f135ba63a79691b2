/*
 * HIP's runtime API as far as this harness implements it, for host code:
 * HIP's names, signatures, types and numeric values, so HIP-style host test
 * code (hip-tests' way: HIP_CHECK, Catch2, hipMemcpy with kinds, streams,
 * the peer calls) compiles unchanged with a plain C or C++ compiler and runs
 * on the amdgpu kernel driver through libdrm_amdgpu and libhsakmt.
 *
 * What each call checks, in which order, and which code it returns is the
 * contract in harness/peer/CONTRACT.md; where it differs from ROCm's runtime
 * it says so there. The types, values and signatures are ROCm 5.2.3's
 * (hip_version.h), so a program built against ROCm 5.2.3 also runs on this
 * library's libamdhip64.so.5 (harness/hip-dropin). Code objects are never
 * run: module loads and kernel launches link, check their arguments and
 * answer hipErrorNoBinaryForGpu (hip_module_api.h).
 */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif

#include <stddef.h>
#include <stdint.h>

#include <hip/driver_types.h>
#include <hip/hip_handles.h>
#include <hip/hip_vector_types.h>
#include <hip/hip_version.h>

/* Default arguments exist in C++ only, as in HIP. */
#ifdef __cplusplus
#define __dparm(x) = x
#else
#define __dparm(x)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every code of HIP's hipError_t with HIP's numeric value. */
typedef enum hipError_t {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorMemoryAllocation = 2, /* older alias */
    hipErrorNotInitialized = 3,
    hipErrorInitializationError = 3, /* older alias */
    hipErrorDeinitialized = 4,
    hipErrorProfilerDisabled = 5,
    hipErrorProfilerNotInitialized = 6,
    hipErrorProfilerAlreadyStarted = 7,
    hipErrorProfilerAlreadyStopped = 8,
    hipErrorInvalidConfiguration = 9,
    hipErrorInvalidPitchValue = 12,
    hipErrorInvalidSymbol = 13,
    hipErrorInvalidDevicePointer = 17,
    hipErrorInvalidMemcpyDirection = 21,
    hipErrorInsufficientDriver = 35,
    hipErrorMissingConfiguration = 52,
    hipErrorPriorLaunchFailure = 53,
    hipErrorInvalidDeviceFunction = 98,
    hipErrorNoDevice = 100,
    hipErrorInvalidDevice = 101,
    hipErrorInvalidImage = 200,
    hipErrorInvalidContext = 201,
    hipErrorContextAlreadyCurrent = 202,
    hipErrorMapFailed = 205,
    hipErrorMapBufferObjectFailed = 205, /* older alias */
    hipErrorUnmapFailed = 206,
    hipErrorArrayIsMapped = 207,
    hipErrorAlreadyMapped = 208,
    hipErrorNoBinaryForGpu = 209,
    hipErrorAlreadyAcquired = 210,
    hipErrorNotMapped = 211,
    hipErrorNotMappedAsArray = 212,
    hipErrorNotMappedAsPointer = 213,
    hipErrorECCNotCorrectable = 214,
    hipErrorUnsupportedLimit = 215,
    hipErrorContextAlreadyInUse = 216,
    hipErrorPeerAccessUnsupported = 217,
    hipErrorInvalidKernelFile = 218,
    hipErrorInvalidGraphicsContext = 219,
    hipErrorInvalidSource = 300,
    hipErrorFileNotFound = 301,
    hipErrorSharedObjectSymbolNotFound = 302,
    hipErrorSharedObjectInitFailed = 303,
    hipErrorOperatingSystem = 304,
    hipErrorInvalidHandle = 400,
    hipErrorInvalidResourceHandle = 400, /* older alias */
    hipErrorIllegalState = 401,
    hipErrorNotFound = 500,
    hipErrorNotReady = 600,
    hipErrorIllegalAddress = 700,
    hipErrorLaunchOutOfResources = 701,
    hipErrorLaunchTimeOut = 702,
    hipErrorPeerAccessAlreadyEnabled = 704,
    hipErrorPeerAccessNotEnabled = 705,
    hipErrorSetOnActiveProcess = 708,
    hipErrorContextIsDestroyed = 709,
    hipErrorAssert = 710,
    hipErrorHostMemoryAlreadyRegistered = 712,
    hipErrorHostMemoryNotRegistered = 713,
    hipErrorLaunchFailure = 719,
    hipErrorCooperativeLaunchTooLarge = 720,
    hipErrorNotSupported = 801,
    hipErrorStreamCaptureUnsupported = 900,
    hipErrorStreamCaptureInvalidated = 901,
    hipErrorStreamCaptureMerge = 902,
    hipErrorStreamCaptureUnmatched = 903,
    hipErrorStreamCaptureUnjoined = 904,
    hipErrorStreamCaptureIsolation = 905,
    hipErrorStreamCaptureImplicit = 906,
    hipErrorCapturedEvent = 907,
    hipErrorStreamCaptureWrongThread = 908,
    hipErrorGraphExecUpdateFailure = 910,
    hipErrorInvalidChannelDescriptor = 911,
    hipErrorInvalidTexture = 912,
    hipErrorUnknown = 999,
    hipErrorRuntimeMemory = 1052,
    hipErrorRuntimeOther = 1053,
    hipErrorTbd
} hipError_t;

/* ---- flags ------------------------------------------------------------- */
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipStreamLegacy ((hipStream_t)1)
#define hipStreamPerThread ((hipStream_t)2)

#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipEventDisableSystemFence 0x20000000
#define hipEventReleaseToDevice 0x40000000
#define hipEventReleaseToSystem 0x80000000

#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000

#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4
#define hipHostRegisterReadOnly 0x08

/* hipExtMallocWithFlags' flags (not offered here; values for code that
 * mentions them). */
#define hipDeviceMallocDefault 0x0
#define hipDeviceMallocFinegrained 0x1
#define hipMallocSignalMemory 0x2
#define hipExtHostRegisterCoarseGrained 0x8

#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04

#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x16

/* Launch flags of the occupancy and cooperative-launch calls. */
#define hipOccupancyDefault 0x00
#define hipCooperativeLaunchMultiDeviceNoPreSync 0x01
#define hipCooperativeLaunchMultiDeviceNoPostSync 0x02
#define hipExtAnyOrderLaunch 0x01

#define hipIpcMemLazyEnablePeerAccess 0

#define hipStreamWaitValueGte 0x0
#define hipStreamWaitValueEq 0x1
#define hipStreamWaitValueAnd 0x2
#define hipStreamWaitValueNor 0x3

/* hipExtGetLinkTypeAndHopCount link types (HSA_AMD_LINK_INFO_TYPE_*). */
#ifndef HSA_AMD_LINK_INFO_TYPE_XGMI
#define HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT 0
#define HSA_AMD_LINK_INFO_TYPE_QPI 1
#define HSA_AMD_LINK_INFO_TYPE_PCIE 2
#define HSA_AMD_LINK_INFO_TYPE_INFINBAND 3
#define HSA_AMD_LINK_INFO_TYPE_XGMI 4
#endif

#include <hip/hip_device_types.h>
#include <hip/hip_memory_types.h>
#include <hip/hip_module_types.h>

/* ---- errors ------------------------------------------------------------ */
const char *hipGetErrorName(hipError_t hip_error);
const char *hipGetErrorString(hipError_t hipError);
/* The last failing call's code of this thread; hipGetLastError also resets
 * it to hipSuccess, hipPeekAtLastError does not. */
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);

/* ---- versions ---------------------------------------------------------- */
hipError_t hipDriverGetVersion(int *driverVersion);
hipError_t hipRuntimeGetVersion(int *runtimeVersion);

/* ---- devices ----------------------------------------------------------- */
/* hipInit: flags must be 0; opens the devices (every other call does so on
 * first use too). hipDeviceGet / hipDeviceGetName: the driver-API forms of a
 * device id and its name (CONTRACT.md, §5.5). */
hipError_t hipInit(unsigned int flags);
hipError_t hipDeviceGet(hipDevice_t *device, int ordinal);
hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipDeviceReset(void);
hipError_t hipDeviceSynchronize(void);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId);
hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId);
hipError_t hipDeviceGetPCIBusId(char *pciBusId, int len, int device);
/* The device at PCI address pciBusId ("dddd:bb:dd", a function part is
 * ignored), as hipDeviceGetPCIBusId writes it. */
hipError_t hipDeviceGetByPCIBusId(int *device, const char *pciBusId);
hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device);
hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device);

/* ---- memory ------------------------------------------------------------ */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemGetInfo(size_t *free, size_t *total);
hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream __dparm(0));
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
/* Pitched linear memory: hipMalloc of pitch x height (x depth), the pitch
 * the width rounded up to 256 bytes. */
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
hipError_t hipMalloc3D(hipPitchedPtr *pitchedDevPtr, hipExtent extent);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream __dparm(0));

/* ---- pinned host memory ----------------------------------------------- */
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipHostFree(void *ptr);
hipError_t hipMallocHost(void **ptr, size_t size);
hipError_t hipFreeHost(void *ptr);
hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void *hostPtr);
hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags);
hipError_t hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr);

/* ---- streams ----------------------------------------------------------- */
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
/* One SDMA ring per device: the priority is checked and otherwise ignored. */
hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority);
hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t *device);
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags);
/* Host functions run on a host thread of the stream once its earlier work
 * is complete; the stream's later work starts after they return. flags must
 * be 0 (CONTRACT.md §5.9). */
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void *userData);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *userData,
                                unsigned int flags);
typedef void (*hipHostFn_t)(void *userData);
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData);
/* Later work of the stream waits for the event's position, on any device. */
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags __dparm(0));

/* ---- events ------------------------------------------------------------ */
/* An event records a stream's position; timing events carry the GPU's own
 * counter (an SDMA TIMESTAMP after the stream's earlier work). Interprocess
 * events are not offered (CONTRACT.md §5.9). */
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream __dparm(NULL));
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipStreamWaitValue32(hipStream_t stream, void *ptr, uint32_t value, unsigned int flags,
                                uint32_t mask __dparm(0xFFFFFFFF));

/* ---- peer access ------------------------------------------------------ */
hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);
hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                         size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream __dparm(0));
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *linktype,
                                        uint32_t *hopcount);

/* Peer attributes of an ordered pair of devices (CONTRACT.md §5.10). */
hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int srcDevice,
                                    int dstDevice);

/* ---- pointer information (CONTRACT.md §5.2) ---------------------------- */
hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr);
hipError_t hipMemPtrGetInfo(void *ptr, size_t *size);

/* ---- not offered here: always hipErrorNotSupported (CONTRACT.md §6) ---- */
/* Managed memory needs the kernel's SVM/HMM path, arrays need image
 * layouts, pools a stream-ordered allocator, IPC handles a way to hand a
 * dma-buf file descriptor to another process; declared so that code
 * mentioning them (hip-tests' resource guards) compiles and fails honestly
 * after the argument checks of CONTRACT.md §6. */
hipError_t hipMallocManaged(void **dev_ptr, size_t size,
                            unsigned int flags __dparm(hipMemAttachGlobal));
hipError_t hipMallocArray(hipArray_t *array, const hipChannelFormatDesc *desc, size_t width,
                          size_t height __dparm(0), unsigned int flags __dparm(hipArrayDefault));
hipError_t hipMalloc3DArray(hipArray_t *array, const struct hipChannelFormatDesc *desc,
                            struct hipExtent extent, unsigned int flags);
hipError_t hipArrayCreate(hipArray_t *pHandle, const HIP_ARRAY_DESCRIPTOR *pAllocateArray);
hipError_t hipArray3DCreate(hipArray_t *array, const HIP_ARRAY3D_DESCRIPTOR *pAllocateArray);
hipError_t hipArrayDestroy(hipArray_t array);
hipError_t hipFreeArray(hipArray_t array);
hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *mipmappedArray,
                                   const struct hipChannelFormatDesc *desc, struct hipExtent extent,
                                   unsigned int numLevels, unsigned int flags __dparm(0));
hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray,
                                     hipMipmappedArray_const_t mipmappedArray, unsigned int level);
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmappedArray);
hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream);
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device);
hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device);
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool);
hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *pool_props);
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool);
hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value);
hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold);
hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool,
                                  hipStream_t stream);
hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr);
hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t handle, unsigned int flags);
hipError_t hipIpcCloseMemHandle(void *devPtr);
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event);
hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t handle);

/* A channel description of x, y, z, w bits per channel and kind f. */
hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, enum hipChannelFormatKind f);

#ifdef __cplusplus
} /* extern "C" */
#endif

#include <hip/hip_module_api.h>

#ifdef __cplusplus

/* hipCreateChannelDesc<T>(): bits per channel and kind of a scalar or
 * vector element type, as HIP's channel_descriptor.h answers them. */
template <class T> struct hipPeerChannelOf;
#define HIP_PEER_CHANNEL_(T, K)                                                                    \
    template <> struct hipPeerChannelOf<T> {                                                       \
        static constexpr int bits = int(sizeof(T) * 8);                                            \
        static constexpr hipChannelFormatKind kind = K;                                            \
    }
HIP_PEER_CHANNEL_(char, hipChannelFormatKindSigned);
HIP_PEER_CHANNEL_(signed char, hipChannelFormatKindSigned);
HIP_PEER_CHANNEL_(unsigned char, hipChannelFormatKindUnsigned);
HIP_PEER_CHANNEL_(short, hipChannelFormatKindSigned);
HIP_PEER_CHANNEL_(unsigned short, hipChannelFormatKindUnsigned);
HIP_PEER_CHANNEL_(int, hipChannelFormatKindSigned);
HIP_PEER_CHANNEL_(unsigned int, hipChannelFormatKindUnsigned);
HIP_PEER_CHANNEL_(float, hipChannelFormatKindFloat);
#undef HIP_PEER_CHANNEL_
template <class T> struct hipPeerVectorOf {
    using scalar = T;
    static constexpr int n = 1;
};
#define HIP_PEER_VECTOR_(N, T)                                                                     \
    template <> struct hipPeerVectorOf<N##1> {                                                     \
        using scalar = T;                                                                          \
        static constexpr int n = 1;                                                                \
    };                                                                                             \
    template <> struct hipPeerVectorOf<N##2> {                                                     \
        using scalar = T;                                                                          \
        static constexpr int n = 2;                                                                \
    };                                                                                             \
    template <> struct hipPeerVectorOf<N##4> {                                                     \
        using scalar = T;                                                                          \
        static constexpr int n = 4;                                                                \
    }
HIP_PEER_VECTOR_(char, char);
HIP_PEER_VECTOR_(uchar, unsigned char);
HIP_PEER_VECTOR_(short, short);
HIP_PEER_VECTOR_(ushort, unsigned short);
HIP_PEER_VECTOR_(int, int);
HIP_PEER_VECTOR_(uint, unsigned int);
HIP_PEER_VECTOR_(float, float);
#undef HIP_PEER_VECTOR_
template <class T> static inline hipChannelFormatDesc hipCreateChannelDesc() {
    using V = hipPeerVectorOf<T>;
    using C = hipPeerChannelOf<typename V::scalar>;
    return hipCreateChannelDesc(C::bits, V::n > 1 ? C::bits : 0, V::n > 2 ? C::bits : 0,
                                V::n > 3 ? C::bits : 0, C::kind);
}

/* HIP's typed C++ overloads. */
template <class T> static inline hipError_t hipMalloc(T **devPtr, size_t size) {
    return hipMalloc(reinterpret_cast<void **>(devPtr), size);
}
template <class T>
static inline hipError_t hipHostMalloc(T **ptr, size_t size,
                                       unsigned int flags = hipHostMallocDefault) {
    return hipHostMalloc(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T> static inline hipError_t hipMallocHost(T **ptr, size_t size) {
    return hipMallocHost(reinterpret_cast<void **>(ptr), size);
}
template <class T>
static inline hipError_t hipHostGetDevicePointer(T **devPtr, void *hstPtr, unsigned int flags) {
    return hipHostGetDevicePointer(reinterpret_cast<void **>(devPtr), hstPtr, flags);
}
#endif /* __cplusplus */

#endif /* HIP_INCLUDE_HIP_HIP_RUNTIME_API_H */
