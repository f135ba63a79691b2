// CONTRACT.md §3 rows that need a hung engine: a job that never ends is
// reported as hipErrorLaunchTimeOut (-ETIME), the kernel then marks the
// context guilty and every later job of that device is hipErrorLaunchFailure
// (-ECANCELED) until hipDeviceReset replaces the context. The hang comes from
// peerRawSdmaSubmit with a packet of an opcode no SDMA generation defines,
// which the simulator's engine stops at (its job timeout is 200 ms).
#include "sim_support.hpp"

#include "sdma/packets.hpp"

#include <amdgpu_drm.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

using namespace simtest;

namespace {
constexpr uint32_t kUndefinedOpcode = 0xff; // op field [7:0], unused on v4-v7

std::string last_call() {
    const char *call = nullptr;
    (void)peerLastKernelErrno(&call);
    return call ? call : "";
}

uint64_t reset_flags(int dev) {
    uint64_t flags = ~0ull;
    HIP_CHECK(peerGetContextResetState(dev, &flags));
    return flags;
}
} // namespace

TEST_CASE("peerRawSdmaSubmit: argument checks, and a NOP runs", "[spec][kernel][raw]") {
    const uint32_t nop[] = {0};
    peerRawAccessResult r;
    std::memset(&r, 0x5a, sizeof r);
    CHECK(peerRawSdmaSubmit(-1, nop, 1, &r) == hipErrorInvalidDevice);
    CHECK(r.status == hipErrorInvalidDevice);
    CHECK(peerRawSdmaSubmit(device_count(), nop, 1, nullptr) == hipErrorInvalidDevice);
    CHECK(peerRawSdmaSubmit(0, nullptr, 1, &r) == hipErrorInvalidValue);
    CHECK(peerRawSdmaSubmit(0, nop, 0, &r) == hipErrorInvalidValue);
    std::vector<uint32_t> big(PEER_RAW_SDMA_MAX_DWORDS + 1, 0);
    CHECK(peerRawSdmaSubmit(0, big.data(), big.size(), &r) == hipErrorInvalidValue);
    big.resize(PEER_RAW_SDMA_MAX_DWORDS);
    CHECK(peerRawSdmaSubmit(0, big.data(), big.size(), &r) == hipSuccess);
    CHECK(peerRawSdmaSubmit(0, nop, 1, &r) == hipSuccess);
    CHECK(r.status == hipSuccess);
    CHECK(r.vm_fault == 0);
    CHECK(r.kernel_errno == 0);
    CHECK(std::string(r.kernel_call).empty());
}

TEST_CASE("§3: job timeout -> hipErrorLaunchTimeOut; guilty context -> hipErrorLaunchFailure "
          "on every later job of the device; hipDeviceReset gives a new context",
          "[spec][kernel][timeout]") {
    const int n = device_count();
    const int dev = 0;
    HIP_CHECK(hipSetDevice(dev));
    void *src = nullptr, *dst = nullptr;
    HIP_CHECK(hipMalloc(&src, 4096));
    HIP_CHECK(hipMalloc(&dst, 4096));
    const auto bytes = pattern(4096, 17);
    HIP_CHECK(hipMemcpyHtoD(src, const_cast<uint8_t *>(bytes.data()), 4096));
    CHECK((reset_flags(dev) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) == 0);

    // The hang: -ETIME on the fence (amdgpu_job_timedout), errno and ioctl kept.
    peerClearLastKernelError();
    const uint32_t bad[] = {kUndefinedOpcode};
    peerRawAccessResult r{};
    CHECK(peerRawSdmaSubmit(dev, bad, 1, &r) == hipErrorLaunchTimeOut);
    CHECK(r.status == hipErrorLaunchTimeOut);
    CHECK(r.kernel_errno == ETIME);
    CHECK(std::string(r.kernel_call).rfind("AMDGPU_WAIT_CS", 0) == 0);
    CHECK(peerLastKernelErrno(nullptr) == ETIME);
    CHECK(last_call().rfind("AMDGPU_WAIT_CS", 0) == 0);
    CHECK((reset_flags(dev) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) != 0);

    // Sticky: every job of this device now meets -ECANCELED at AMDGPU_CS
    // (amdgpu_cs_parser_init), whatever call submits it.
    peerClearLastKernelError();
    CHECK(hipMemcpyPeer(dst, dev, src, dev, 4096) == hipErrorLaunchFailure);
    CHECK(peerLastKernelErrno(nullptr) == ECANCELED);
    CHECK(last_call() == "AMDGPU_CS");
    std::vector<uint8_t> back(4096, 0);
    CHECK(hipMemcpyDtoH(back.data(), src, 4096) == hipErrorLaunchFailure);
    CHECK(peerRawSdmaRead(dev, src, back.data(), 64, &r) == hipErrorLaunchFailure);
    CHECK(r.kernel_errno == ECANCELED);
    CHECK(std::string(r.kernel_call) == "AMDGPU_CS");
    const uint32_t nop[] = {0};
    CHECK(peerRawSdmaSubmit(dev, nop, 1, &r) == hipErrorLaunchFailure);
    CHECK((reset_flags(dev) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) != 0);

    // Guilt is per context: another device's copies are unaffected, and a
    // peer copy fails exactly when it needs the guilty device's engine.
    if (n > 1) {
        DeviceBuffer a(1, 4096, 5), b(1, 4096, 0);
        HIP_CHECK(hipMemcpyPeer(b.ptr, 1, a.ptr, 1, 4096));
        CHECK(first_diff(b.read(0, 4096), pattern(4096, 5)) == -1);
        // Staged: device 0's engine copies the source into the bounce buffer.
        peerClearLastKernelError();
        CHECK(hipMemcpyPeer(b.ptr, 1, src, dev, 4096) == hipErrorLaunchFailure);
        CHECK(peerLastKernelErrno(nullptr) == ECANCELED);
        CHECK(first_diff(b.read(0, 4096), pattern(4096, 5)) == -1); // untouched
        // Direct with device 1 holding the mapping: device 1's engine pulls.
        if (expected_access().at(1).at(0) == 1) {
            HIP_CHECK(hipSetDevice(1));
            HIP_CHECK(hipDeviceEnablePeerAccess(dev, 0));
            HIP_CHECK(hipMemcpyPeer(b.ptr, 1, src, dev, 4096));
            CHECK(peerLastCopyPath() == peerCopyPathDirect);
            CHECK(peerLastCopyEngineDevice() == 1);
            CHECK(first_diff(b.read(0, 4096), bytes) == -1);
            HIP_CHECK(hipDeviceDisablePeerAccess(dev));
        }
    }

    // hipDeviceReset on the device: its allocations go, the context is new
    // and innocent, and copies work again.
    HIP_CHECK(hipSetDevice(dev));
    HIP_CHECK(hipDeviceReset());
    CHECK(reset_flags(dev) == 0);
    CHECK(hipMemGetAddressRange(nullptr, nullptr, src) == hipErrorInvalidDevicePointer);
    HIP_CHECK(peerRawSdmaSubmit(dev, nop, 1, &r));
    DeviceBuffer c(dev, 4096, 23), d(dev, 4096, 0);
    HIP_CHECK(hipMemcpyPeer(d.ptr, dev, c.ptr, dev, 4096));
    CHECK(first_diff(d.read(0, 4096), pattern(4096, 23)) == -1);
}

TEST_CASE("peerRawSdmaSubmit: a packet writing to an unmapped VA is a VM fault "
          "(hipErrorIllegalAddress, fault page reported), and the context stays usable",
          "[spec][kernel][raw]") {
    const int dev = 0;
    HIP_CHECK(hipSetDevice(dev));
    peerDeviceInfo info{};
    HIP_CHECK(peerGetDeviceInfo(dev, &info));
    const auto gen = sdma::generation_for_ip(info.sdma_major);
    REQUIRE(gen.has_value());
    // A VA that was mapped and no longer is: hipFree unmaps it.
    void *p = nullptr;
    HIP_CHECK(hipMalloc(&p, 8192));
    HIP_CHECK(hipFree(p));
    const uint64_t va = reinterpret_cast<uintptr_t>(p) + 4096 + 0x40;
    std::vector<uint32_t> ib;
    REQUIRE(sdma::fence(ib, *gen, va, 0x1234) == sdma::Error::none);
    peerRawAccessResult r{};
    CHECK(peerRawSdmaSubmit(dev, ib.data(), ib.size(), &r) == hipErrorIllegalAddress);
    CHECK(r.status == hipErrorIllegalAddress);
    CHECK(r.vm_fault == 1);
    CHECK(r.fault_address == (va & ~uint64_t(4095)));
    CHECK(r.kernel_errno == 0); // the job completed; only the fault is reported
    // A fault is not a hang: the context is not guilty and the next job runs.
    CHECK((reset_flags(dev) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) == 0);
    const uint32_t nop[] = {0};
    HIP_CHECK(peerRawSdmaSubmit(dev, nop, 1, &r));
}
