/* <peer/hip_peer.h> and <peer/peer_debug.h> from plain C (C11, -Wpedantic):
 * every declaration compiles and links, and the no-device answers read the
 * same as from C++. Run with HIP_VISIBLE_DEVICES=-1 (every GPU hidden). */
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <peer/hip_peer.h>
#include <peer/peer_debug.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                    \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

int main(void) {
    int count = 7, can = 7, dev = 7;
    uint32_t type = 0, hops = 0;
    void *p = NULL;
    hipDeviceptr_t base = NULL;
    size_t size = 0;
    unsigned char host[4] = {0};
    peerRawAccessResult r;
    const uint32_t nop[1] = {0};
    hipError_t (*const fn[])(int) = {hipSetDevice, hipDeviceDisablePeerAccess};

    EXPECT(hipGetDeviceCount(&count) == hipErrorNoDevice);
    EXPECT(count == 0);
    EXPECT(fn[0](0) == hipErrorNoDevice);
    EXPECT(fn[1](0) == hipErrorNoDevice);
    EXPECT(hipGetDevice(&dev) == hipErrorNoDevice);
    EXPECT(hipDeviceReset() == hipErrorNoDevice);
    EXPECT(hipMalloc(&p, 16) == hipErrorNoDevice);
    EXPECT(hipFree(p) == hipErrorNoDevice);
    EXPECT(hipMemGetAddressRange(&base, &size, host) == hipErrorInvalidDevicePointer);
    EXPECT(hipMemcpyHtoD(host, host, 1) == hipErrorNoDevice);
    EXPECT(hipMemcpyDtoH(host, host, 1) == hipErrorNoDevice);
    EXPECT(hipMemset(host, 0, 1) == hipErrorNoDevice);
    EXPECT(hipDeviceCanAccessPeer(&can, 0, 1) == hipErrorNoDevice);
    EXPECT(can == 7);
    EXPECT(hipDeviceEnablePeerAccess(1, 0) == hipErrorNoDevice);
    EXPECT(hipMemcpyPeer(host, 0, host, 1, 1) == hipErrorNoDevice);
    EXPECT(hipExtGetLinkTypeAndHopCount(0, 1, &type, &hops) == hipErrorNoDevice);
    EXPECT(strcmp(hipGetErrorName(hipErrorLaunchTimeOut), "hipErrorLaunchTimeOut") == 0);
    EXPECT(hipGetErrorString(hipSuccess) != NULL);
    EXPECT(HSA_AMD_LINK_INFO_TYPE_PCIE == 2 && HSA_AMD_LINK_INFO_TYPE_XGMI == 4);
    EXPECT(peerRawSdmaRead(0, host, host, 1, &r) == hipErrorNoDevice);
    EXPECT(r.status == hipErrorNoDevice);
    EXPECT(peerRawSdmaWrite(0, host, host, 1, NULL) == hipErrorNoDevice);
    EXPECT(peerRawSdmaSubmit(0, nop, 1, &r) == hipErrorNoDevice);
    EXPECT(peerLastCopyPath() == peerCopyPathNone);
    EXPECT(strcmp(peerCopyPathName(peerCopyPathStaged), "staged") == 0);
    EXPECT(peerOwnerDevice(host) == -1);
    peerClearLastKernelError();
    EXPECT(peerLastKernelErrno(NULL) == 0);
    EXPECT(peerLastKernelError() != NULL);
    /* The module, launch and hiprtc calls, ROCm 5.2.3's types, from C. */
    {
        hipModule_t m = NULL;
        hipFunction_t f = NULL;
        hipDeviceProp_t prop;
        hipPointerAttribute_t attr;
        hipIpcMemHandle_t ipc;
        int value = 0;
        dim3 one = {1, 1, 1};
        EXPECT(hipModuleLoad(&m, "x.co") == hipErrorNoDevice);
        EXPECT(hipModuleGetFunction(&f, m, "k") == hipErrorNoDevice);
        EXPECT(hipLaunchKernel((const void *)&failures, one, one, NULL, 0, NULL) ==
               hipErrorNoDevice);
        EXPECT(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, 0, 1) ==
               hipErrorNoDevice);
        EXPECT(hipPointerGetAttributes(&attr, host) == hipErrorNoDevice);
        EXPECT(hipIpcGetMemHandle(&ipc, host) == hipErrorNoDevice);
        EXPECT(hipGetDeviceProperties(&prop, 0) == hipErrorNoDevice);
        EXPECT(sizeof prop == 792 && sizeof ipc == 64);
        EXPECT(strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") ==
               0);
    }
    if (failures) fprintf(stderr, "%d expectation(s) failed\n", failures);
    return failures ? 1 : 0;
}
