// The peer API on the KFD path (PEER_HARNESS_PATH=kfd, CONTRACT.md §7), under
// the simulator: the path is the one asked for; hipMalloc, Enable, Disable and
// hipMemcpyPeer answer as on the DRM path for every ordered pair of the
// expected access matrix (PEER_EXPECT_ACCESS, written from the machine file);
// the copies are byte-exact on the direct and the staged path; after Disable
// an engine access from the former accessor faults, and where the kernel then
// evicts the process's queues on that device (PEER_EXPECT_VM_FAULT_EVICTS)
// every later job there fails with hipErrorIllegalAddress while the other
// devices work on; the calls the KFD path does not offer answer
// hipErrorNotSupported, and the device queries say so.
#include "sim_support.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace simtest;

namespace {

struct Buf {
    void *p = nullptr;
    size_t n = 0;
};

Buf alloc_on(int dev, size_t n, uint32_t seed) {
    HIP_CHECK(hipSetDevice(dev));
    Buf b;
    b.n = n;
    HIP_CHECK(hipMalloc(&b.p, n));
    const auto bytes = pattern(n, seed);
    HIP_CHECK(hipMemcpy(b.p, bytes.data(), n, hipMemcpyHostToDevice));
    return b;
}

std::vector<uint8_t> read_back(const Buf &b) {
    std::vector<uint8_t> out(b.n);
    HIP_CHECK(hipMemcpy(out.data(), b.p, b.n, hipMemcpyDeviceToHost));
    return out;
}

} // namespace

TEST_CASE("the library drives the kernel path it was asked for", "[kfd_path]") {
    const char *want = std::getenv("PEER_HARNESS_PATH");
    REQUIRE(want != nullptr);
    const char *got = peerKernelPath();
    REQUIRE(got != nullptr);
    CHECK(std::string(got) == want);
}

TEST_CASE("every ordered pair: Enable as CanAccessPeer says, direct copy byte-exact, Disable, "
          "staged copy byte-exact",
          "[kfd_path]") {
    const auto access = expected_access();
    const int n = device_count();
    REQUIRE(int(access.size()) == n);
    const size_t bytes = 2 * 1024 * 1024 + 77;
    for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            INFO("accessor " << a << " owner " << b);
            Buf src = alloc_on(b, bytes, uint32_t(a * 8 + b)); // owned by b
            Buf dst = alloc_on(a, bytes, 0xdead);              // owned by a
            int can = -1;
            HIP_CHECK(hipDeviceCanAccessPeer(&can, a, b));
            CHECK(can == access[size_t(a)][size_t(b)]);
            HIP_CHECK(hipSetDevice(a));
            const hipError_t en = hipDeviceEnablePeerAccess(b, 0);
            if (!can) {
                CHECK(en == hipErrorInvalidDevice);
            } else {
                INFO(peerLastKernelError());
                REQUIRE(en == hipSuccess);
                // a pulls b's memory: one job on a's engine.
                HIP_CHECK(hipMemcpyPeer(dst.p, a, src.p, b, bytes));
                CHECK(peerLastCopyPath() == peerCopyPathDirect);
                CHECK(peerLastCopyEngineDevice() == a);
                CHECK(first_diff(read_back(dst), pattern(bytes, uint32_t(a * 8 + b))) == -1);
                // An engine access from a reaches b's memory now (after
                // Disable it faults: the last test case, since the fault
                // ends a's queues for the process).
                std::vector<uint8_t> word(64);
                peerRawAccessResult r{};
                CHECK(peerRawSdmaRead(a, src.p, word.data(), word.size(), &r) == hipSuccess);
                CHECK(r.vm_fault == 0);
                HIP_CHECK(hipDeviceDisablePeerAccess(b));
            }
            // Without a mapping: staged through host memory both nodes map.
            HIP_CHECK(hipMemcpy(dst.p, pattern(bytes, 0x77).data(), bytes, hipMemcpyHostToDevice));
            HIP_CHECK(hipMemcpyPeer(dst.p, a, src.p, b, bytes));
            CHECK(peerLastCopyPath() == peerCopyPathStaged);
            CHECK(first_diff(read_back(dst), pattern(bytes, uint32_t(a * 8 + b))) == -1);
            HIP_CHECK(hipFree(src.p));
            HIP_CHECK(hipFree(dst.p));
        }
    }
}

TEST_CASE("a peer's later hipMalloc is mapped for a device that enabled access", "[kfd_path]") {
    const auto access = expected_access();
    for (const Pair &p : pairs_where(true)) {
        INFO("accessor " << p.a << " owner " << p.b);
        HIP_CHECK(hipSetDevice(p.a));
        HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
        Buf src = alloc_on(p.b, 4096, 5); // after Enable
        Buf dst = alloc_on(p.a, 4096, 6);
        HIP_CHECK(hipMemcpyPeer(dst.p, p.a, src.p, p.b, 4096));
        CHECK(peerLastCopyPath() == peerCopyPathDirect);
        CHECK(first_diff(read_back(dst), pattern(4096, 5)) == -1);
        HIP_CHECK(hipSetDevice(p.a));
        HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
        HIP_CHECK(hipFree(src.p));
        HIP_CHECK(hipFree(dst.p));
        break; // one capable pair is enough here; the pair loop above covers all
    }
}

// ROCr allocates device memory with host access unless the VRAM heap is
// FRAME_BUFFER_PRIVATE (a small BAR), and libhsakmt then maps it for the CPU
// at the same address; the harness does the same (CONTRACT.md §7). So on a
// large-BAR device the hipMalloc pointer is the CPU's too, and the runner's
// peerCpu* calls use it; elsewhere they go through the owner's engine.
TEST_CASE("hipMalloc memory is the CPU's at the same address where the whole VRAM is in the BAR",
          "[kfd_path]") {
    const std::vector<int> visible = expected_host_visible();
    const int n = device_count();
    REQUIRE(int(visible.size()) == n);
    bool any_small = false;
    constexpr size_t kBytes = (1 << 20) + 3;
    for (int d = 0; d < n; ++d) {
        INFO("device " << d << (visible[size_t(d)] ? "" : " (small BAR)"));
        Buf b = alloc_on(d, kBytes, 40 + uint32_t(d));
        const auto want = pattern(kBytes, 40 + uint32_t(d));
        std::vector<uint8_t> got(kBytes);
        if (visible[size_t(d)]) {
            auto *cpu = static_cast<uint8_t *>(b.p);
            CHECK(std::memcmp(cpu, want.data(), kBytes) == 0); // what the engine wrote
            std::memset(cpu + 5, 0x5a, 100);                   // what the engine reads
            auto back = read_back(b);
            CHECK(std::all_of(back.begin() + 5, back.begin() + 105,
                              [](uint8_t v) { return v == 0x5a; }));
            CHECK(back[4] == want[4]);
            CHECK(back[105] == want[105]);
        } else {
            any_small = true;
            HIP_CHECK(peerCpuRead(b.p, got.data(), kBytes)); // the engine's route
            CHECK(first_diff(got, want) == -1);
        }
        HIP_CHECK(hipFree(b.p));
    }
    condition_present("small_bar_device", any_small);
}

TEST_CASE("calls the KFD path does not offer", "[kfd_path]") {
    void *h = nullptr;
    CHECK(hipHostMalloc(&h, 4096, 0) == hipErrorNotSupported);
    std::vector<uint8_t> mem(8192);
    CHECK(hipHostRegister(mem.data(), mem.size(), 0) == hipErrorNotSupported);
}

TEST_CASE("hipMalloc beyond any device's memory is hipErrorOutOfMemory", "[kfd_path]") {
    // 1 TiB passes libhsakmt and the kernel's ALLOC refuses it (ENOMEM); 1 PiB
    // does not fit libhsakmt's aperture, which fails with its own errno.
    for (size_t bytes : {size_t(1) << 40, size_t(1) << 50}) {
        INFO("bytes " << bytes);
        HIP_CHECK(hipSetDevice(0));
        void *p = nullptr;
        CHECK(hipMalloc(&p, bytes) == hipErrorOutOfMemory);
        CHECK(p == nullptr);
    }
}

TEST_CASE("the device queries do not advertise what the KFD path refuses", "[kfd_path]") {
    // Code that asks first must be able to skip pinned memory and stream waits.
    int count = 0;
    HIP_CHECK(hipGetDeviceCount(&count));
    for (int d = 0; d < count; ++d) {
        INFO("device " << d);
        hipDeviceProp_t p{};
        HIP_CHECK(hipGetDeviceProperties(&p, d));
        CHECK(p.canMapHostMemory == 0);
        int v = -1;
        HIP_CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeCanUseStreamWaitValue, d));
        CHECK(v == 0);
        HIP_CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeHostRegisterSupported, d));
        CHECK(v == 0);
        HIP_CHECK(hipDeviceGetAttribute(&v, hipDeviceAttributeCanMapHostMemory, d));
        CHECK(v == 0);
    }
}

// A process of its own (ctest peer.kfd_eviction, "[evict]"): a fault ends the
// faulting device's queues for the rest of the process where the kernel
// evicts them (CONTRACT.md §7). Devices fault in index order; each one's
// checks use only devices that have not faulted yet.
TEST_CASE("after Disable the former accessor's access faults; where the kernel evicts, every "
          "later job of that device is hipErrorIllegalAddress, hipDeviceReset included, and the "
          "next device works on",
          "[evict]") {
    const char *e = std::getenv("PEER_EXPECT_VM_FAULT_EVICTS");
    const std::string evicts = e ? e : "";
    const int n = device_count();
    REQUIRE(int(evicts.size()) == n);
    const auto access = expected_access();
    for (int a = 0; a < n; ++a) {
        const bool evicted = evicts[size_t(a)] == '1';
        INFO("device " << a << (evicted ? " (the kernel evicts)" : " (no eviction)"));
        // A peer buffer a reached and no longer does, or (no capable peer) a
        // buffer a freed.
        int owner = -1;
        for (int b = a + 1; b < n && owner < 0; ++b)
            if (access[size_t(a)][size_t(b)]) owner = b;
        Buf gone = alloc_on(owner >= 0 ? owner : a, 4096, 7);
        if (owner >= 0) {
            HIP_CHECK(hipSetDevice(a));
            HIP_CHECK(hipDeviceEnablePeerAccess(owner, 0));
            HIP_CHECK(hipDeviceDisablePeerAccess(owner));
        } else {
            HIP_CHECK(hipFree(gone.p));
        }
        std::vector<uint8_t> word(64);
        peerRawAccessResult r{};
        CHECK(peerRawSdmaRead(a, gone.p, word.data(), word.size(), &r) == hipErrorIllegalAddress);
        CHECK(r.vm_fault == 1);
        HIP_CHECK(hipSetDevice(a));
        void *p = nullptr;
        HIP_CHECK(hipMalloc(&p, 4096)); // an ioctl, not a queue: still answered
        const hipError_t copy = hipMemcpy(p, pattern(4096, 3).data(), 4096, hipMemcpyHostToDevice);
        INFO(peerLastKernelError());
        CHECK(copy == (evicted ? hipErrorIllegalAddress : hipSuccess));
        CHECK(hipMemset(p, 0, 4096) == (evicted ? hipErrorIllegalAddress : hipSuccess));
        // A reset frees p and cannot bring the queues back.
        CHECK(hipDeviceReset() == (evicted ? hipErrorIllegalAddress : hipSuccess));
        if (a + 1 < n) { // not faulted yet
            Buf next = alloc_on(a + 1, 4096, 9);
            CHECK(first_diff(read_back(next), pattern(4096, 9)) == -1);
        }
    }
}
