// Several threads copy between different device pairs at once, each with its
// own current device, and verify every byte (run under TSan by the tsan
// preset). Peer access is set up before the threads start: Disable while a
// direct copy is in flight would be the caller's race, not the API's.
#include "sim_support.hpp"

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

using namespace simtest;

namespace {
struct Failure {
    std::string what;
};

void worker(int id, int s, int d, int iterations, std::vector<Failure> &fails) {
    auto fail = [&](const std::string &w) {
        fails.push_back({"thread " + std::to_string(id) + ": " + w});
    };
    if (hipSetDevice(d) != hipSuccess) return fail("hipSetDevice");
    const size_t cap = 300 * 1024;
    void *src = nullptr, *dst = nullptr;
    if (hipSetDevice(s) != hipSuccess || hipMalloc(&src, cap) != hipSuccess)
        return fail("malloc src");
    if (hipSetDevice(d) != hipSuccess || hipMalloc(&dst, cap) != hipSuccess)
        return fail("malloc dst");
    int cur = -1;
    if (hipGetDevice(&cur) != hipSuccess || cur != d) fail("current device is not per thread");
    uint32_t rng = 0x1234567u + uint32_t(id);
    for (int i = 0; i < iterations; ++i) {
        rng = rng * 1664525u + 1013904223u;
        const size_t size = 1 + rng % (cap - 64);
        const size_t off = (rng >> 8) % 33;
        const size_t n = size - off > 0 && size > off ? size - off : size;
        auto pat = pattern(cap, uint32_t(id * 1000 + i));
        std::vector<uint8_t> got(cap);
        if (hipMemcpyHtoD(src, pat.data(), cap) != hipSuccess) return fail("HtoD");
        if (hipMemset(dst, 0, cap) != hipSuccess) return fail("memset");
        if (hipMemcpyPeer(static_cast<char *>(dst) + off, d, src, s, n - off) != hipSuccess)
            return fail(std::string("copy: ") + peerLastKernelError());
        if (hipMemcpyDtoH(got.data(), dst, cap) != hipSuccess) return fail("DtoH");
        std::vector<uint8_t> want(cap, 0);
        std::memcpy(want.data() + off, pat.data(), n - off);
        if (first_diff(got, want) != -1) return fail("bytes differ, size " + std::to_string(n));
    }
    (void)hipFree(src);
    (void)hipFree(dst);
}
} // namespace

TEST_CASE("concurrent hipMemcpyPeer on different pairs is correct", "[threads]") {
    const int n = device_count();
    // Some pairs direct (enabled), some staged, plus a same-device pair.
    std::vector<std::pair<int, int>> pairs;
    for (int s = 0; s < n && pairs.size() < 4; ++s)
        pairs.push_back({s, (s + 1) % n});
    pairs.push_back({0, 0});
    if (n > 1) {
        int can = 0;
        REQUIRE(hipDeviceCanAccessPeer(&can, pairs[0].second, pairs[0].first) == hipSuccess);
        if (can) {
            REQUIRE(hipSetDevice(pairs[0].second) == hipSuccess);
            REQUIRE(hipDeviceEnablePeerAccess(pairs[0].first, 0) == hipSuccess);
        }
    }
    std::vector<std::vector<Failure>> fails(pairs.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < pairs.size(); ++i)
        threads.emplace_back(worker, int(i), pairs[i].first, pairs[i].second, 40,
                             std::ref(fails[i]));
    for (auto &t : threads)
        t.join();
    for (auto &f : fails)
        for (auto &x : f)
            FAIL_CHECK(x.what);
    for (int d = 0; d < n; ++d) {
        REQUIRE(hipSetDevice(d) == hipSuccess);
        REQUIRE(hipDeviceReset() == hipSuccess);
    }
}
