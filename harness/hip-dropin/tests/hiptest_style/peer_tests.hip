// hip-tests-style peer tests, compiled as HIP (clang -x hip --cuda-host-only
// against the harness's headers) and run on the simulator. Tests tagged
// [launches_kernel] launch a kernel or load a code object and must fail with
// hipErrorNoBinaryForGpu; every other test must pass (main.cpp decides).
// PEER_EXPECT_ACCESS (the machine file's access matrix) comes from CTest.
#include "hip_test_common.hpp"

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

__global__ void VectorSet(int *p, int value, size_t n) {
    const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = value;
}

__global__ void vectorADD(const int *a, const int *b, int *c, size_t n) {
    const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int deviceCount() {
    int n = 0;
    HIP_CHECK(hipGetDeviceCount(&n));
    return n;
}

bool accessExpected(int a, int b) {
    const char *m = std::getenv("PEER_EXPECT_ACCESS");
    int row = 0, col = 0;
    for (const char *c = m ? m : ""; *c; ++c) {
        if (*c == '/') {
            ++row;
            col = 0;
        } else if (row == a && col++ == b) {
            return *c == '1';
        }
    }
    return false;
}

void hostHostOnly() {} // a host function: no registration names it

} // namespace

TEST_CASE("Unit_hipDeviceCanAccessPeer_MatchesMachine") {
    const int n = deviceCount();
    REQUIRE(n > 0);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            int can = -1;
            HIP_CHECK(hipDeviceCanAccessPeer(&can, a, b));
            INFO(a << " -> " << b);
            REQUIRE(can == (a != b && accessExpected(a, b) ? 1 : 0));
        }
    int can = 0;
    HIP_CHECK_ERROR(hipDeviceCanAccessPeer(nullptr, 0, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipDeviceCanAccessPeer(&can, 0, n), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipDeviceGetP2PAttribute_AccessSupported") {
    const int n = deviceCount();
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            int v = -1;
            if (a == b) {
                HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, a, b),
                                hipErrorInvalidDevice);
                continue;
            }
            HIP_CHECK(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, a, b));
            REQUIRE(v == (accessExpected(a, b) ? 1 : 0));
        }
    int v = 0;
    HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(nullptr, hipDevP2PAttrAccessSupported, 0, 1),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipDeviceGetP2PAttribute(&v, hipDevP2PAttrAccessSupported, 0, n),
                    hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipDeviceEnableDisablePeerAccess_Pairs") {
    const int n = deviceCount();
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b || !accessExpected(a, b)) continue;
            HIP_CHECK(hipSetDevice(a));
            HIP_CHECK(hipDeviceEnablePeerAccess(b, 0));
            HIP_CHECK_ERROR(hipDeviceEnablePeerAccess(b, 0), hipErrorPeerAccessAlreadyEnabled);
            HIP_CHECK(hipDeviceDisablePeerAccess(b));
            HIP_CHECK_ERROR(hipDeviceDisablePeerAccess(b), hipErrorPeerAccessNotEnabled);
        }
    HIP_CHECK(hipSetDevice(0));
}

// Data from the host, copied between devices, compared on the host.
TEST_CASE("Unit_hipMemcpyPeer_HostData") {
    const int n = deviceCount();
    const size_t count = 4099;
    std::vector<int> in(count), out(count);
    for (int src = 0; src < n; ++src)
        for (int dst = 0; dst < n; ++dst) {
            if (src == dst) continue;
            for (size_t i = 0; i < count; ++i)
                in[i] = int(i) * 31 + src * 7 + dst;
            int *a = nullptr, *b = nullptr;
            HIP_CHECK(hipSetDevice(src));
            HIP_CHECK(hipMalloc(&a, count * sizeof(int)));
            HIP_CHECK(hipSetDevice(dst));
            HIP_CHECK(hipMalloc(&b, count * sizeof(int)));
            HIP_CHECK(hipMemcpy(a, in.data(), count * sizeof(int), hipMemcpyHostToDevice));
            HIP_CHECK(hipMemcpyPeer(b, dst, a, src, count * sizeof(int)));
            HIP_CHECK(hipMemcpy(out.data(), b, count * sizeof(int), hipMemcpyDeviceToHost));
            REQUIRE(in == out);
            HIP_CHECK(hipFree(a));
            HIP_CHECK(hipFree(b));
        }
}

// As hip-tests' Unit_hipMemcpyPeer_Basic: the source is filled by a kernel.
TEST_CASE("Unit_hipMemcpyPeer_KernelFilled", "[launches_kernel]") {
    REQUIRE(deviceCount() >= 1);
    int *a = nullptr;
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipMalloc(&a, 64 * sizeof(int)));
    VectorSet<<<1, 64>>>(a, 22, 64);
    const hipError_t launch = hipGetLastError();
    HIP_CHECK(hipFree(a));
    HIP_CHECK(launch);
}

TEST_CASE("Unit_hipLaunchKernelGGL_vectorADD", "[launches_kernel]") {
    int *a = nullptr, *b = nullptr, *c = nullptr;
    HIP_CHECK(hipMalloc(&a, 256));
    HIP_CHECK(hipMalloc(&b, 256));
    HIP_CHECK(hipMalloc(&c, 256));
    hipLaunchKernelGGL(vectorADD, dim3(1), dim3(64), 0, 0, a, b, c, size_t(64));
    const hipError_t launch = hipGetLastError();
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    HIP_CHECK(launch);
}

// The context loads vector_set.co on the first request only.
TEST_CASE("Unit_hipModuleLoad_LazyContext", "[launches_kernel]") {
    hipFunction_t f = nullptr;
    const hipError_t first = TestContext::get().getFunction("vector_set.co", "VectorSet", &f);
    const hipError_t again = TestContext::get().getFunction("vector_set.co", "VectorSet", &f);
    REQUIRE(TestContext::get().loadAttempts("vector_set.co") == 1);
    REQUIRE(first == again);
    HIP_CHECK(first);
    void *args[] = {nullptr};
    HIP_CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
}

// What every module and launch call answers before any GPU code would run.
TEST_CASE("Unit_hipModule_Launch_Negative") {
    hipModule_t m = nullptr;
    hipFunction_t f = nullptr;
    HIP_CHECK_ERROR(hipModuleLoad(nullptr, "x.co"), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipModuleLoad(&m, "/nonexistent/x.co"), hipErrorFileNotFound);
    const std::string junk = "not_a_code_object.bin";
    std::ofstream(junk) << "plain text, no code object";
    HIP_CHECK_ERROR(hipModuleLoad(&m, junk.c_str()), hipErrorInvalidKernelFile);
    HIP_CHECK_ERROR(hipModuleLoadData(&m, nullptr), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipModuleUnload(nullptr), hipErrorNotFound);
    HIP_CHECK_ERROR(hipModuleGetFunction(&f, nullptr, nullptr), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipModuleGetFunction(&f, m, "k"), hipErrorNotFound);
    HIP_CHECK_ERROR(hipModuleLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
                    hipErrorInvalidImage);
    HIP_CHECK_ERROR(
        hipModuleLaunchKernel(nullptr, 0x10000, 1, 1, 0x10000, 1, 1, 0, nullptr, nullptr, nullptr),
        hipErrorInvalidConfiguration);
    HIP_CHECK_ERROR(hipLaunchKernel(reinterpret_cast<const void *>(&hostHostOnly), dim3(1), dim3(1),
                                    nullptr, 0, nullptr),
                    hipErrorInvalidDeviceFunction);
    dim3 g, b;
    size_t shared = 0;
    hipStream_t s = nullptr;
    HIP_CHECK_ERROR(__hipPopCallConfiguration(&g, &b, &shared, &s), hipErrorMissingConfiguration);
    HIP_CHECK_ERROR(hipGetLastError(), hipErrorMissingConfiguration);
}

TEST_CASE("Unit_hipPointerGetAttributes_DeviceMemory") {
    const int n = deviceCount();
    HIP_CHECK(hipSetDevice(n - 1));
    char *p = nullptr;
    HIP_CHECK(hipMalloc(&p, 1000));
    hipPointerAttribute_t attr{};
    HIP_CHECK(hipPointerGetAttributes(&attr, p + 10));
    REQUIRE(attr.memoryType == hipMemoryTypeDevice);
    REQUIRE(attr.device == n - 1);
    REQUIRE(attr.devicePointer == p + 10);
    size_t size = 0;
    HIP_CHECK(hipMemPtrGetInfo(p + 999, &size));
    REQUIRE(size == 1000);
    HIP_CHECK(hipFree(p));
    int host = 0;
    HIP_CHECK_ERROR(hipPointerGetAttributes(&attr, &host), hipErrorInvalidValue);
    HIP_CHECK(hipSetDevice(0));
}
