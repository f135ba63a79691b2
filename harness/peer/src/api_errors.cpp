// hipGetErrorName / hipGetErrorString for the codes this subset returns.
#include "peer/hip_peer.h"

namespace {
struct Row {
    hipError_t code;
    const char *name;
    const char *text;
};
// Names are HIP's; texts follow HIP's descriptions in spirit.
constexpr Row kRows[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer", "invalid device pointer"},
    {hipErrorNoDevice, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorIllegalState, "hipErrorIllegalState",
     "the operation cannot be performed in the present state"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {hipErrorLaunchTimeOut, "hipErrorLaunchTimeOut", "the launch timed out and was terminated"},
    {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled",
     "peer access is already enabled"},
    {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled",
     "peer access has not been enabled"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};
const Row *find(hipError_t e) {
    for (const Row &r : kRows)
        if (r.code == e) return &r;
    return nullptr;
}
} // namespace

extern "C" const char *hipGetErrorName(hipError_t error) {
    const Row *r = find(error);
    return r ? r->name : "hipErrorUnknown";
}

extern "C" const char *hipGetErrorString(hipError_t error) {
    const Row *r = find(error);
    return r ? r->text : "unknown error";
}
