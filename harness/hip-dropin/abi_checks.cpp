// The ABI a program built against ROCm 5.2.3 relies on, checked when this
// library is built (x86-64 figures of Debian 12's libamdhip64-dev 5.2.3):
// structure sizes and member offsets the program and the library must agree
// on, and error codes whose values a program compares against. The test
// hip_dropin.abi_layout compares every field and enumerator against the
// installed ROCm headers; this file stops a build that drifted before any
// test runs.
#include <hip/hip_runtime.h>

#include <cstddef>

static_assert(sizeof(void *) == 8, "libamdhip64.so.5 is built for 64-bit targets");
static_assert(sizeof(hipDeviceProp_t) == 792);
static_assert(offsetof(hipDeviceProp_t, totalGlobalMem) == 256);
static_assert(offsetof(hipDeviceProp_t, multiProcessorCount) == 336);
static_assert(offsetof(hipDeviceProp_t, pciBusID) == 368);
static_assert(offsetof(hipDeviceProp_t, gcnArchName) == 396);
static_assert(offsetof(hipDeviceProp_t, isLargeBar) == 764);
static_assert(offsetof(hipDeviceProp_t, pageableMemoryAccessUsesHostPageTables) == 788);
static_assert(sizeof(hipPointerAttribute_t) == 32);
static_assert(sizeof(hipIpcMemHandle_t) == 64 && sizeof(hipIpcEventHandle_t) == 64);
static_assert(sizeof(dim3) == 12);
static_assert(hipErrorNoBinaryForGpu == 209 && hipErrorInvalidDeviceFunction == 98);
static_assert(hipErrorPeerAccessAlreadyEnabled == 704 && hipErrorNotSupported == 801);
static_assert(hipDeviceAttributeGcnArchName == 10004 &&
              hipDeviceAttributeFineGrainSupport == 10016);
static_assert(hipMemoryTypeDevice == 1 && hipDevP2PAttrHipArrayAccessSupported == 3);
