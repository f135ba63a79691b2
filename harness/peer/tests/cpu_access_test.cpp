// peerCpuWrite / peerCpuRead / peerCpuEqual and the Spans forms (peer_debug.h): the runner's own
// way in and out of a buffer, checked against the copy engine's view (hipMemcpyDtoH /
// hipMemcpyHtoD) on every device, on whichever kernel path the process runs
// (linked into the DRM-path and the KFD-path test programs).
#include "sim_support.hpp"

#include <algorithm>
#include <vector>

using namespace simtest;

namespace {

// hipMalloc(bytes) on `device`, which becomes the current device.
// Where two byte arrays first differ (their size when equal): a failing
// CHECK(a == b) on vectors of several MiB would print every byte.
size_t first_difference(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    if (a.size() != b.size()) return std::min(a.size(), b.size());
    return static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin());
}

uint8_t *alloc_on(int device, size_t bytes) {
    HIP_CHECK(hipSetDevice(device));
    void *p = nullptr;
    HIP_CHECK(hipMalloc(&p, bytes));
    return static_cast<uint8_t *>(p);
}

} // namespace

TEST_CASE("peerCpuWrite and peerCpuRead reach the bytes the copy engine sees", "[peer][debug]") {
    const int n = device_count();
    REQUIRE(n > 0);
    constexpr size_t kBytes = 3 * 1024 * 1024 + 5; // several staging chunks, odd tail
    std::vector<uint8_t> in(kBytes), out(kBytes), part(1000);
    for (size_t i = 0; i < kBytes; ++i)
        in[i] = static_cast<uint8_t>(i * 131 + (i >> 11));
    for (size_t i = 0; i < part.size(); ++i)
        part[i] = static_cast<uint8_t>(0xa5 ^ i);
    for (int d = 0; d < n; ++d) {
        INFO("device " << d);
        uint8_t *dev = alloc_on(d, kBytes);
        HIP_CHECK(peerCpuWrite(dev, in.data(), kBytes));
        std::fill(out.begin(), out.end(), 0);
        HIP_CHECK(hipMemcpyDtoH(out.data(), dev, kBytes));
        CHECK(first_difference(out, in) == in.size());
        // The engine writes, the CPU path reads.
        HIP_CHECK(hipMemcpyHtoD(dev + 7, part.data(), part.size()));
        std::copy(part.begin(), part.end(), in.begin() + 7);
        std::fill(out.begin(), out.end(), 0);
        HIP_CHECK(peerCpuRead(dev, out.data(), kBytes));
        CHECK(first_difference(out, in) == in.size());
        // The same rules as peerCpuRead: one live allocation, no NULL.
        CHECK(peerCpuWrite(dev + kBytes - 4, part.data(), 8) == hipErrorInvalidValue);
        CHECK(peerCpuWrite(nullptr, part.data(), 8) == hipErrorInvalidValue);
        CHECK(peerCpuWrite(dev, nullptr, 8) == hipErrorInvalidValue);
        CHECK(peerCpuWrite(dev, part.data(), 0) == hipSuccess);
        HIP_CHECK(hipFree(dev));
        CHECK(peerCpuWrite(dev, part.data(), 8) == hipErrorInvalidValue);
    }
}

TEST_CASE("peerCpuEqual finds one differing byte anywhere, through the same route",
          "[peer][debug]") {
    const int n = device_count();
    REQUIRE(n > 0);
    // Over two 8 MiB staging chunks, so the KFD path compares chunk by chunk.
    constexpr size_t kBytes = 17 * 1024 * 1024 + 3;
    std::vector<uint8_t> in(kBytes);
    for (size_t i = 0; i < kBytes; ++i)
        in[i] = static_cast<uint8_t>(i * 29 + (i >> 13) + 1);
    for (int d = 0; d < n; ++d) {
        INFO("device " << d);
        uint8_t *dev = alloc_on(d, kBytes);
        HIP_CHECK(hipMemcpyHtoD(dev, in.data(), kBytes));
        int equal = -1;
        HIP_CHECK(peerCpuEqual(dev, in.data(), kBytes, &equal));
        CHECK(equal == 1);
        for (size_t at : {size_t{0}, kBytes / 2, (size_t{8} << 20) - 1, kBytes - 1}) {
            INFO("differing byte at " << at);
            std::vector<uint8_t> want = in;
            want[at] ^= 0x40;
            equal = -1;
            HIP_CHECK(peerCpuEqual(dev, want.data(), kBytes, &equal));
            CHECK(equal == 0);
        }
        // A sub-range, and the rules of peerCpuRead.
        equal = -1;
        HIP_CHECK(peerCpuEqual(dev + 5, in.data() + 5, 1000, &equal));
        CHECK(equal == 1);
        CHECK(peerCpuEqual(dev + kBytes - 4, in.data(), 8, &equal) == hipErrorInvalidValue);
        CHECK(peerCpuEqual(nullptr, in.data(), 8, &equal) == hipErrorInvalidValue);
        CHECK(peerCpuEqual(dev, nullptr, 8, &equal) == hipErrorInvalidValue);
        CHECK(peerCpuEqual(dev, in.data(), 8, nullptr) == hipErrorInvalidValue);
        HIP_CHECK(hipFree(dev));
        CHECK(peerCpuEqual(dev, in.data(), 8, &equal) == hipErrorInvalidValue);
    }
}

TEST_CASE("peerCpuWriteSpans puts large pieces first, last and side by side in place",
          "[peer][debug]") {
    // On the KFD path a piece of 1 MiB or more is one engine job from its own
    // pages (registered with KFD), the pieces between them go through staging:
    // large first, small, two large side by side, large last.
    const int n = device_count();
    REQUIRE(n > 0);
    constexpr size_t kMi = size_t{1} << 20;
    const size_t cuts[] = {0, 2 * kMi + 1, 2 * kMi + 4, 3 * kMi + 4, 5 * kMi, 6 * kMi + 7};
    const size_t bytes = cuts[std::size(cuts) - 1];
    std::vector<uint8_t> in(bytes), out(bytes);
    for (size_t i = 0; i < bytes; ++i)
        in[i] = static_cast<uint8_t>(i * 151 + (i >> 16) + 1);
    std::vector<peerHostSpan> spans;
    for (size_t i = 0; i + 1 < std::size(cuts); ++i)
        spans.push_back({in.data() + cuts[i], cuts[i + 1] - cuts[i]});
    for (int d = 0; d < n; ++d) {
        INFO("device " << d);
        uint8_t *dev = alloc_on(d, bytes);
        HIP_CHECK(peerCpuWriteSpans(dev, spans.data(), spans.size()));
        HIP_CHECK(hipMemcpyDtoH(out.data(), dev, bytes));
        CHECK(first_difference(out, in) == in.size());
        // The same bytes again, shifted by one inside the allocation: a direct
        // piece that starts mid-page on the device side.
        HIP_CHECK(hipFree(dev));
        dev = alloc_on(d, bytes + 1);
        HIP_CHECK(peerCpuWriteSpans(dev + 1, spans.data(), spans.size()));
        std::vector<uint8_t> shifted(bytes + 1);
        HIP_CHECK(hipMemcpyDtoH(shifted.data(), dev, bytes + 1));
        shifted.erase(shifted.begin());
        CHECK(first_difference(shifted, in) == in.size());
        HIP_CHECK(hipFree(dev));
    }
}

TEST_CASE("peerCpuWriteSpans and peerCpuEqualSpans treat the pieces as one buffer",
          "[peer][debug]") {
    const int n = device_count();
    REQUIRE(n > 0);
    // Pieces that cross the KFD path's 8 MiB staging chunk, one of them
    // empty, the last one byte.
    constexpr size_t kBytes = 9 * 1024 * 1024 + 3;
    const size_t cuts[] = {0,          5,     5, (size_t{8} << 20) - 2, (size_t{8} << 20) + 4096,
                           kBytes - 1, kBytes};
    std::vector<uint8_t> in(kBytes), out(kBytes);
    for (size_t i = 0; i < kBytes; ++i)
        in[i] = static_cast<uint8_t>(i * 37 + (i >> 12) + 3);
    auto spans_of = [&](const std::vector<uint8_t> &bytes) {
        std::vector<peerHostSpan> s;
        for (size_t i = 0; i + 1 < std::size(cuts); ++i)
            s.push_back({bytes.data() + cuts[i], cuts[i + 1] - cuts[i]});
        return s;
    };
    for (int d = 0; d < n; ++d) {
        INFO("device " << d);
        uint8_t *dev = alloc_on(d, kBytes);
        const std::vector<peerHostSpan> spans = spans_of(in);
        HIP_CHECK(peerCpuWriteSpans(dev, spans.data(), spans.size()));
        HIP_CHECK(hipMemcpyDtoH(out.data(), dev, kBytes));
        CHECK(first_difference(out, in) == in.size());
        int equal = -1;
        HIP_CHECK(peerCpuEqualSpans(dev, spans.data(), spans.size(), &equal));
        CHECK(equal == 1);
        // One differing byte in each piece, the chunk boundary included.
        for (size_t at : {size_t{0}, size_t{6}, (size_t{8} << 20) - 1, size_t{8} << 20,
                          (size_t{8} << 20) + 4096, kBytes - 1}) {
            INFO("differing byte at " << at);
            std::vector<uint8_t> want = in;
            want[at] ^= 0x11;
            const std::vector<peerHostSpan> w = spans_of(want);
            equal = -1;
            HIP_CHECK(peerCpuEqualSpans(dev, w.data(), w.size(), &equal));
            CHECK(equal == 0);
        }
        // The rules: a NULL list or piece, a range past the allocation.
        CHECK(peerCpuWriteSpans(dev, nullptr, 1) == hipErrorInvalidValue);
        const peerHostSpan null_piece{nullptr, 4};
        CHECK(peerCpuWriteSpans(dev, &null_piece, 1) == hipErrorInvalidValue);
        CHECK(peerCpuEqualSpans(dev, &null_piece, 1, &equal) == hipErrorInvalidValue);
        CHECK(peerCpuEqualSpans(dev, spans.data(), spans.size(), nullptr) == hipErrorInvalidValue);
        CHECK(peerCpuWriteSpans(dev + 1, spans.data(), spans.size()) == hipErrorInvalidValue);
        CHECK(peerCpuWriteSpans(dev, nullptr, 0) == hipSuccess);
        HIP_CHECK(hipFree(dev));
    }
}
