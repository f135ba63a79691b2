// Helpers for the tests that run under the simulator (amdgpu-sim): what the
// machine is expected to look like (from CTest's environment, written from
// the machine file, never from what the code under test reports), data
// patterns, and buffer checks through the API itself.
#pragma once

#include "peer/hip_peer.h"
#include "peer/peer_debug.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace simtest {

#define HIP_CHECK(expr)                                                                            \
    do {                                                                                           \
        const hipError_t e_ = (expr);                                                              \
        INFO(#expr << " -> " << hipGetErrorName(e_) << " " << peerLastKernelError());              \
        REQUIRE(e_ == hipSuccess);                                                                 \
    } while (0)

// PEER_EXPECT_ACCESS="0110/1010/1100/1110": row a, column b is 1 when a can
// reach b's VRAM according to the machine file.
inline std::vector<std::vector<int>> expected_access() {
    const char *s = std::getenv("PEER_EXPECT_ACCESS");
    std::vector<std::vector<int>> m(1);
    if (!s) return {};
    for (const char *p = s; *p; ++p) {
        if (*p == '/') {
            m.emplace_back();
        } else {
            m.back().push_back(*p == '1' ? 1 : 0);
        }
    }
    return m;
}

// PEER_EXPECT_HOST_VISIBLE="0111": per device, 1 when the machine file gives
// it a large BAR (visible_vram == vram): its KFD heap is FB_PUBLIC.
inline std::vector<int> expected_host_visible() {
    const char *s = std::getenv("PEER_EXPECT_HOST_VISIBLE");
    std::vector<int> v;
    for (const char *p = s ? s : ""; *p; ++p)
        v.push_back(*p == '1' ? 1 : 0);
    return v;
}

inline int device_count() {
    int n = 0;
    REQUIRE(hipGetDeviceCount(&n) == hipSuccess);
    return n;
}

struct Pair {
    int a, b;
};

// Pairs by kind, from the expectation (not from the API).
inline std::vector<Pair> pairs_where(bool capable) {
    auto m = expected_access();
    std::vector<Pair> out;
    for (int a = 0; a < int(m.size()); ++a)
        for (int b = 0; b < int(m.size()); ++b)
            if (a != b && (m[size_t(a)][size_t(b)] == 1) == capable) out.push_back({a, b});
    return out;
}

// A condition the machine lacks must be declared in PEER_ABSENT by the CTest
// registration; a declared-absent condition that exists is an error too. So
// a test can never pass by silently finding nothing to test.
inline bool condition_present(const std::string &name, bool present) {
    const char *abs = std::getenv("PEER_ABSENT");
    const std::string list = std::string(",") + (abs ? abs : "") + ",";
    const bool declared_absent = list.find("," + name + ",") != std::string::npos;
    INFO("condition '" << name << "' present=" << present
                       << " declared absent=" << declared_absent);
    REQUIRE(present != declared_absent);
    return present;
}

// A reproducible pseudo-random byte stream per seed (splitmix64 per 8-byte
// word, so large buffers are cheap to make).
inline uint64_t pattern_word(uint64_t i, uint32_t seed) {
    uint64_t x = i + (uint64_t(seed) << 32 | seed) * 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

inline std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t w = 0; w * 8 < n; ++w) {
        const uint64_t x = pattern_word(w, seed);
        for (size_t k = 0; k < 8 && w * 8 + k < n; ++k)
            v[w * 8 + k] = uint8_t(x >> (8 * k));
    }
    return v;
}

// Index of the first differing byte of two n-byte ranges, or -1 (memcmp
// first: fast also under sanitizers).
inline long long first_diff_n(const uint8_t *a, const uint8_t *b, size_t n) {
    if (n == 0 || std::memcmp(a, b, n) == 0) return -1;
    for (size_t i = 0; i < n; ++i)
        if (a[i] != b[i]) return (long long)i;
    return -1;
}

// Index of the first differing byte, or -1.
inline long long first_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    const size_t n = a.size() < b.size() ? a.size() : b.size();
    const long long d = first_diff_n(a.data(), b.data(), n);
    if (d != -1) return d;
    return a.size() == b.size() ? -1 : (long long)n;
}

// A device allocation filled with a known pattern; freed at scope exit.
struct DeviceBuffer {
    void *ptr = nullptr;
    size_t size = 0;
    int device = -1;
    DeviceBuffer(int dev, size_t n, uint32_t seed) : size(n), device(dev) {
        int prev = 0;
        REQUIRE(hipGetDevice(&prev) == hipSuccess);
        HIP_CHECK(hipSetDevice(dev));
        HIP_CHECK(hipMalloc(&ptr, n));
        HIP_CHECK(hipSetDevice(prev));
        if (seed) {
            auto p = pattern(n, seed);
            HIP_CHECK(hipMemcpyHtoD(ptr, p.data(), n));
        }
    }
    ~DeviceBuffer() {
        if (ptr) (void)hipFree(ptr);
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    uint8_t *at(size_t off) const { return static_cast<uint8_t *>(ptr) + off; }
    std::vector<uint8_t> read(size_t off, size_t n) const {
        std::vector<uint8_t> v(n);
        if (n) HIP_CHECK(hipMemcpyDtoH(v.data(), at(off), n));
        return v;
    }
};

} // namespace simtest
