// Every row of CONTRACT.md §2, each a test case, run under amdgpu-sim on
// each machine file (CTest passes the expected access matrix and the
// conditions the machine lacks). Data checks go through the API and raw SDMA.
#include "sim_support.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

using namespace simtest;

namespace {
struct ResetAll {
    // Leave every device clean for the next test case (Reset is per device).
    ~ResetAll() {
        int n = 0;
        if (hipGetDeviceCount(&n) != hipSuccess) return;
        for (int d = 0; d < n; ++d)
            if (hipSetDevice(d) == hipSuccess) (void)hipDeviceReset();
        (void)hipSetDevice(0);
    }
};
} // namespace

// ---- hipDeviceCanAccessPeer ------------------------------------------------

TEST_CASE("CanAccessPeer row 2: NULL output -> hipErrorInvalidValue", "[spec][canaccess]") {
    CHECK(hipDeviceCanAccessPeer(nullptr, 0, 0) == hipErrorInvalidValue);
    CHECK(hipDeviceCanAccessPeer(nullptr, -1, 99) == hipErrorInvalidValue); // before row 3
}

TEST_CASE("CanAccessPeer row 3: invalid ids -> hipErrorInvalidDevice, output untouched",
          "[spec][canaccess]") {
    const int n = device_count();
    const int bad[][2] = {{-1, 0}, {0, -1}, {n, 0}, {0, n}, {-1, -1}, {n, n}, {n + 5, n + 5}};
    for (auto &p : bad) {
        int out = 42;
        CAPTURE(p[0], p[1]);
        CHECK(hipDeviceCanAccessPeer(&out, p[0], p[1]) == hipErrorInvalidDevice);
        CHECK(out == 42);
    }
}

TEST_CASE("CanAccessPeer row 4: equal valid ids -> 0", "[spec][canaccess]") {
    for (int d = 0; d < device_count(); ++d) {
        int out = 42;
        CHECK(hipDeviceCanAccessPeer(&out, d, d) == hipSuccess);
        CHECK(out == 0);
    }
}

TEST_CASE("CanAccessPeer row 5: the answer matches the machine file, directionally",
          "[spec][canaccess]") {
    auto m = expected_access();
    const int n = device_count();
    REQUIRE(int(m.size()) == n);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            int out = 42;
            CAPTURE(a, b);
            CHECK(hipDeviceCanAccessPeer(&out, a, b) == hipSuccess);
            CHECK(out == m[size_t(a)][size_t(b)]);
        }
    // Asymmetric pairs exist only on some machines; where they do, one was checked above.
    bool asym = false;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b && m[size_t(a)][size_t(b)] != m[size_t(b)][size_t(a)]) asym = true;
    condition_present("asymmetric_pair", asym);
}

TEST_CASE("hipExtGetLinkTypeAndHopCount: ROCm's argument codes; capable pairs report PCIe or "
          "XGMI, one hop, the same in both directions",
          "[spec][linktype]") {
    const int n = device_count();
    uint32_t t = 0, h = 0;
    // CONTRACT.md rows 2-5, the codes ROCm's own tests expect.
    CHECK(hipExtGetLinkTypeAndHopCount(0, 0, &t, &h) == hipErrorInvalidValue);
    CHECK(hipExtGetLinkTypeAndHopCount(-1, 0, &t, &h) == hipErrorInvalidValue);
    CHECK(hipExtGetLinkTypeAndHopCount(0, -1, &t, &h) == hipErrorInvalidValue);
    CHECK(hipExtGetLinkTypeAndHopCount(-1, -2, &t, &h) == hipErrorInvalidValue);
    CHECK(hipExtGetLinkTypeAndHopCount(n, 0, &t, &h) == hipErrorInvalidDevice);
    CHECK(hipExtGetLinkTypeAndHopCount(0, n, &t, &h) == hipErrorInvalidDevice);
    CHECK(hipExtGetLinkTypeAndHopCount(n, n + 1, &t, &h) == hipErrorInvalidDevice);
    CHECK(hipExtGetLinkTypeAndHopCount(0, 0, nullptr, &h) == hipErrorInvalidValue);
    CHECK(hipExtGetLinkTypeAndHopCount(0, 0, &t, nullptr) == hipErrorInvalidValue);
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    for (auto p : pairs) {
        CAPTURE(p.a, p.b);
        uint32_t t2 = 99, h2 = 99;
        REQUIRE(hipExtGetLinkTypeAndHopCount(p.a, p.b, &t, &h) == hipSuccess);
        REQUIRE(hipExtGetLinkTypeAndHopCount(p.b, p.a, &t2, &h2) == hipSuccess);
        CHECK((t == HSA_AMD_LINK_INFO_TYPE_PCIE || t == HSA_AMD_LINK_INFO_TYPE_XGMI));
        CHECK(h == 1u);
        CHECK(t2 == t); // one answer per pair, even where KFD lists one direction only
        CHECK(h2 == h);
        peerDeviceInfo ia{}, ib{};
        REQUIRE(peerGetDeviceInfo(p.a, &ia) == hipSuccess);
        REQUIRE(peerGetDeviceInfo(p.b, &ib) == hipSuccess);
        // Same non-zero hive <=> XGMI.
        CHECK((t == HSA_AMD_LINK_INFO_TYPE_XGMI) == (ia.hive_id != 0 && ia.hive_id == ib.hive_id));
    }
}

// ---- hipDeviceEnablePeerAccess --------------------------------------------

TEST_CASE("Enable row 2: flags != 0 -> hipErrorInvalidValue, checked before the peer id",
          "[spec][enable]") {
    ResetAll cleanup;
    HIP_CHECK(hipSetDevice(0));
    CHECK(hipDeviceEnablePeerAccess(0, 1) == hipErrorInvalidValue);
    CHECK(hipDeviceEnablePeerAccess(-1, 0x80000000u) == hipErrorInvalidValue);
    auto pairs = pairs_where(true);
    if (condition_present("capable_pair", !pairs.empty())) {
        HIP_CHECK(hipSetDevice(pairs[0].a));
        CHECK(hipDeviceEnablePeerAccess(pairs[0].b, 2) == hipErrorInvalidValue);
        int en = -1;
        REQUIRE(peerIsPeerAccessEnabled(pairs[0].a, pairs[0].b, &en) == hipSuccess);
        CHECK(en == 0); // nothing changed
    }
}

TEST_CASE("Enable row 3: invalid peer, self, incapable pair -> hipErrorInvalidDevice",
          "[spec][enable]") {
    ResetAll cleanup;
    const int n = device_count();
    HIP_CHECK(hipSetDevice(0));
    CHECK(hipDeviceEnablePeerAccess(-1, 0) == hipErrorInvalidDevice);
    CHECK(hipDeviceEnablePeerAccess(n, 0) == hipErrorInvalidDevice);
    for (int d = 0; d < n; ++d) {
        HIP_CHECK(hipSetDevice(d));
        CHECK(hipDeviceEnablePeerAccess(d, 0) == hipErrorInvalidDevice);
    }
    auto bad = pairs_where(false);
    if (!condition_present("incapable_pair", !bad.empty())) return;
    for (auto p : bad) {
        CAPTURE(p.a, p.b);
        HIP_CHECK(hipSetDevice(p.a));
        CHECK(hipDeviceEnablePeerAccess(p.b, 0) == hipErrorInvalidDevice);
    }
}

TEST_CASE("Enable row 4: twice -> hipErrorPeerAccessAlreadyEnabled, nothing changes",
          "[spec][enable]") {
    ResetAll cleanup;
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    for (auto p : pairs) {
        CAPTURE(p.a, p.b);
        HIP_CHECK(hipSetDevice(p.a));
        HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
        CHECK(hipDeviceEnablePeerAccess(p.b, 0) == hipErrorPeerAccessAlreadyEnabled);
        int en = 0;
        REQUIRE(peerIsPeerAccessEnabled(p.a, p.b, &en) == hipSuccess);
        CHECK(en == 1);
        HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
    }
}

TEST_CASE("Enable row 5: existing and later peer allocations readable by raw SDMA; a third "
          "device still faults",
          "[spec][enable][visibility]") {
    ResetAll cleanup;
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    const int n = device_count();
    bool saw_third = false;
    std::vector<uint32_t> big_done; // link types that had the multi-packet size
    for (auto p : pairs) {
        CAPTURE(p.a, p.b);
        // 4 KiB on every pair; 4 MiB + 1 (several pages and packets) on the
        // first pair of each link type, which keeps 8-GPU machines quick.
        uint32_t type = 0, hops = 0;
        REQUIRE(hipExtGetLinkTypeAndHopCount(p.a, p.b, &type, &hops) == hipSuccess);
        std::vector<size_t> sizes{4096};
        if (std::find(big_done.begin(), big_done.end(), type) == big_done.end()) {
            big_done.push_back(type);
            sizes.push_back((4u << 20) + 1);
        }
        for (size_t size : sizes) {
            CAPTURE(size);
            DeviceBuffer before(p.b, size, 7);
            peerRawAccessResult r{};
            std::vector<uint8_t> got(size);
            // Not enabled yet: the access must fault.
            CHECK(peerRawSdmaRead(p.a, before.ptr, got.data(), size, &r) == hipErrorIllegalAddress);
            CHECK(r.vm_fault == 1);
            CHECK(r.fault_address == (reinterpret_cast<uintptr_t>(before.ptr) & ~uint64_t(4095)));

            HIP_CHECK(hipSetDevice(p.a));
            HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
            DeviceBuffer after(p.b, size, 9); // allocated on the peer after Enable
            HIP_CHECK(peerRawSdmaRead(p.a, before.ptr, got.data(), size, &r));
            CHECK(r.vm_fault == 0);
            CHECK(first_diff(got, pattern(size, 7)) == -1);
            HIP_CHECK(peerRawSdmaRead(p.a, after.ptr, got.data(), size, &r));
            CHECK(first_diff(got, pattern(size, 9)) == -1);
            // Write access too: C writes through the mapping, the owner sees it.
            auto w = pattern(size, 11);
            HIP_CHECK(peerRawSdmaWrite(p.a, after.ptr, w.data(), size, &r));
            CHECK(first_diff(after.read(0, size), w) == -1);
            // Only C gained access.
            for (int t = 0; t < n; ++t) {
                if (t == p.a || t == p.b) continue;
                int en = 0;
                REQUIRE(peerIsPeerAccessEnabled(t, p.b, &en) == hipSuccess);
                if (en) continue;
                saw_third = true;
                CAPTURE(t);
                // The first page is enough to show the fault.
                CHECK(peerRawSdmaRead(t, before.ptr, got.data(), 4096, &r) ==
                      hipErrorIllegalAddress);
                CHECK(r.vm_fault == 1);
            }
            HIP_CHECK(hipSetDevice(p.a));
            HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
        }
    }
    condition_present("third_device", saw_third);
}

// ---- hipDeviceDisablePeerAccess -------------------------------------------

TEST_CASE("Disable row 2: invalid peer -> hipErrorInvalidDevice", "[spec][disable]") {
    HIP_CHECK(hipSetDevice(0));
    CHECK(hipDeviceDisablePeerAccess(-1) == hipErrorInvalidDevice);
    CHECK(hipDeviceDisablePeerAccess(device_count()) == hipErrorInvalidDevice);
}

TEST_CASE("Disable row 3: not enabled, self, incapable -> hipErrorPeerAccessNotEnabled",
          "[spec][disable]") {
    ResetAll cleanup;
    const int n = device_count();
    for (int d = 0; d < n; ++d) {
        HIP_CHECK(hipSetDevice(d));
        CHECK(hipDeviceDisablePeerAccess(d) == hipErrorPeerAccessNotEnabled);
    }
    for (auto p : pairs_where(true)) {
        HIP_CHECK(hipSetDevice(p.a));
        CHECK(hipDeviceDisablePeerAccess(p.b) == hipErrorPeerAccessNotEnabled);
        // Enabled in the other direction only still counts as not enabled here.
        HIP_CHECK(hipSetDevice(p.b));
        const bool back = expected_access()[size_t(p.b)][size_t(p.a)] == 1;
        CHECK((hipDeviceEnablePeerAccess(p.a, 0) == hipSuccess) == back);
        if (back) {
            HIP_CHECK(hipSetDevice(p.a));
            CHECK(hipDeviceDisablePeerAccess(p.b) == hipErrorPeerAccessNotEnabled);
            HIP_CHECK(hipSetDevice(p.b));
            HIP_CHECK(hipDeviceDisablePeerAccess(p.a));
        }
    }
    auto bad = pairs_where(false);
    if (!condition_present("incapable_pair", !bad.empty())) return;
    for (auto p : bad) {
        HIP_CHECK(hipSetDevice(p.a));
        CHECK(hipDeviceDisablePeerAccess(p.b) == hipErrorPeerAccessNotEnabled);
    }
}

TEST_CASE("Disable row 4: mappings are removed; raw SDMA through them faults; Enable works "
          "again",
          "[spec][disable][visibility]") {
    ResetAll cleanup;
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    for (auto p : pairs) {
        CAPTURE(p.a, p.b);
        DeviceBuffer buf(p.b, 8192, 21);
        HIP_CHECK(hipSetDevice(p.a));
        HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
        std::vector<uint8_t> got(8192);
        peerRawAccessResult r{};
        HIP_CHECK(peerRawSdmaRead(p.a, buf.ptr, got.data(), got.size(), &r));
        HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
        std::fill(got.begin(), got.end(), 0);
        CHECK(peerRawSdmaRead(p.a, buf.ptr, got.data(), got.size(), &r) == hipErrorIllegalAddress);
        CHECK(r.vm_fault == 1);
        CHECK(first_diff(got, pattern(8192, 21)) != -1); // not the peer's bytes
        // Writes through the removed mapping fault too and change nothing.
        auto w = pattern(8192, 22);
        CHECK(peerRawSdmaWrite(p.a, buf.ptr, w.data(), w.size(), &r) == hipErrorIllegalAddress);
        CHECK(r.vm_fault == 1);
        CHECK(first_diff(buf.read(0, 8192), pattern(8192, 21)) == -1);
        // Nor is an allocation made on the peer after Disable mapped into C.
        DeviceBuffer later(p.b, 4096, 23);
        CHECK(peerRawSdmaRead(p.a, later.ptr, got.data(), 4096, &r) == hipErrorIllegalAddress);
        CHECK(r.vm_fault == 1);
        HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
        HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
    }
}

// ---- hipDeviceReset --------------------------------------------------------

TEST_CASE("Reset: frees C's allocations, unmaps C's peer mappings, clears C -> * state",
          "[spec][reset][visibility]") {
    ResetAll cleanup;
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    for (auto p : pairs) {
        CAPTURE(p.a, p.b);
        DeviceBuffer peer_buf(p.b, 4096, 31);
        HIP_CHECK(hipSetDevice(p.a));
        void *own = nullptr;
        HIP_CHECK(hipMalloc(&own, 4096));
        HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
        // The peer also enabled access to C, so C's allocation is mapped there.
        HIP_CHECK(hipSetDevice(p.b));
        const bool back = expected_access()[size_t(p.b)][size_t(p.a)] == 1;
        CHECK((hipDeviceEnablePeerAccess(p.a, 0) == hipSuccess) == back);
        HIP_CHECK(hipSetDevice(p.a));
        HIP_CHECK(hipDeviceReset());
        // C's allocation is gone (everywhere).
        CHECK(hipMemGetAddressRange(nullptr, nullptr, own) == hipErrorInvalidDevicePointer);
        std::vector<uint8_t> got(4096);
        peerRawAccessResult r{};
        if (back) {
            CHECK(peerRawSdmaRead(p.b, own, got.data(), got.size(), &r) == hipErrorIllegalAddress);
            HIP_CHECK(hipSetDevice(p.b));
            HIP_CHECK(hipDeviceDisablePeerAccess(p.a));
            HIP_CHECK(hipSetDevice(p.a));
        }
        // C's mapping of the peer is gone.
        CHECK(peerRawSdmaRead(p.a, peer_buf.ptr, got.data(), got.size(), &r) ==
              hipErrorIllegalAddress);
        CHECK(r.vm_fault == 1);
        // C -> peer is cleared: a later allocation on the peer is not mapped into C.
        DeviceBuffer later(p.b, 4096, 33);
        CHECK(peerRawSdmaRead(p.a, later.ptr, got.data(), 4096, &r) == hipErrorIllegalAddress);
        // The peer's own allocation survived.
        CHECK(first_diff(peer_buf.read(0, 4096), pattern(4096, 31)) == -1);
        // Enable succeeds again (not AlreadyEnabled).
        HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
        HIP_CHECK(peerRawSdmaRead(p.a, peer_buf.ptr, got.data(), got.size(), &r));
        CHECK(first_diff(got, pattern(4096, 31)) == -1);
        HIP_CHECK(hipDeviceDisablePeerAccess(p.b));
    }
}

TEST_CASE("Reset on the owner unmaps its allocations from peers that had them",
          "[spec][reset][visibility]") {
    ResetAll cleanup;
    auto pairs = pairs_where(true);
    if (!condition_present("capable_pair", !pairs.empty())) return;
    auto p = pairs.front();
    HIP_CHECK(hipSetDevice(p.b));
    void *x = nullptr;
    HIP_CHECK(hipMalloc(&x, 4096));
    HIP_CHECK(hipSetDevice(p.a));
    HIP_CHECK(hipDeviceEnablePeerAccess(p.b, 0));
    std::vector<uint8_t> got(4096);
    peerRawAccessResult r{};
    HIP_CHECK(peerRawSdmaRead(p.a, x, got.data(), got.size(), &r));
    HIP_CHECK(hipSetDevice(p.b));
    HIP_CHECK(hipDeviceReset());
    CHECK(peerRawSdmaRead(p.a, x, got.data(), got.size(), &r) == hipErrorIllegalAddress);
    // C -> peer stays enabled (Reset on the peer clears only peer -> *).
    int en = 0;
    REQUIRE(peerIsPeerAccessEnabled(p.a, p.b, &en) == hipSuccess);
    CHECK(en == 1);
}

// ---- hipMemGetAddressRange -------------------------------------------------

TEST_CASE("GetAddressRange row 1: base, interior and last byte; NULL outputs allowed",
          "[spec][addressrange]") {
    ResetAll cleanup;
    for (int d = 0; d < device_count(); ++d) {
        CAPTURE(d);
        DeviceBuffer b(d, 12345, 0);
        for (size_t off : {size_t(0), size_t(1), size_t(4096), size_t(12344)}) {
            hipDeviceptr_t base = nullptr;
            size_t size = 0;
            CHECK(hipMemGetAddressRange(&base, &size, b.at(off)) == hipSuccess);
            CHECK(base == b.ptr);
            CHECK(size == 12345u);
        }
        size_t size = 0;
        hipDeviceptr_t base = nullptr;
        CHECK(hipMemGetAddressRange(nullptr, &size, b.at(5)) == hipSuccess);
        CHECK(size == 12345u);
        CHECK(hipMemGetAddressRange(&base, nullptr, b.at(5)) == hipSuccess);
        CHECK(base == b.ptr);
        CHECK(hipMemGetAddressRange(nullptr, nullptr, b.at(5)) == hipSuccess);
    }
}

TEST_CASE("GetAddressRange row 2: NULL, never allocated, freed, one past the end, host -> "
          "hipErrorInvalidDevicePointer",
          "[spec][addressrange]") {
    hipDeviceptr_t base = reinterpret_cast<hipDeviceptr_t>(0x1234);
    size_t size = 77;
    CHECK(hipMemGetAddressRange(&base, &size, nullptr) == hipErrorInvalidDevicePointer);
    CHECK(hipMemGetAddressRange(&base, &size, reinterpret_cast<hipDeviceptr_t>(0x10)) ==
          hipErrorInvalidDevicePointer);
    int host = 0;
    CHECK(hipMemGetAddressRange(&base, &size, &host) == hipErrorInvalidDevicePointer);
    void *p = nullptr;
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipMalloc(&p, 100));
    CHECK(hipMemGetAddressRange(&base, &size, static_cast<char *>(p) + 100) ==
          hipErrorInvalidDevicePointer);
    HIP_CHECK(hipFree(p));
    CHECK(hipMemGetAddressRange(&base, &size, p) == hipErrorInvalidDevicePointer);
    CHECK(base == reinterpret_cast<hipDeviceptr_t>(0x1234)); // untouched on error
    CHECK(size == 77u);
}

// ---- hipMemcpyPeer argument rows ------------------------------------------

TEST_CASE("MemcpyPeer row 2: invalid ids -> hipErrorInvalidDevice (before the size-0 rule)",
          "[spec][memcpypeer]") {
    const int n = device_count();
    DeviceBuffer b(0, 64, 1);
    CHECK(hipMemcpyPeer(b.ptr, -1, b.ptr, 0, 0) == hipErrorInvalidDevice);
    CHECK(hipMemcpyPeer(b.ptr, 0, b.ptr, n, 16) == hipErrorInvalidDevice);
    CHECK(hipMemcpyPeer(nullptr, n, nullptr, 0, 16) == hipErrorInvalidDevice);
}

TEST_CASE("MemcpyPeer row 3: size 0 -> hipSuccess, nothing touched, even with NULL",
          "[spec][memcpypeer]") {
    CHECK(hipMemcpyPeer(nullptr, 0, nullptr, 0, 0) == hipSuccess);
    DeviceBuffer b(0, 64, 3);
    CHECK(hipMemcpyPeer(b.ptr, 0, b.at(1), 0, 0) == hipSuccess);
    CHECK(first_diff(b.read(0, 64), pattern(64, 3)) == -1);
}

TEST_CASE("MemcpyPeer row 4: NULL dst or src -> hipErrorInvalidValue", "[spec][memcpypeer]") {
    DeviceBuffer b(0, 64, 1);
    CHECK(hipMemcpyPeer(nullptr, 0, b.ptr, 0, 8) == hipErrorInvalidValue);
    CHECK(hipMemcpyPeer(b.ptr, 0, nullptr, 0, 8) == hipErrorInvalidValue);
}

TEST_CASE("MemcpyPeer row 5: ranges not inside one allocation of the given device -> "
          "hipErrorInvalidValue",
          "[spec][memcpypeer]") {
    const int n = device_count();
    DeviceBuffer a(0, 4096, 1);
    DeviceBuffer c(0, 4096, 2);
    CHECK(hipMemcpyPeer(a.ptr, 0, c.ptr, 0, 4097) == hipErrorInvalidValue);   // past the end
    CHECK(hipMemcpyPeer(a.at(1), 0, c.ptr, 0, 4096) == hipErrorInvalidValue); // dst past end
    CHECK(hipMemcpyPeer(a.ptr, 0, c.at(1), 0, 4096) == hipErrorInvalidValue); // src past end
    CHECK(hipMemcpyPeer(a.ptr, 0, c.at(4095), 0, 2) == hipErrorInvalidValue); // last byte + 1
    int host[16] = {};
    CHECK(hipMemcpyPeer(host, 0, c.ptr, 0, 16) == hipErrorInvalidValue);
    CHECK(hipMemcpyPeer(a.ptr, 0, host, 0, 16) == hipErrorInvalidValue);
    if (n > 1) {
        // Right pointers, wrong device ids.
        DeviceBuffer o(1, 4096, 3);
        CHECK(hipMemcpyPeer(a.ptr, 1, o.ptr, 1, 16) == hipErrorInvalidValue);
        CHECK(hipMemcpyPeer(a.ptr, 0, o.ptr, 0, 16) == hipErrorInvalidValue);
        CHECK(hipMemcpyPeer(o.ptr, 1, a.ptr, 0, 16) == hipSuccess);
    }
    CHECK(first_diff(a.read(0, 4096), pattern(4096, 1)) == -1); // untouched by the failures
}

TEST_CASE("MemcpyPeer row 6: overlapping ranges -> hipErrorInvalidValue", "[spec][memcpypeer]") {
    DeviceBuffer a(0, 8192, 5);
    CHECK(hipMemcpyPeer(a.at(100), 0, a.ptr, 0, 101) == hipErrorInvalidValue);
    CHECK(hipMemcpyPeer(a.ptr, 0, a.at(100), 0, 101) == hipErrorInvalidValue);
    CHECK(hipMemcpyPeer(a.ptr, 0, a.ptr, 0, 1) == hipErrorInvalidValue);
    CHECK(first_diff(a.read(0, 8192), pattern(8192, 5)) == -1);
    // Adjacent is not overlapping.
    CHECK(hipMemcpyPeer(a.at(100), 0, a.ptr, 0, 100) == hipSuccess);
    auto want = pattern(8192, 5);
    std::memcpy(want.data() + 100, pattern(8192, 5).data(), 100);
    CHECK(first_diff(a.read(0, 8192), want) == -1);
}

TEST_CASE("MemcpyPeer row 7: the path follows the mappings, every path byte-exact",
          "[spec][memcpypeer][paths]") {
    ResetAll cleanup;
    const int n = device_count();
    const auto m = expected_access();
    REQUIRE(int(m.size()) == n);
    const auto want = pattern(4096, 41);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            CAPTURE(a, b);
            DeviceBuffer src(a, 4096, 41), dst(b, 4096, 0);
            // dst is cleared before each copy, so each path's own bytes are checked.
            auto copy_and_check = [&](peerCopyPath path, int engine) {
                HIP_CHECK(hipMemset(dst.ptr, 0, 4096));
                HIP_CHECK(hipMemcpyPeer(dst.ptr, b, src.ptr, a, 4096));
                CHECK(peerLastCopyPath() == path);
                if (path == peerCopyPathDirect) CHECK(peerLastCopyEngineDevice() == engine);
                CHECK(first_diff(dst.read(0, 4096), want) == -1);
            };
            if (a == b) {
                copy_and_check(peerCopyPathSameDevice, a);
                continue;
            }
            copy_and_check(peerCopyPathStaged, -1); // nothing enabled
            // b maps a's memory: b (the device holding the mapping) pulls.
            HIP_CHECK(hipSetDevice(b));
            const bool b_maps_a = m[size_t(b)][size_t(a)] == 1;
            CHECK((hipDeviceEnablePeerAccess(a, 0) == hipSuccess) == b_maps_a);
            if (b_maps_a) {
                copy_and_check(peerCopyPathDirect, b);
                HIP_CHECK(hipDeviceDisablePeerAccess(a));
            }
            // a maps b's memory: a pushes.
            HIP_CHECK(hipSetDevice(a));
            const bool a_maps_b = m[size_t(a)][size_t(b)] == 1;
            CHECK((hipDeviceEnablePeerAccess(b, 0) == hipSuccess) == a_maps_b);
            if (a_maps_b) {
                copy_and_check(peerCopyPathDirect, a);
                HIP_CHECK(hipDeviceDisablePeerAccess(b));
            }
            copy_and_check(peerCopyPathStaged, -1); // Disable really ended the direct path
        }
}

// ---- supporting calls ------------------------------------------------------

TEST_CASE("Set/GetDevice: per thread, invalid ids refused", "[spec][device]") {
    const int n = device_count();
    CHECK(hipSetDevice(-1) == hipErrorInvalidDevice);
    CHECK(hipSetDevice(n) == hipErrorInvalidDevice);
    HIP_CHECK(hipSetDevice(n - 1));
    int d = -1;
    HIP_CHECK(hipGetDevice(&d));
    CHECK(d == n - 1);
    CHECK(hipGetDevice(nullptr) == hipErrorInvalidValue);
    HIP_CHECK(hipSetDevice(0));
}

TEST_CASE("hipMalloc/hipFree/hipMemset basics", "[spec][memory]") {
    void *p = reinterpret_cast<void *>(1);
    CHECK(hipMalloc(nullptr, 16) == hipErrorInvalidValue);
    HIP_CHECK(hipMalloc(&p, 0));
    CHECK(p == nullptr);
    CHECK(hipFree(nullptr) == hipSuccess);
    int host = 0;
    CHECK(hipFree(&host) == hipErrorInvalidValue);
    DeviceBuffer b(0, 1000, 0);
    HIP_CHECK(hipMemset(b.ptr, 0xab, 1000));
    HIP_CHECK(hipMemset(b.at(10), 0x01, 5));
    auto got = b.read(0, 1000);
    std::vector<uint8_t> want(1000, 0xab);
    std::fill(want.begin() + 10, want.begin() + 15, 0x01);
    CHECK(first_diff(got, want) == -1);
    CHECK(hipMemset(b.at(999), 0, 2) == hipErrorInvalidValue);
    // Host transfers need a range inside one live allocation.
    std::vector<uint8_t> h(2000);
    CHECK(hipMemcpyHtoD(b.at(1), h.data(), 1000) == hipErrorInvalidValue);
    CHECK(hipMemcpyDtoH(h.data(), b.at(500), 501) == hipErrorInvalidValue);
    CHECK(hipMemcpyHtoD(h.data(), h.data(), 4) == hipErrorInvalidValue);
    CHECK(hipMemcpyDtoH(h.data(), nullptr, 4) == hipErrorInvalidValue);
    CHECK(hipMemcpyHtoD(b.ptr, h.data(), 0) == hipSuccess);
    // A pointer from two different devices' allocations are different ranges.
    CHECK(peerOwnerDevice(b.ptr) == 0);
}

// ---- §3 kernel failures -----------------------------------------------------

TEST_CASE("§3: -ENOMEM from GEM_CREATE -> hipErrorOutOfMemory, the errno and ioctl recorded",
          "[spec][kernel]") {
    HIP_CHECK(hipSetDevice(0));
    peerClearLastKernelError();
    CHECK(std::string(peerLastKernelError()).empty());
    void *p = nullptr;
    // Far more than any simulated VRAM or GTT: amdgpu_bo_validate_size refuses.
    CHECK(hipMalloc(&p, size_t(1) << 44) == hipErrorOutOfMemory);
    CHECK(p == nullptr);
    const char *call = nullptr;
    CHECK(peerLastKernelErrno(&call) == ENOMEM);
    REQUIRE(call != nullptr);
    CHECK(std::string(call) == "AMDGPU_GEM_CREATE");
    CHECK(std::string(peerLastKernelError()) == "AMDGPU_GEM_CREATE: ENOMEM (12)");
    // A size the VA space cannot hold never reaches the kernel.
    CHECK(hipMalloc(&p, ~size_t(0)) == hipErrorOutOfMemory);
    // The failures left nothing behind: a normal allocation still works.
    HIP_CHECK(hipMalloc(&p, 4096));
    HIP_CHECK(hipFree(p));
}

TEST_CASE("device info reports the SDMA IP version and PCI identity", "[spec][device]") {
    for (int d = 0; d < device_count(); ++d) {
        peerDeviceInfo info{};
        HIP_CHECK(peerGetDeviceInfo(d, &info));
        CHECK(info.sdma_major >= 4u);
        CHECK(info.sdma_major <= 7u);
        CHECK(info.render_minor >= 128);
        CHECK(info.pci_device_id != 0u);
        CHECK(info.vram_bytes > 0u);
    }
    for (int d = 0; d < device_count(); ++d) {
        uint64_t flags = ~0ull;
        HIP_CHECK(peerGetContextResetState(d, &flags));
        CHECK(flags == 0u); // no reset has happened to the API's contexts
    }
    peerDeviceInfo info{};
    CHECK(peerGetDeviceInfo(-1, &info) == hipErrorInvalidDevice);
    CHECK(peerGetDeviceInfo(0, nullptr) == hipErrorInvalidValue);
}

TEST_CASE("copy packet size: Mesa's below SDMA 5.2, the kernel's 4 MiB from 5.2, settable",
          "[spec][packets]") {
    for (int d = 0; d < device_count(); ++d) {
        CAPTURE(d);
        peerDeviceInfo info{};
        HIP_CHECK(peerGetDeviceInfo(d, &info));
        const bool v52 = info.sdma_major > 5 || (info.sdma_major == 5 && info.sdma_minor >= 2);
        size_t max = 0;
        HIP_CHECK(peerGetCopyPacketMax(d, &max));
        CHECK(max == (v52 ? size_t(0x400000) : size_t(0x3fff00)));
        CHECK(peerSetCopyPacketMax(d, 0x400001) == hipErrorInvalidValue);
        // Probing the kernel's boundary on purpose: 4 MiB packets, bytes still exact.
        HIP_CHECK(peerSetCopyPacketMax(d, 0x400000));
        const size_t n = (4u << 20) + 1;
        DeviceBuffer src(d, n, 91), dst(d, n, 0);
        HIP_CHECK(hipMemcpyPeer(dst.ptr, d, src.ptr, d, n));
        CHECK(first_diff(dst.read(0, n), pattern(n, 91)) == -1);
        HIP_CHECK(peerSetCopyPacketMax(d, 0));
        HIP_CHECK(peerGetCopyPacketMax(d, &max));
        CHECK(max == (v52 ? size_t(0x400000) : size_t(0x3fff00)));
    }
    CHECK(peerSetCopyPacketMax(-1, 0) == hipErrorInvalidDevice);
}
