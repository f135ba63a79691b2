/*
 * HIP's runtime API as far as this harness implements it, for host code:
 * HIP's names, signatures, types and numeric values, so HIP-style host test
 * code (hip-tests' way: HIP_CHECK, Catch2, hipMemcpy with kinds, streams,
 * the peer calls) compiles unchanged with a plain C or C++ compiler and runs
 * on the amdgpu kernel driver through libdrm_amdgpu and libhsakmt.
 *
 * What each call checks, in which order, and which code it returns is the
 * contract in harness/peer/CONTRACT.md; where it differs from ROCm's runtime
 * it says so there. Calls that need a GPU compiler (kernel launches) are
 * declared and return hipErrorNotSupported.
 */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif

#include <stddef.h>
#include <stdint.h>

#include <hip/driver_types.h>
#include <hip/hip_vector_types.h>

/* This library's version of the HIP API it follows (HIP 6.2's surface). */
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

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

/* ---- handles (opaque) ------------------------------------------------- */
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;
typedef struct ihipCtx_t *hipCtx_t;
typedef int hipDevice_t;

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

#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04

#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8

#define hipIpcMemLazyEnablePeerAccess 0x01

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

/* ---- launch geometry -------------------------------------------------- */
typedef struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
#ifdef __cplusplus
    constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
#endif
} dim3;

typedef struct hipLaunchParams_t {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    void **args;
    size_t sharedMem;
    hipStream_t stream;
} hipLaunchParams;

/* ---- modules and functions (types only: no code objects are loaded) --- */
typedef struct hipFuncAttributes {
    int binaryVersion;
    int cacheModeCA;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxDynamicSharedSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int preferredShmemCarveout;
    int ptxVersion;
    size_t sharedSizeBytes;
} hipFuncAttributes;

typedef enum hipFuncAttribute {
    hipFuncAttributeMaxDynamicSharedMemorySize = 8,
    hipFuncAttributePreferredSharedMemoryCarveout = 9,
    hipFuncAttributeMax
} hipFuncAttribute;

typedef enum hipFuncCache_t {
    hipFuncCachePreferNone,
    hipFuncCachePreferShared,
    hipFuncCachePreferL1,
    hipFuncCachePreferEqual
} hipFuncCache_t;

typedef enum hipSharedMemConfig {
    hipSharedMemBankSizeDefault,
    hipSharedMemBankSizeFourByte,
    hipSharedMemBankSizeEightByte
} hipSharedMemConfig;

typedef enum hipJitOption {
    hipJitOptionMaxRegisters = 0,
    hipJitOptionThreadsPerBlock,
    hipJitOptionWallTime,
    hipJitOptionInfoLogBuffer,
    hipJitOptionInfoLogBufferSizeBytes,
    hipJitOptionErrorLogBuffer,
    hipJitOptionErrorLogBufferSizeBytes,
    hipJitOptionOptimizationLevel,
    hipJitOptionTargetFromContext,
    hipJitOptionTarget,
    hipJitOptionFallbackStrategy,
    hipJitOptionGenerateDebugInfo,
    hipJitOptionLogVerbose,
    hipJitOptionGenerateLineInfo,
    hipJitOptionCacheMode,
    hipJitOptionSm3xOpt,
    hipJitOptionFastCompile,
    hipJitOptionNumOptions
} hipJitOption;

enum hipLimit_t {
    hipLimitStackSize = 0x0,
    hipLimitPrintfFifoSize = 0x01,
    hipLimitMallocHeapSize = 0x02
};

/* ---- memory pools (types only) ---------------------------------------- */
typedef enum hipMemPoolAttr {
    hipMemPoolReuseFollowEventDependencies = 0x1,
    hipMemPoolReuseAllowOpportunistic = 0x2,
    hipMemPoolReuseAllowInternalDependencies = 0x3,
    hipMemPoolAttrReleaseThreshold = 0x4,
    hipMemPoolAttrReservedMemCurrent = 0x5,
    hipMemPoolAttrReservedMemHigh = 0x6,
    hipMemPoolAttrUsedMemCurrent = 0x7,
    hipMemPoolAttrUsedMemHigh = 0x8
} hipMemPoolAttr;

typedef enum hipMemLocationType {
    hipMemLocationTypeInvalid = 0,
    hipMemLocationTypeDevice = 1
} hipMemLocationType;

typedef struct hipMemLocation {
    hipMemLocationType type;
    int id;
} hipMemLocation;

typedef enum hipMemAccessFlags {
    hipMemAccessFlagsProtNone = 0,
    hipMemAccessFlagsProtRead = 1,
    hipMemAccessFlagsProtReadWrite = 3
} hipMemAccessFlags;

typedef struct hipMemAccessDesc {
    hipMemLocation location;
    hipMemAccessFlags flags;
} hipMemAccessDesc;

typedef enum hipMemAllocationType {
    hipMemAllocationTypeInvalid = 0x0,
    hipMemAllocationTypePinned = 0x1,
    hipMemAllocationTypeMax = 0x7FFFFFFF
} hipMemAllocationType;

typedef enum hipMemAllocationHandleType {
    hipMemHandleTypeNone = 0x0,
    hipMemHandleTypePosixFileDescriptor = 0x1,
    hipMemHandleTypeWin32 = 0x2,
    hipMemHandleTypeWin32Kmt = 0x4
} hipMemAllocationHandleType;

typedef struct hipMemPoolProps {
    hipMemAllocationType allocType;
    hipMemAllocationHandleType handleTypes;
    hipMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned char reserved[56];
} hipMemPoolProps;

typedef struct hipMemPoolPtrExportData {
    unsigned char reserved[64];
} hipMemPoolPtrExportData;

/* ---- device properties ------------------------------------------------ */
typedef struct hipUUID_t {
    char bytes[16];
} hipUUID;

typedef struct hipDeviceArch_t {
    unsigned hasGlobalInt32Atomics : 1;
    unsigned hasGlobalFloatAtomicExch : 1;
    unsigned hasSharedInt32Atomics : 1;
    unsigned hasSharedFloatAtomicExch : 1;
    unsigned hasFloatAtomicAdd : 1;
    unsigned hasGlobalInt64Atomics : 1;
    unsigned hasSharedInt64Atomics : 1;
    unsigned hasDoubles : 1;
    unsigned hasWarpVote : 1;
    unsigned hasWarpBallot : 1;
    unsigned hasWarpShuffle : 1;
    unsigned hasFunnelShift : 1;
    unsigned hasThreadFenceSystem : 1;
    unsigned hasSyncThreadsExt : 1;
    unsigned hasSurfaceFuncs : 1;
    unsigned has3dGrid : 1;
    unsigned hasDynamicParallelism : 1;
} hipDeviceArch_t;

/* HIP's field names. Fields the KFD topology and amdgpu's device info
 * provide are filled (CONTRACT.md, hipGetDeviceProperties); the others are
 * 0. */
typedef struct hipDeviceProp_t {
    char name[256];
    hipUUID uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseHipArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingHipArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved[63];
    int hipReserved[32];
    /* HIP-only members */
    char gcnArchName[256];
    size_t maxSharedMemoryPerMultiProcessor;
    int clockInstructionRate;
    hipDeviceArch_t arch;
    unsigned int *hdpMemFlushCntl;
    unsigned int *hdpRegFlushCntl;
    int cooperativeMultiDeviceUnmatchedFunc;
    int cooperativeMultiDeviceUnmatchedGridDim;
    int cooperativeMultiDeviceUnmatchedBlockDim;
    int cooperativeMultiDeviceUnmatchedSharedMem;
    int isLargeBar;
    int asicRevision;
} hipDeviceProp_t;

/* HIP's attribute numbering (values are HIP's, attribute by attribute). */
typedef enum hipDeviceAttribute_t {
    hipDeviceAttributeCudaCompatibleBegin = 0,
    hipDeviceAttributeEccEnabled = 0,
    hipDeviceAttributeAccessPolicyMaxWindowSize = 1,
    hipDeviceAttributeAsyncEngineCount = 2,
    hipDeviceAttributeCanMapHostMemory = 3,
    hipDeviceAttributeCanUseHostPointerForRegisteredMem = 4,
    hipDeviceAttributeClockRate = 5,
    hipDeviceAttributeComputeMode = 6,
    hipDeviceAttributeComputePreemptionSupported = 7,
    hipDeviceAttributeConcurrentKernels = 8,
    hipDeviceAttributeConcurrentManagedAccess = 9,
    hipDeviceAttributeCooperativeLaunch = 10,
    hipDeviceAttributeCooperativeMultiDeviceLaunch = 11,
    hipDeviceAttributeDeviceOverlap = 12,
    hipDeviceAttributeDirectManagedMemAccessFromHost = 13,
    hipDeviceAttributeGlobalL1CacheSupported = 14,
    hipDeviceAttributeHostNativeAtomicSupported = 15,
    hipDeviceAttributeIntegrated = 16,
    hipDeviceAttributeIsMultiGpuBoard = 17,
    hipDeviceAttributeKernelExecTimeout = 18,
    hipDeviceAttributeL2CacheSize = 19,
    hipDeviceAttributeLocalL1CacheSupported = 20,
    hipDeviceAttributeLuid = 21,
    hipDeviceAttributeLuidDeviceNodeMask = 22,
    hipDeviceAttributeComputeCapabilityMajor = 23,
    hipDeviceAttributeManagedMemory = 24,
    hipDeviceAttributeMaxBlocksPerMultiProcessor = 25,
    hipDeviceAttributeMaxBlockDimX = 26,
    hipDeviceAttributeMaxBlockDimY = 27,
    hipDeviceAttributeMaxBlockDimZ = 28,
    hipDeviceAttributeMaxGridDimX = 29,
    hipDeviceAttributeMaxGridDimY = 30,
    hipDeviceAttributeMaxGridDimZ = 31,
    hipDeviceAttributeMaxSurface1D = 32,
    hipDeviceAttributeMaxSurface1DLayered = 33,
    hipDeviceAttributeMaxSurface2D = 34,
    hipDeviceAttributeMaxSurface2DLayered = 35,
    hipDeviceAttributeMaxSurface3D = 36,
    hipDeviceAttributeMaxSurfaceCubemap = 37,
    hipDeviceAttributeMaxSurfaceCubemapLayered = 38,
    hipDeviceAttributeMaxTexture1DWidth = 39,
    hipDeviceAttributeMaxTexture1DLayered = 40,
    hipDeviceAttributeMaxTexture1DLinear = 41,
    hipDeviceAttributeMaxTexture1DMipmap = 42,
    hipDeviceAttributeMaxTexture2DWidth = 43,
    hipDeviceAttributeMaxTexture2DHeight = 44,
    hipDeviceAttributeMaxTexture2DGather = 45,
    hipDeviceAttributeMaxTexture2DLayered = 46,
    hipDeviceAttributeMaxTexture2DLinear = 47,
    hipDeviceAttributeMaxTexture2DMipmap = 48,
    hipDeviceAttributeMaxTexture3DWidth = 49,
    hipDeviceAttributeMaxTexture3DHeight = 50,
    hipDeviceAttributeMaxTexture3DDepth = 51,
    hipDeviceAttributeMaxTexture3DAlt = 52,
    hipDeviceAttributeMaxTextureCubemap = 53,
    hipDeviceAttributeMaxTextureCubemapLayered = 54,
    hipDeviceAttributeMaxThreadsDim = 55,
    hipDeviceAttributeMaxThreadsPerBlock = 56,
    hipDeviceAttributeMaxThreadsPerMultiProcessor = 57,
    hipDeviceAttributeMaxPitch = 58,
    hipDeviceAttributeMemoryBusWidth = 59,
    hipDeviceAttributeMemoryClockRate = 60,
    hipDeviceAttributeComputeCapabilityMinor = 61,
    hipDeviceAttributeMultiGpuBoardGroupID = 62,
    hipDeviceAttributeMultiprocessorCount = 63,
    hipDeviceAttributeUnused1 = 64,
    hipDeviceAttributePageableMemoryAccess = 65,
    hipDeviceAttributePageableMemoryAccessUsesHostPageTables = 66,
    hipDeviceAttributePciBusId = 67,
    hipDeviceAttributePciDeviceId = 68,
    hipDeviceAttributePciDomainID = 69,
    hipDeviceAttributePersistingL2CacheMaxSize = 70,
    hipDeviceAttributeMaxRegistersPerBlock = 71,
    hipDeviceAttributeMaxRegistersPerMultiprocessor = 72,
    hipDeviceAttributeReservedSharedMemPerBlock = 73,
    hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
    hipDeviceAttributeSharedMemPerBlockOptin = 75,
    hipDeviceAttributeSharedMemPerMultiprocessor = 76,
    hipDeviceAttributeSingleToDoublePrecisionPerfRatio = 77,
    hipDeviceAttributeStreamPrioritiesSupported = 78,
    hipDeviceAttributeSurfaceAlignment = 79,
    hipDeviceAttributeTccDriver = 80,
    hipDeviceAttributeTextureAlignment = 81,
    hipDeviceAttributeTexturePitchAlignment = 82,
    hipDeviceAttributeTotalConstantMemory = 83,
    hipDeviceAttributeTotalGlobalMem = 84,
    hipDeviceAttributeUnifiedAddressing = 85,
    hipDeviceAttributeUnused2 = 86,
    hipDeviceAttributeWarpSize = 87,
    hipDeviceAttributeMemoryPoolsSupported = 88,
    hipDeviceAttributeVirtualMemoryManagementSupported = 89,
    hipDeviceAttributeHostRegisterSupported = 90,
    hipDeviceAttributeMemoryPoolSupportedHandleTypes = 91,
    hipDeviceAttributeCudaCompatibleEnd = 9999,
    hipDeviceAttributeAmdSpecificBegin = 10000,
    hipDeviceAttributeClockInstructionRate = 10000,
    hipDeviceAttributeUnused3 = 10001,
    hipDeviceAttributeMaxSharedMemoryPerMultiprocessor = 10002,
    hipDeviceAttributeUnused4 = 10003,
    hipDeviceAttributeUnused5 = 10004,
    hipDeviceAttributeHdpMemFlushCntl = 10005,
    hipDeviceAttributeHdpRegFlushCntl = 10006,
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc = 10007,
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim = 10008,
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim = 10009,
    hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem = 10010,
    hipDeviceAttributeIsLargeBar = 10011,
    hipDeviceAttributeAsicRevision = 10012,
    hipDeviceAttributeCanUseStreamWaitValue = 10013,
    hipDeviceAttributeImageSupport = 10014,
    hipDeviceAttributePhysicalMultiProcessorCount = 10015,
    hipDeviceAttributeFineGrainSupport = 10016,
    hipDeviceAttributeWallClockRate = 10017,
    hipDeviceAttributeAmdSpecificEnd = 19999,
    hipDeviceAttributeVendorSpecificBegin = 20000,
} hipDeviceAttribute_t;

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

/* ---- not offered here: always hipErrorNotSupported (CONTRACT.md §6) ---- */
/* Managed memory needs the kernel's SVM/HMM path, arrays need image
 * layouts; declared so that code mentioning them (hip-tests' resource
 * guards) compiles and fails honestly. */
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

/* ---- kernel launches: need a GPU compiler; always hipErrorNotSupported -- */
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                           void **args, size_t sharedMemBytes __dparm(0),
                           hipStream_t stream __dparm(0));
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                            hipStream_t stream __dparm(0));
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname);

static inline hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                        enum hipChannelFormatKind f) {
    hipChannelFormatDesc d;
    d.x = x;
    d.y = y;
    d.z = z;
    d.w = w;
    d.f = f;
    return d;
}

#ifdef __cplusplus
} /* extern "C" */

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
