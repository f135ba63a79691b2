// A HIP-style host program, written the way ROCm's hip-tests write theirs:
// <hip/hip_runtime.h>, a HIP_CHECK macro, Catch2, hipMemcpy with kinds,
// streams, hipGetLastError and the peer calls. It uses nothing of this
// project but the HIP headers, and is compiled twice (g++ and clang) and run
// on every simulated machine. Expected facts come from CTest's environment,
// written from the machine file (PEER_EXPECT_GPUS, PEER_EXPECT_ACCESS).
#include <hip/hip_runtime.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define HIP_CHECK(error)                                                                           \
    {                                                                                              \
        hipError_t localError = error;                                                             \
        INFO("HIP API: " << #error << " -> " << hipGetErrorName(localError));                      \
        REQUIRE(localError == hipSuccess);                                                         \
    }
#define HIP_CHECK_ERROR(errorExpr, expectedError)                                                  \
    {                                                                                              \
        hipError_t localError = errorExpr;                                                         \
        INFO(#errorExpr << " -> " << hipGetErrorName(localError) << ", expected "                  \
                        << hipGetErrorName(expectedError));                                        \
        REQUIRE(localError == (expectedError));                                                    \
    }

namespace {

// One entry per GPU: "pci_slot=gfxNAME=cu_count", '/'-separated.
struct Expected {
    std::string slot, arch;
    int cus = 0;
};
std::vector<Expected> expected_gpus() {
    std::vector<Expected> out;
    const char *s = std::getenv("PEER_EXPECT_GPUS");
    std::string list = s ? s : "";
    size_t pos = 0;
    while (pos < list.size()) {
        size_t end = list.find('/', pos);
        if (end == std::string::npos) end = list.size();
        const std::string item = list.substr(pos, end - pos);
        const size_t a = item.find('='), b = item.rfind('=');
        out.push_back(
            {item.substr(0, a), item.substr(a + 1, b - a - 1), std::atoi(item.c_str() + b + 1)});
        pos = end + 1;
    }
    return out;
}

int getDeviceCount() {
    int n = 0;
    HIP_CHECK(hipGetDeviceCount(&n));
    REQUIRE(n == int(expected_gpus().size()));
    return n;
}

bool access_expected(int a, int b) {
    const char *s = std::getenv("PEER_EXPECT_ACCESS");
    std::string m = s ? s : "";
    int row = 0, col = 0;
    for (char c : m) {
        if (c == '/') {
            ++row;
            col = 0;
            continue;
        }
        if (row == a && col == b) return c == '1';
        ++col;
    }
    return false;
}

void fill(std::vector<int> &v, int seed) {
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = int(i * 2654435761u) ^ seed;
}

__global__ void VectorSet(int *p, int value, size_t n) {
    const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = value;
}

} // namespace

TEST_CASE("Unit_hipGetDeviceProperties_MatchesMachine", "[hip_style]") {
    const auto exp = expected_gpus();
    const int n = getDeviceCount();
    for (int d = 0; d < n; ++d) {
        CAPTURE(d);
        hipDeviceProp_t prop;
        HIP_CHECK(hipGetDeviceProperties(&prop, d));
        char bus[32];
        HIP_CHECK(hipDeviceGetPCIBusId(bus, sizeof bus, d));
        CHECK(std::string(bus) == exp[size_t(d)].slot);
        char from_props[32];
        std::snprintf(from_props, sizeof from_props, "%04x:%02x:%02x.0", prop.pciDomainID,
                      prop.pciBusID, prop.pciDeviceID);
        CHECK(std::string(from_props) == exp[size_t(d)].slot);
        CHECK(std::string(prop.gcnArchName) == exp[size_t(d)].arch);
        CHECK(prop.multiProcessorCount == exp[size_t(d)].cus);
        CHECK(std::strlen(prop.name) > 0);
        CHECK(prop.totalGlobalMem > 0);
        int cus = 0, bus_attr = -1;
        HIP_CHECK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, d));
        HIP_CHECK(hipDeviceGetAttribute(&bus_attr, hipDeviceAttributePciBusId, d));
        CHECK(cus == prop.multiProcessorCount);
        CHECK(bus_attr == prop.pciBusID);
    }
    hipDeviceProp_t prop;
    HIP_CHECK_ERROR(hipGetDeviceProperties(&prop, n), hipErrorInvalidDevice);
    HIP_CHECK_ERROR(hipGetDeviceProperties(nullptr, 0), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceGet_NameAndInit", "[hip_style]") {
    HIP_CHECK(hipInit(0));
    HIP_CHECK_ERROR(hipInit(1), hipErrorInvalidValue);
    const int n = getDeviceCount();
    for (int d = 0; d < n; ++d) {
        CAPTURE(d);
        hipDevice_t dev = -1;
        HIP_CHECK(hipDeviceGet(&dev, d));
        CHECK(dev == d);
        hipDeviceProp_t prop;
        HIP_CHECK(hipGetDeviceProperties(&prop, d));
        char name[256];
        HIP_CHECK(hipDeviceGetName(name, sizeof name, dev));
        CHECK(std::string(name) == prop.name);
        // A short buffer gets the name's first len - 1 bytes, terminated.
        char four[4] = {'x', 'x', 'x', 'x'};
        HIP_CHECK(hipDeviceGetName(four, sizeof four, dev));
        CHECK(std::string(four) == std::string(prop.name).substr(0, 3));
    }
    hipDevice_t dev = -1;
    HIP_CHECK_ERROR(hipDeviceGet(&dev, n), hipErrorInvalidDevice);
    HIP_CHECK_ERROR(hipDeviceGet(&dev, -1), hipErrorInvalidDevice);
    HIP_CHECK_ERROR(hipDeviceGet(nullptr, 0), hipErrorInvalidValue);
    char name[8];
    HIP_CHECK_ERROR(hipDeviceGetName(name, 0, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipDeviceGetName(nullptr, 8, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipDeviceGetName(name, sizeof name, n), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipMemcpy_EveryKind", "[hip_style]") {
    const int n = getDeviceCount();
    constexpr size_t N = 4096 + 17;
    for (int d = 0; d < n; ++d) {
        CAPTURE(d);
        HIP_CHECK(hipSetDevice(d));
        int *A_d = nullptr, *B_d = nullptr, *P_h = nullptr;
        HIP_CHECK(hipMalloc(&A_d, N * sizeof(int))); // typed overload
        HIP_CHECK(hipMalloc(&B_d, N * sizeof(int)));
        HIP_CHECK(hipHostMalloc(&P_h, N * sizeof(int)));
        std::vector<int> A_h(N), B_h(N, 0), C_h(N, 0);
        fill(A_h, d + 1);
        HIP_CHECK(hipMemcpy(A_d, A_h.data(), N * sizeof(int), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(B_d, A_d, N * sizeof(int), hipMemcpyDeviceToDevice));
        HIP_CHECK(hipMemcpy(B_h.data(), B_d, N * sizeof(int), hipMemcpyDeviceToHost));
        CHECK(B_h == A_h);
        HIP_CHECK(hipMemcpy(C_h.data(), B_h.data(), N * sizeof(int), hipMemcpyHostToHost));
        CHECK(C_h == A_h);
        // hipMemcpyDefault: the direction comes from the addresses.
        HIP_CHECK(hipMemset(B_d, 0, N * sizeof(int)));
        HIP_CHECK(hipMemcpy(P_h, A_d, N * sizeof(int), hipMemcpyDefault)); // D -> pinned
        HIP_CHECK(hipMemcpy(B_d, P_h, N * sizeof(int), hipMemcpyDefault)); // pinned -> D
        std::fill(C_h.begin(), C_h.end(), 0);
        HIP_CHECK(hipMemcpy(C_h.data(), B_d, N * sizeof(int), hipMemcpyDefault));
        CHECK(C_h == A_h);
        CHECK(std::memcmp(P_h, A_h.data(), N * sizeof(int)) == 0);
        // Bad arguments.
        HIP_CHECK_ERROR(hipMemcpy(nullptr, A_d, 4, hipMemcpyDeviceToDevice), hipErrorInvalidValue);
        HIP_CHECK_ERROR(hipMemcpy(B_h.data(), C_h.data(), 4, hipMemcpyDeviceToHost),
                        hipErrorInvalidValue); // the source is not device memory
        HIP_CHECK_ERROR(hipMemcpy(B_d, A_d, (N + 2048) * sizeof(int), hipMemcpyDeviceToDevice),
                        hipErrorInvalidValue); // past the allocation's end
        HIP_CHECK_ERROR(hipMemcpy(B_d, A_d, 4, static_cast<hipMemcpyKind>(7)),
                        hipErrorInvalidMemcpyDirection);
        HIP_CHECK(hipMemcpy(B_d, A_d, 0, hipMemcpyDeviceToDevice));
        // Known to hipMemGetAddressRange: device and pinned memory, interior pointers too.
        hipDeviceptr_t base = nullptr;
        size_t size = 0;
        HIP_CHECK(hipMemGetAddressRange(&base, &size, A_d + 100));
        CHECK(base == A_d);
        CHECK(size == N * sizeof(int));
        HIP_CHECK(hipMemGetAddressRange(&base, &size, P_h + 5));
        CHECK(base == P_h);
        CHECK(size == N * sizeof(int));
        HIP_CHECK_ERROR(hipMemGetAddressRange(&base, &size, A_h.data()),
                        hipErrorInvalidDevicePointer);
        HIP_CHECK(hipHostFree(P_h));
        HIP_CHECK(hipFree(B_d));
        HIP_CHECK(hipFree(A_d));
    }
}

TEST_CASE("Unit_hipMemGetInfo_SeesAllocation", "[hip_style]") {
    const int n = getDeviceCount();
    for (int d = 0; d < n; ++d) {
        HIP_CHECK(hipSetDevice(d));
        size_t free0 = 0, total = 0, free1 = 0, total1 = 0;
        HIP_CHECK(hipMemGetInfo(&free0, &total));
        CHECK(total > 0);
        CHECK(free0 <= total);
        void *p = nullptr;
        constexpr size_t kBytes = 64u << 20;
        HIP_CHECK(hipMalloc(&p, kBytes));
        HIP_CHECK(hipMemGetInfo(&free1, &total1));
        CHECK(total1 == total);
        CHECK(free1 + kBytes <= free0);
        HIP_CHECK(hipFree(p));
    }
    HIP_CHECK_ERROR(hipMemGetInfo(nullptr, nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipHostRegister_CopyThroughDevicePointer", "[hip_style]") {
    const int n = getDeviceCount();
    constexpr size_t N = 3000; // not a page multiple, not page aligned below
    std::vector<int> backing(N + 1024);
    int *host = backing.data() + 3;
    fill(backing, 7);
    HIP_CHECK(hipHostRegister(host, N * sizeof(int), hipHostRegisterDefault));
    HIP_CHECK_ERROR(hipHostRegister(host, N * sizeof(int), 0), hipErrorHostMemoryAlreadyRegistered);
    hipDeviceptr_t base = nullptr;
    size_t size = 0;
    HIP_CHECK(hipMemGetAddressRange(&base, &size, host + 10));
    CHECK(base == host);
    CHECK(size == N * sizeof(int));
    int *dev_view = nullptr;
    HIP_CHECK(hipHostGetDevicePointer(reinterpret_cast<void **>(&dev_view), host, 0));
    REQUIRE(dev_view != nullptr);
    for (int d = 0; d < n; ++d) {
        HIP_CHECK(hipSetDevice(d));
        int *A_d = nullptr;
        HIP_CHECK(hipMalloc(&A_d, N * sizeof(int)));
        std::vector<int> want(host, host + N), got(N, 0);
        HIP_CHECK(hipMemcpy(A_d, host, N * sizeof(int), hipMemcpyHostToDevice));
        HIP_CHECK(hipMemcpy(got.data(), A_d, N * sizeof(int), hipMemcpyDeviceToHost));
        CHECK(got == want);
        const int after = host[N]; // the first int past the registered range
        HIP_CHECK(hipMemset(A_d, 0x5a, N * sizeof(int)));
        HIP_CHECK(hipMemcpy(dev_view, A_d, N * sizeof(int), hipMemcpyDeviceToDevice));
        CHECK(host[0] == 0x5a5a5a5a);
        CHECK(host[N - 1] == 0x5a5a5a5a);
        CHECK(host[N] == after); // bytes past the range untouched
        std::memcpy(host, want.data(), N * sizeof(int));
        HIP_CHECK(hipFree(A_d));
    }
    HIP_CHECK(hipHostUnregister(host));
    HIP_CHECK_ERROR(hipHostUnregister(host), hipErrorHostMemoryNotRegistered);
    HIP_CHECK_ERROR(hipMemGetAddressRange(&base, &size, host), hipErrorInvalidDevicePointer);
}

TEST_CASE("Unit_hipMemcpyPeer_EveryCapablePair", "[hip_style]") {
    const int n = getDeviceCount();
    constexpr size_t N = 8192;
    for (int src = 0; src < n; ++src)
        for (int dst = 0; dst < n; ++dst) {
            if (src == dst) continue;
            CAPTURE(src, dst);
            int can = -1;
            HIP_CHECK(hipDeviceCanAccessPeer(&can, dst, src));
            CHECK(can == (access_expected(dst, src) ? 1 : 0));
            int *S_d = nullptr, *D_d = nullptr;
            HIP_CHECK(hipSetDevice(src));
            HIP_CHECK(hipMalloc(&S_d, N * sizeof(int)));
            HIP_CHECK(hipSetDevice(dst));
            HIP_CHECK(hipMalloc(&D_d, N * sizeof(int)));
            std::vector<int> A_h(N), B_h(N, 0);
            fill(A_h, src * 16 + dst);
            HIP_CHECK(hipMemcpy(S_d, A_h.data(), N * sizeof(int), hipMemcpyHostToDevice));
            if (can) HIP_CHECK(hipDeviceEnablePeerAccess(src, 0));
            HIP_CHECK(hipMemcpyPeer(D_d, dst, S_d, src, N * sizeof(int)));
            HIP_CHECK(hipMemcpy(B_h.data(), D_d, N * sizeof(int), hipMemcpyDeviceToHost));
            CHECK(B_h == A_h);
            if (can) {
                // Async on a stream of the destination device: the direct path.
                hipStream_t stream;
                HIP_CHECK(hipStreamCreate(&stream));
                HIP_CHECK(hipMemset(D_d, 0, N * sizeof(int)));
                HIP_CHECK(hipMemcpyPeerAsync(D_d, dst, S_d, src, N * sizeof(int), stream));
                HIP_CHECK(hipStreamSynchronize(stream));
                HIP_CHECK(hipMemcpy(B_h.data(), D_d, N * sizeof(int), hipMemcpyDeviceToHost));
                CHECK(B_h == A_h);
                HIP_CHECK(hipStreamDestroy(stream));
                HIP_CHECK(hipDeviceDisablePeerAccess(src));
            }
            HIP_CHECK_ERROR(hipMemcpyPeer(D_d, n, S_d, src, 4), hipErrorInvalidDevice);
            HIP_CHECK_ERROR(hipMemcpyPeer(nullptr, dst, S_d, src, 4), hipErrorInvalidValue);
            HIP_CHECK(hipFree(D_d));
            HIP_CHECK(hipSetDevice(src));
            HIP_CHECK(hipFree(S_d));
        }
}

// Timing a peer copy the way hip-tests time their work: events recorded
// around hipMemcpyPeerAsync on a stream of the destination device.
TEST_CASE("Unit_hipEventElapsedTime_AroundMemcpyPeerAsync", "[hip_style][event]") {
    const int n = getDeviceCount();
    constexpr size_t N = 1 << 18;
    for (int src = 0; src < n; ++src)
        for (int dst = 0; dst < n; ++dst) {
            CAPTURE(src, dst);
            int *S_d = nullptr, *D_d = nullptr;
            HIP_CHECK(hipSetDevice(src));
            HIP_CHECK(hipMalloc(&S_d, N * sizeof(int)));
            HIP_CHECK(hipSetDevice(dst));
            HIP_CHECK(hipMalloc(&D_d, N * sizeof(int)));
            std::vector<int> A_h(N), B_h(N, 0);
            fill(A_h, src * 64 + dst);
            HIP_CHECK(hipMemcpy(S_d, A_h.data(), N * sizeof(int), hipMemcpyHostToDevice));
            hipStream_t stream;
            HIP_CHECK(hipStreamCreate(&stream));
            hipEvent_t start, stop;
            HIP_CHECK(hipEventCreate(&start));
            HIP_CHECK(hipEventCreate(&stop));
            HIP_CHECK(hipEventRecord(start, stream));
            HIP_CHECK(hipMemcpyPeerAsync(D_d, dst, S_d, src, N * sizeof(int), stream));
            HIP_CHECK(hipEventRecord(stop, stream));
            HIP_CHECK(hipEventSynchronize(stop));
            HIP_CHECK(hipEventQuery(stop));
            float ms = 0;
            HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
            INFO("hipMemcpyPeerAsync of " << N * sizeof(int) << " bytes: " << ms << " ms");
            REQUIRE(ms > 0.0f);
            HIP_CHECK(hipMemcpy(B_h.data(), D_d, N * sizeof(int), hipMemcpyDeviceToHost));
            CHECK(B_h == A_h);
            HIP_CHECK(hipEventDestroy(stop));
            HIP_CHECK(hipEventDestroy(start));
            HIP_CHECK(hipStreamDestroy(stream));
            HIP_CHECK(hipFree(D_d));
            HIP_CHECK(hipSetDevice(src));
            HIP_CHECK(hipFree(S_d));
        }
}

namespace {
void CallbackSetsFlag(hipStream_t, hipError_t status, void *userData) {
    if (status == hipSuccess) static_cast<std::atomic<int> *>(userData)->fetch_add(1);
}
} // namespace

// hip-tests' pattern: a copy, a callback, synchronize; the callback ran once
// the copy's bytes were there. An event recorded after it waits for it too.
TEST_CASE("Unit_hipStreamAddCallback_AfterAsyncCopy", "[hip_style][event]") {
    getDeviceCount();
    HIP_CHECK(hipSetDevice(0));
    constexpr size_t N = 1 << 16;
    int *A_d = nullptr, *Out_h = nullptr;
    HIP_CHECK(hipMalloc(&A_d, N * sizeof(int)));
    HIP_CHECK(hipHostMalloc(&Out_h, N * sizeof(int), 0));
    HIP_CHECK(hipMemset(A_d, 0x21, N * sizeof(int)));
    std::memset(Out_h, 0, N * sizeof(int));
    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));
    std::atomic<int> calls{0};
    hipEvent_t done;
    HIP_CHECK(hipEventCreateWithFlags(&done, hipEventDisableTiming));
    HIP_CHECK(hipMemcpyAsync(Out_h, A_d, N * sizeof(int), hipMemcpyDeviceToHost, stream));
    HIP_CHECK(hipStreamAddCallback(stream, CallbackSetsFlag, &calls, 0));
    HIP_CHECK(hipEventRecord(done, stream));
    HIP_CHECK(hipEventSynchronize(done));
    CHECK(calls.load() == 1);
    CHECK(Out_h[N - 1] == 0x21212121);
    float ms = 0;
    HIP_CHECK_ERROR(hipEventElapsedTime(&ms, done, done), hipErrorInvalidHandle);
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipEventDestroy(done));
    HIP_CHECK(hipStreamDestroy(stream));
    HIP_CHECK(hipHostFree(Out_h));
    HIP_CHECK(hipFree(A_d));
}

TEST_CASE("Unit_hipStream_AsyncCopiesCompleteAtSynchronize", "[hip_style][stream]") {
    const int n = getDeviceCount();
    constexpr size_t N = 1 << 20;
    for (int d = 0; d < n; ++d) {
        CAPTURE(d);
        HIP_CHECK(hipSetDevice(d));
        hipStream_t stream;
        HIP_CHECK(hipStreamCreate(&stream));
        int *A_d = nullptr, *In_h = nullptr, *Out_h = nullptr;
        HIP_CHECK(hipMalloc(&A_d, N * sizeof(int)));
        HIP_CHECK(hipHostMalloc(&In_h, N * sizeof(int), 0));
        HIP_CHECK(hipHostMalloc(&Out_h, N * sizeof(int), 0));
        for (size_t i = 0; i < N; ++i)
            In_h[i] = int(i) * 3 + d;
        std::memset(Out_h, 0, N * sizeof(int));
        HIP_CHECK(hipMemcpyAsync(A_d, In_h, N * sizeof(int), hipMemcpyHostToDevice, stream));
        HIP_CHECK(hipMemcpyAsync(Out_h, A_d, N * sizeof(int), hipMemcpyDeviceToHost, stream));
        HIP_CHECK(hipStreamSynchronize(stream));
        HIP_CHECK(hipStreamQuery(stream));
        CHECK(std::memcmp(In_h, Out_h, N * sizeof(int)) == 0);
        // The null stream too.
        HIP_CHECK(hipMemsetAsync(A_d, 0x11, N * sizeof(int), nullptr));
        HIP_CHECK(hipMemcpyAsync(Out_h, A_d, N * sizeof(int), hipMemcpyDeviceToHost, nullptr));
        HIP_CHECK(hipDeviceSynchronize());
        CHECK(Out_h[0] == 0x11111111);
        CHECK(Out_h[N - 1] == 0x11111111);
        HIP_CHECK(hipStreamDestroy(stream));
        HIP_CHECK_ERROR(hipStreamDestroy(nullptr), hipErrorInvalidHandle);
        HIP_CHECK(hipHostFree(Out_h));
        HIP_CHECK(hipHostFree(In_h));
        HIP_CHECK(hipFree(A_d));
    }
}

// The engine waits on a host word (hipStreamWaitValue32) so the copies queued
// behind it cannot have run: the host sees NotReady and untouched memory,
// works on, releases the engine, and synchronize completes the copies.
TEST_CASE("Unit_hipStreamQuery_NotReadyWhileQueuedWorkWaits", "[hip_style][stream]") {
    const int n = getDeviceCount();
    constexpr size_t N = 1 << 18;
    for (int d = 0; d < n; ++d) {
        CAPTURE(d);
        HIP_CHECK(hipSetDevice(d));
        hipStream_t stream;
        HIP_CHECK(hipStreamCreate(&stream));
        uint32_t *flag = nullptr;
        int *A_d = nullptr, *In_h = nullptr, *Out_h = nullptr;
        HIP_CHECK(hipHostMalloc(&flag, sizeof(uint32_t), 0));
        HIP_CHECK(hipMalloc(&A_d, N * sizeof(int)));
        HIP_CHECK(hipHostMalloc(&In_h, N * sizeof(int), 0));
        HIP_CHECK(hipHostMalloc(&Out_h, N * sizeof(int), 0));
        *flag = 0;
        (void)hipGetLastError(); // start clean: earlier cases leave failures behind
        for (size_t i = 0; i < N; ++i)
            In_h[i] = int(i) ^ 0x3c3c;
        std::memset(Out_h, 0xee, N * sizeof(int));
        HIP_CHECK(hipStreamWaitValue32(stream, flag, 1, hipStreamWaitValueEq, 0xffffffffu));
        HIP_CHECK(hipMemcpyAsync(A_d, In_h, N * sizeof(int), hipMemcpyHostToDevice, stream));
        HIP_CHECK(hipMemcpyAsync(Out_h, A_d, N * sizeof(int), hipMemcpyDeviceToHost, stream));
        HIP_CHECK_ERROR(hipStreamQuery(stream), hipErrorNotReady);
        CHECK(hipGetLastError() == hipSuccess); // NotReady is a state, not an error
        // Host work overlapping the queued copies.
        uint64_t sum = 0;
        for (size_t i = 0; i < N; ++i)
            sum += uint32_t(In_h[i]);
        CHECK(sum > 0);
        CHECK(Out_h[0] == int(0xeeeeeeee)); // the copies have not run
        reinterpret_cast<std::atomic<uint32_t> *>(flag)->store(1);
        HIP_CHECK(hipStreamSynchronize(stream));
        HIP_CHECK(hipStreamQuery(stream));
        CHECK(std::memcmp(In_h, Out_h, N * sizeof(int)) == 0);
        HIP_CHECK(hipStreamDestroy(stream));
        HIP_CHECK(hipHostFree(Out_h));
        HIP_CHECK(hipHostFree(In_h));
        HIP_CHECK(hipHostFree(flag));
        HIP_CHECK(hipFree(A_d));
    }
}

// Work that hangs the engine fails asynchronously: the calls that queued it
// succeed, hipStreamSynchronize returns the failure (and hipGetLastError
// then has it), and hipDeviceReset makes the device usable again.
TEST_CASE("Unit_hipStream_AsyncErrorSurfacesAtSynchronize", "[hip_style][stream]") {
    const int n = getDeviceCount();
    REQUIRE(n > 0);
    HIP_CHECK(hipSetDevice(0));
    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));
    uint32_t *flag = nullptr;
    int *A_d = nullptr;
    std::vector<int> h(1024, 9), back(1024, 0);
    HIP_CHECK(hipHostMalloc(&flag, sizeof(uint32_t), 0));
    HIP_CHECK(hipMalloc(&A_d, h.size() * sizeof(int)));
    *flag = 0; // never set: the wait runs into the kernel's job timeout
    (void)hipGetLastError();
    HIP_CHECK(hipStreamWaitValue32(stream, flag, 1, hipStreamWaitValueEq, 0xffffffffu));
    HIP_CHECK(hipMemsetAsync(A_d, 0, h.size() * sizeof(int), stream));
    CHECK(hipGetLastError() == hipSuccess);
    const hipError_t e = hipStreamSynchronize(stream);
    INFO(hipGetErrorName(e));
    CHECK((e == hipErrorLaunchTimeOut || e == hipErrorLaunchFailure));
    CHECK(hipGetLastError() == e);
    HIP_CHECK(hipStreamSynchronize(stream)); // reported once
    HIP_CHECK(hipStreamDestroy(stream));
    HIP_CHECK(hipHostFree(flag));
    HIP_CHECK(hipDeviceReset()); // frees A_d and replaces the guilty context
    HIP_CHECK(hipMalloc(&A_d, h.size() * sizeof(int)));
    HIP_CHECK(hipMemcpy(A_d, h.data(), h.size() * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(back.data(), A_d, h.size() * sizeof(int), hipMemcpyDeviceToHost));
    CHECK(back == h);
    HIP_CHECK(hipFree(A_d));
}

TEST_CASE("Unit_hipGetLastError_ReturnedAndCleared_PerThread", "[hip_style]") {
    getDeviceCount();
    CHECK(hipGetLastError() == hipSuccess);
    HIP_CHECK_ERROR(hipMalloc(static_cast<void **>(nullptr), 16), hipErrorInvalidValue);
    CHECK(hipPeekAtLastError() == hipErrorInvalidValue);
    CHECK(hipPeekAtLastError() == hipErrorInvalidValue); // peeking does not clear
    hipError_t other_thread = hipErrorUnknown;
    std::thread([&] { other_thread = hipGetLastError(); }).join();
    CHECK(other_thread == hipSuccess); // the last error is per thread
    void *p = nullptr;
    HIP_CHECK(hipMalloc(&p, 16)); // a success does not overwrite it
    CHECK(hipGetLastError() == hipErrorInvalidValue);
    CHECK(hipGetLastError() == hipSuccess);
    HIP_CHECK(hipFree(p));
    // Compiled as plain C++, a kernel is a host function no fat binary
    // registered: refused as ROCm refuses an unknown function.
    int *A_d = nullptr;
    HIP_CHECK(hipMalloc(&A_d, 64));
    hipLaunchKernelGGL(VectorSet, dim3(1), dim3(16), 0, 0, A_d, 5, size_t(16));
    CHECK(hipGetLastError() == hipErrorInvalidDeviceFunction);
    CHECK(hipLaunchKernel(reinterpret_cast<const void *>(&VectorSet), dim3(1), dim3(1), nullptr, 0,
                          nullptr) == hipErrorInvalidDeviceFunction);
    CHECK(hipGetLastError() == hipErrorInvalidDeviceFunction);
    HIP_CHECK(hipFree(A_d));
    CHECK(std::string(hipGetErrorName(hipErrorNotReady)) == "hipErrorNotReady");
    CHECK(hipErrorNotReady == 600);
    CHECK(hipErrorNotSupported == 801);
}

TEST_CASE("Unit_NoGpu_EveryCallAnswersNoDevice", "[hip_style_nodevice]") {
    int n = -1;
    HIP_CHECK_ERROR(hipGetDeviceCount(&n), hipErrorNoDevice);
    CHECK(n == 0);
    void *p = nullptr;
    HIP_CHECK_ERROR(hipMalloc(&p, 16), hipErrorNoDevice);
    HIP_CHECK_ERROR(hipHostMalloc(&p, 16, 0), hipErrorNoDevice);
    hipStream_t s;
    HIP_CHECK_ERROR(hipStreamCreate(&s), hipErrorNoDevice);
    hipEvent_t ev;
    HIP_CHECK_ERROR(hipEventCreate(&ev), hipErrorNoDevice);
    HIP_CHECK_ERROR(hipLaunchHostFunc(nullptr, nullptr, nullptr), hipErrorNoDevice);
    int can = 0;
    HIP_CHECK_ERROR(hipDeviceCanAccessPeer(&can, 0, 1), hipErrorNoDevice);
    CHECK(hipGetLastError() == hipErrorNoDevice);
    CHECK(hipGetLastError() == hipSuccess);
}

// What hip-tests' helper headers need from the HIP headers: element traits
// over vector types and array formats, channel descriptors, extents and
// pitched memory, stream creation with priority; and the calls this library
// does not offer fail honestly.
namespace {
template <class T, size_t N, hipArray_Format F> struct TypeInfo {
    using type = T;
    static constexpr size_t size = N;
    static constexpr hipArray_Format format = F;
};
template <class T> struct VecInfo;
template <> struct VecInfo<int2> : TypeInfo<int, 2, HIP_AD_FORMAT_SIGNED_INT32> {};
template <> struct VecInfo<float4> : TypeInfo<float, 4, HIP_AD_FORMAT_FLOAT> {};
template <> struct VecInfo<uchar4> : TypeInfo<unsigned char, 4, HIP_AD_FORMAT_UNSIGNED_INT8> {};
template <class T> constexpr int rank_of() {
    return int(sizeof(T) / sizeof(decltype(T::x)));
}
} // namespace

TEST_CASE("Unit_HipTestInfrastructureTypes", "[hip_style]") {
    getDeviceCount();
    STATIC_REQUIRE(rank_of<int2>() == 2);
    STATIC_REQUIRE(rank_of<float4>() == 4);
    STATIC_REQUIRE(rank_of<uchar3>() == 3);
    STATIC_REQUIRE(VecInfo<uchar4>::format == HIP_AD_FORMAT_UNSIGNED_INT8);
    STATIC_REQUIRE(sizeof(dim3) == 12);
    const hipChannelFormatDesc f4 = hipCreateChannelDesc<float4>();
    CHECK((f4.x == 32 && f4.y == 32 && f4.z == 32 && f4.w == 32));
    CHECK(f4.f == hipChannelFormatKindFloat);
    const hipChannelFormatDesc u1 = hipCreateChannelDesc<unsigned char>();
    CHECK((u1.x == 8 && u1.y == 0 && u1.f == hipChannelFormatKindUnsigned));
    const hipExtent e = make_hipExtent(100 * sizeof(float), 7, 3);
    hipPitchedPtr pp{};
    HIP_CHECK(hipMalloc3D(&pp, e));
    CHECK(pp.pitch >= e.width);
    CHECK(pp.pitch % 256 == 0);
    hipDeviceptr_t base = nullptr;
    size_t size = 0;
    HIP_CHECK(hipMemGetAddressRange(&base, &size, pp.ptr));
    CHECK(size == pp.pitch * e.height * e.depth);
    HIP_CHECK(hipFree(pp.ptr));
    hipStream_t s;
    HIP_CHECK(hipStreamCreateWithPriority(&s, hipStreamDefault, 0));
    HIP_CHECK(hipStreamSynchronize(s));
    HIP_CHECK(hipStreamDestroy(s));
    hipEvent_t ev;
    HIP_CHECK(hipEventCreate(&ev)); // the resource guards' events are real
    HIP_CHECK(hipEventDestroy(ev));
    HIP_CHECK_ERROR(hipStreamAddCallback(nullptr, nullptr, nullptr, 0), hipErrorInvalidValue);
    void *managed = nullptr;
    HIP_CHECK_ERROR(hipMallocManaged(&managed, 64), hipErrorNotSupported);
    hipArray_t arr;
    HIP_CHECK_ERROR(hipMalloc3DArray(&arr, &f4, make_hipExtent(4, 4, 1), 0), hipErrorNotSupported);
    int managed_attr = -1, image = -1;
    HIP_CHECK(hipDeviceGetAttribute(&managed_attr, hipDeviceAttributeManagedMemory, 0));
    HIP_CHECK(hipDeviceGetAttribute(&image, hipDeviceAttributeImageSupport, 0));
    CHECK(managed_attr == 0); // so hip-tests' CHECK_MANAGED_MEMORY_SUPPORT skips
    CHECK(image == 0);
    CHECK(hipGetLastError() == hipErrorNotSupported);
}
