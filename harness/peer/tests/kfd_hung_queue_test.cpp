// CONTRACT.md §7, job timeout on the KFD path: run under a fault scenario in
// which the user queue's engine never writes its read pointer back
// (fixtures/faults/kfd-rptr-not-written.yaml). The first job of a queue runs
// but the queue is judged hung (hipErrorLaunchTimeOut, within the kernel's
// SDMA timeout plus a margin); every later job of that device fails at once
// with hipErrorLaunchFailure; hipDeviceReset replaces the queue, whose first
// job is judged again (a timeout, not the sticky failure).
#include <hip/hip_runtime.h>
#include <peer/peer_debug.h>

#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace {

double seconds_of(hipError_t &e, void *dst, const void *src, size_t n) {
    const auto t0 = std::chrono::steady_clock::now();
    e = hipMemcpy(dst, src, n, hipMemcpyHostToDevice);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST_CASE("KFD path: a hung user queue is sticky until hipDeviceReset", "[peer][kfd]") {
    REQUIRE(peerKernelPath() != nullptr);
    REQUIRE(std::strcmp(peerKernelPath(), "kfd") == 0);
    REQUIRE(hipSetDevice(0) == hipSuccess);
    void *d = nullptr;
    REQUIRE(hipMalloc(&d, 4096) == hipSuccess);
    std::vector<unsigned char> host(4096, 0x3c);

    hipError_t e = hipSuccess;
    const double first = seconds_of(e, d, host.data(), host.size());
    CHECK(e == hipErrorLaunchTimeOut);
    CHECK(first >= 1.5); // the queue's timeout: at least 2 s (kfd::SdmaQueue)
    CHECK(first < 30.0);
    const char *call = nullptr;
    CHECK(peerLastKernelErrno(&call) == ETIME);
    CHECK(std::string(call ? call : "") == "kfd SDMA rptr(not written back)");

    const double second = seconds_of(e, d, host.data(), host.size());
    CHECK(e == hipErrorLaunchFailure);
    CHECK(second < 1.0); // no second wait

    REQUIRE(hipFree(d) == hipSuccess);
    REQUIRE(hipDeviceReset() == hipSuccess);
    REQUIRE(hipMalloc(&d, 4096) == hipSuccess);
    seconds_of(e, d, host.data(), host.size());
    CHECK(e == hipErrorLaunchTimeOut); // a new queue, judged again
    (void)hipFree(d);
}
