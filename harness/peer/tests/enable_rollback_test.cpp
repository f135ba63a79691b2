// CONTRACT.md §2 Enable row 5, failure half: a kernel failure while
// mapping the peer's allocations leaves no partial state. The failure is real:
// the test maps a BO of its own at the address of one peer allocation in the
// current device's VM (libdrm hands this process the same device, hence the
// same VM, for the same render node), so the API's GEM_VA MAP of that
// allocation overlaps and the kernel answers -EINVAL (amdgpu_vm_bo_map).
#include "kmd/bo.hpp"
#include "kmd/device.hpp"
#include "sim_support.hpp"

#include <algorithm>
#include <cerrno>
#include <memory>

using namespace simtest;

TEST_CASE("Enable row 5: a kernel failure while mapping undoes this call's mappings",
          "[spec][enable][rollback]") {
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    const Pair p = pairs.front();
    CAPTURE(p.a, p.b);
    DeviceBuffer b0(p.b, 4096, 1), b1(p.b, 4096, 2), b2(p.b, 4096, 3);
    std::vector<void *> ptrs{b0.ptr, b1.ptr, b2.ptr};
    std::sort(ptrs.begin(), ptrs.end());

    peerDeviceInfo info{};
    HIP_CHECK(peerGetDeviceInfo(p.a, &info));
    std::unique_ptr<kmd::Device> dev;
    REQUIRE(kmd::Device::open(info.render_minor, dev).ok());
    std::unique_ptr<kmd::Bo> blocker;
    REQUIRE(kmd::Bo::alloc(*dev, 4096, kmd::Domain::gtt, 0, blocker).ok());
    std::unique_ptr<kmd::VaMapping> block;
    REQUIRE(kmd::VaMapping::map(*blocker, reinterpret_cast<uintptr_t>(ptrs[1]), 4096,
                                kmd::VaMapping::kReadWrite, block)
                .ok());

    HIP_CHECK(hipSetDevice(p.a));
    peerClearLastKernelError();
    CHECK(hipDeviceEnablePeerAccess(p.b, 0) == hipErrorUnknown);
    const char *call = nullptr;
    CHECK(peerLastKernelErrno(&call) == EINVAL);
    REQUIRE(call != nullptr);
    CHECK(std::string(call) == "AMDGPU_GEM_VA(MAP)");
    int en = 1;
    HIP_CHECK(peerIsPeerAccessEnabled(p.a, p.b, &en));
    CHECK(en == 0);
    // The allocation mapped before the failure was unmapped again.
    std::vector<uint8_t> got(4096);
    peerRawAccessResult r{};
    CHECK(peerRawSdmaRead(p.a, ptrs[0], got.data(), got.size(), &r) == hipErrorIllegalAddress);
    CHECK(r.vm_fault == 1);
    CHECK(hipDeviceDisablePeerAccess(p.b) == hipErrorPeerAccessNotEnabled);

    // Without the obstacle, Enable works and maps all three.
    REQUIRE(block->unmap().ok());
    HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
    for (void *q : ptrs)
        HIP_CHECK(peerRawSdmaRead(p.a, q, got.data(), got.size(), &r));
    HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
}

TEST_CASE("§3: a VM fault during hipMemcpyPeer -> hipErrorIllegalAddress; the lost mapping's "
          "UNMAP error is reported by Disable, not hidden",
          "[spec][kernel][fault]") {
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    const Pair p = pairs.front();
    CAPTURE(p.a, p.b);
    DeviceBuffer src(p.b, 4096, 5), dst(p.a, 4096, 6);
    HIP_CHECK(hipSetDevice(p.a));
    HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
    HIP_CHECK(hipMemcpyPeer(dst.ptr, p.a, src.ptr, p.b, 4096));
    CHECK(peerLastCopyPath() == peerCopyPathDirect);

    // Drop the peer mapping from device a's VM behind the API's back, as a
    // kernel bug that loses PTEs would (GEM_VA CLEAR on the same VM: libdrm
    // gives this process one device handle per render node).
    peerDeviceInfo info{};
    HIP_CHECK(peerGetDeviceInfo(p.a, &info));
    std::unique_ptr<kmd::Device> dev;
    REQUIRE(kmd::Device::open(info.render_minor, dev).ok());
    REQUIRE(kmd::va_clear(*dev, reinterpret_cast<uintptr_t>(src.ptr), 4096).ok());

    CHECK(hipMemcpyPeer(dst.ptr, p.a, src.ptr, p.b, 4096) == hipErrorIllegalAddress);
    peerRawAccessResult r{};
    std::vector<uint8_t> got(4096);
    CHECK(peerRawSdmaRead(p.a, src.ptr, got.data(), got.size(), &r) == hipErrorIllegalAddress);
    CHECK(r.fault_address == reinterpret_cast<uintptr_t>(src.ptr));

    // Disable still removes the state, and says what the kernel said.
    peerClearLastKernelError();
    CHECK(hipDeviceDisablePeerAccess(p.b) == hipErrorUnknown);
    const char *call = nullptr;
    CHECK(peerLastKernelErrno(&call) == ENOENT);
    REQUIRE(call != nullptr);
    CHECK(std::string(call) == "AMDGPU_GEM_VA(UNMAP)");
    int en = 1;
    HIP_CHECK(peerIsPeerAccessEnabled(p.a, p.b, &en));
    CHECK(en == 0);
    HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
    HIP_CHECK(hipMemcpyPeer(dst.ptr, p.a, src.ptr, p.b, 4096));
    CHECK(first_diff(dst.read(0, 4096), pattern(4096, 5)) == -1);
    HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
}
