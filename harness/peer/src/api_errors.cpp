// hipGetErrorName / hipGetErrorString for every code of hipError_t.
#include "peer/hip_peer.h"

namespace {
struct Row {
    hipError_t code;
    const char *name;
    const char *text;
};
// Names are HIP's (one per value; older aliases share their value's row);
// the texts are this library's own short descriptions.
constexpr Row kRows[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorDeinitialized, "hipErrorDeinitialized", "driver shutting down"},
    {hipErrorProfilerDisabled, "hipErrorProfilerDisabled", "profiler disabled"},
    {hipErrorProfilerNotInitialized, "hipErrorProfilerNotInitialized", "profiler not initialized"},
    {hipErrorProfilerAlreadyStarted, "hipErrorProfilerAlreadyStarted", "profiler already started"},
    {hipErrorProfilerAlreadyStopped, "hipErrorProfilerAlreadyStopped", "profiler already stopped"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration", "invalid launch configuration"},
    {hipErrorInvalidPitchValue, "hipErrorInvalidPitchValue", "invalid pitch"},
    {hipErrorInvalidSymbol, "hipErrorInvalidSymbol", "invalid device symbol"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer", "invalid device pointer"},
    {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection", "invalid copy direction"},
    {hipErrorInsufficientDriver, "hipErrorInsufficientDriver", "driver version is insufficient"},
    {hipErrorMissingConfiguration, "hipErrorMissingConfiguration", "missing launch configuration"},
    {hipErrorPriorLaunchFailure, "hipErrorPriorLaunchFailure", "an earlier launch failed"},
    {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction", "invalid device function"},
    {hipErrorNoDevice, "hipErrorNoDevice", "no GPU device is visible"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage", "invalid code object"},
    {hipErrorInvalidContext, "hipErrorInvalidContext", "invalid context"},
    {hipErrorContextAlreadyCurrent, "hipErrorContextAlreadyCurrent", "context already current"},
    {hipErrorMapFailed, "hipErrorMapFailed", "mapping failed"},
    {hipErrorUnmapFailed, "hipErrorUnmapFailed", "unmapping failed"},
    {hipErrorArrayIsMapped, "hipErrorArrayIsMapped", "array is mapped"},
    {hipErrorAlreadyMapped, "hipErrorAlreadyMapped", "resource already mapped"},
    {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu", "no code object for this GPU"},
    {hipErrorAlreadyAcquired, "hipErrorAlreadyAcquired", "resource already acquired"},
    {hipErrorNotMapped, "hipErrorNotMapped", "resource not mapped"},
    {hipErrorNotMappedAsArray, "hipErrorNotMappedAsArray", "resource not mapped as an array"},
    {hipErrorNotMappedAsPointer, "hipErrorNotMappedAsPointer", "resource not mapped as a pointer"},
    {hipErrorECCNotCorrectable, "hipErrorECCNotCorrectable", "uncorrectable ECC error"},
    {hipErrorUnsupportedLimit, "hipErrorUnsupportedLimit", "limit not supported"},
    {hipErrorContextAlreadyInUse, "hipErrorContextAlreadyInUse", "context already in use"},
    {hipErrorPeerAccessUnsupported, "hipErrorPeerAccessUnsupported",
     "peer access not supported between these devices"},
    {hipErrorInvalidKernelFile, "hipErrorInvalidKernelFile", "invalid kernel file"},
    {hipErrorInvalidGraphicsContext, "hipErrorInvalidGraphicsContext", "invalid graphics context"},
    {hipErrorInvalidSource, "hipErrorInvalidSource", "invalid source"},
    {hipErrorFileNotFound, "hipErrorFileNotFound", "file not found"},
    {hipErrorSharedObjectSymbolNotFound, "hipErrorSharedObjectSymbolNotFound",
     "shared object symbol not found"},
    {hipErrorSharedObjectInitFailed, "hipErrorSharedObjectInitFailed",
     "shared object initialization failed"},
    {hipErrorOperatingSystem, "hipErrorOperatingSystem", "operating system call failed"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorIllegalState, "hipErrorIllegalState",
     "the operation is not allowed in the present state"},
    {hipErrorNotFound, "hipErrorNotFound", "not found"},
    {hipErrorNotReady, "hipErrorNotReady", "work is not yet complete"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {hipErrorLaunchTimeOut, "hipErrorLaunchTimeOut", "the work timed out and was terminated"},
    {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled",
     "peer access is already enabled"},
    {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled",
     "peer access has not been enabled"},
    {hipErrorSetOnActiveProcess, "hipErrorSetOnActiveProcess",
     "cannot set while the device is active"},
    {hipErrorContextIsDestroyed, "hipErrorContextIsDestroyed", "context is destroyed"},
    {hipErrorAssert, "hipErrorAssert", "device-side assert triggered"},
    {hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered",
     "host memory is already registered"},
    {hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered",
     "host memory is not registered"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorCooperativeLaunchTooLarge, "hipErrorCooperativeLaunchTooLarge",
     "cooperative launch too large"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorStreamCaptureUnsupported, "hipErrorStreamCaptureUnsupported",
     "operation not permitted while capturing"},
    {hipErrorStreamCaptureInvalidated, "hipErrorStreamCaptureInvalidated",
     "stream capture invalidated"},
    {hipErrorStreamCaptureMerge, "hipErrorStreamCaptureMerge", "cannot merge captures"},
    {hipErrorStreamCaptureUnmatched, "hipErrorStreamCaptureUnmatched",
     "capture was not started in this stream"},
    {hipErrorStreamCaptureUnjoined, "hipErrorStreamCaptureUnjoined", "capture has unjoined work"},
    {hipErrorStreamCaptureIsolation, "hipErrorStreamCaptureIsolation",
     "dependency crosses the capture boundary"},
    {hipErrorStreamCaptureImplicit, "hipErrorStreamCaptureImplicit",
     "implicit dependency on a capturing stream"},
    {hipErrorCapturedEvent, "hipErrorCapturedEvent", "operation not permitted on a captured event"},
    {hipErrorStreamCaptureWrongThread, "hipErrorStreamCaptureWrongThread",
     "capture was started by another thread"},
    {hipErrorGraphExecUpdateFailure, "hipErrorGraphExecUpdateFailure",
     "graph update not performed"},
    {hipErrorInvalidChannelDescriptor, "hipErrorInvalidChannelDescriptor",
     "invalid channel descriptor"},
    {hipErrorInvalidTexture, "hipErrorInvalidTexture", "invalid texture"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
    {hipErrorRuntimeMemory, "hipErrorRuntimeMemory", "runtime memory call failed"},
    {hipErrorRuntimeOther, "hipErrorRuntimeOther", "runtime call failed"},
};
const Row *find(hipError_t e) {
    for (const Row &r : kRows)
        if (r.code == e) return &r;
    return nullptr;
}
} // namespace

// Unknown values name themselves hipErrorUnknown, as HIP does.
extern "C" const char *hipGetErrorName(hipError_t error) {
    const Row *r = find(error);
    return r ? r->name : "hipErrorUnknown";
}

extern "C" const char *hipGetErrorString(hipError_t error) {
    const Row *r = find(error);
    return r ? r->text : "unknown error";
}
