// Byte-exact hipMemcpyPeer over every ordered device pair (self included), in
// three peer-access modes, for the sizes and offsets, with guard bytes
// on both sides of the destination.
//
// Default depth: on every pair each size runs once (sizes rotate over the
// modes) and the offsets rotate so every source and destination offset is
// used on every pair. PEER_COPY_DEPTH=full (the nightly label) runs every
// size x mode x source offset x destination offset.
#include "sim_support.hpp"

#include <cstring>
#include <memory>
#include <string_view>

using namespace simtest;

namespace {

constexpr size_t Ki = 1024, Mi = 1024 * 1024;
const size_t kSizes[] = {0,          1,           2,          3,          4,
                         5,          7,           8,          63,         64,
                         65,         4095,        4096,       4097,       64 * Ki - 1,
                         64 * Ki,    64 * Ki + 1, 2 * Mi - 1, 2 * Mi,     2 * Mi + 1,
                         4 * Mi - 1, 4 * Mi,      4 * Mi + 1, 8 * Mi + 3, 64 * Mi + 1};
const size_t kOffsets[] = {0, 1, 3, 4, 31, 32, 4093};
constexpr size_t kGuard = 64; // bytes checked on each side of the destination
constexpr size_t kMaxOffset = 4093;

enum class Mode { disabled, dst_maps_src, src_maps_dst };
const char *mode_name(Mode m) {
    return m == Mode::disabled ? "disabled" : m == Mode::dst_maps_src ? "dst->src" : "src->dst";
}

struct PairBuffers {
    int src_dev, dst_dev;
    std::unique_ptr<DeviceBuffer> src, dst;
    const std::vector<uint8_t> *src_pat_v = nullptr;
    std::vector<uint8_t> dst_pat;
};

// Sets the mode; returns whether peer access is actually in place (an
// incapable pair cannot enable, and the copy must then be staged).
bool set_mode(Mode m, int s, int d) {
    if (m == Mode::disabled || s == d) return false;
    const int c = m == Mode::dst_maps_src ? d : s, p = m == Mode::dst_maps_src ? s : d;
    REQUIRE(hipSetDevice(c) == hipSuccess);
    const hipError_t e = hipDeviceEnablePeerAccess(p, 0);
    int can = 0;
    REQUIRE(hipDeviceCanAccessPeer(&can, c, p) == hipSuccess);
    CHECK(e == (can ? hipSuccess : hipErrorInvalidDevice));
    return e == hipSuccess;
}

void clear_mode(Mode m, int s, int d, bool enabled) {
    if (!enabled) return;
    const int c = m == Mode::dst_maps_src ? d : s, p = m == Mode::dst_maps_src ? s : d;
    REQUIRE(hipSetDevice(c) == hipSuccess);
    REQUIRE(hipDeviceDisablePeerAccess(p) == hipSuccess);
}

void one_copy(PairBuffers &b, size_t size, size_t so, size_t dof, Mode mode, bool enabled) {
    INFO("pair " << b.src_dev << ">" << b.dst_dev << " size " << size << " src_off " << so
                 << " dst_off " << dof << " mode " << mode_name(mode));
    uint8_t *dst = b.dst->at(kGuard + dof);
    const uint8_t *src = b.src->at(so);
    REQUIRE(hipMemcpyPeer(dst, b.dst_dev, src, b.src_dev, size) == hipSuccess);
    if (size > 0) {
        const peerCopyPath want = b.src_dev == b.dst_dev ? peerCopyPathSameDevice
                                  : enabled              ? peerCopyPathDirect
                                                         : peerCopyPathStaged;
        CHECK(peerLastCopyPath() == want);
        // The copy's timing: one job carries SDMA TIMESTAMP packets around
        // the copy, read at the simulator's 100 MHz (a tiny copy may take
        // 0 ticks); the staged path is always host-timed. The link is the
        // one between the pair.
        peerCopyTiming t{};
        REQUIRE(peerLastCopyTiming(&t) == hipSuccess);
        CHECK(t.bytes == size);
        CHECK(t.host_nanoseconds > 0);
        // The KFD path's user queues carry no timestamp packets yet (the
        // clock buffer is a DRM BO): its copies are host-timed, labelled so.
        const bool kfd_path = std::string_view(peerKernelPath()) == "kfd";
        if (kfd_path && want != peerCopyPathStaged) {
            CHECK(t.clock == peerCopyClockHostFence);
            CHECK(t.nanoseconds == t.host_nanoseconds);
        } else if (want == peerCopyPathStaged) {
            CHECK(t.clock == peerCopyClockHostFence);
            CHECK(t.nanoseconds == t.host_nanoseconds);
            CHECK(t.engine_device == -1);
        } else {
            CHECK(t.clock == peerCopyClockSdmaTimestamp);
            CHECK(t.counter_khz == 100000);
            CHECK(t.nanoseconds % 10 == 0); // whole ticks of 10 ns
            if (size >= 64 * Ki) CHECK(t.nanoseconds > 0);
            CHECK(
                t.engine_device ==
                (want == peerCopyPathDirect && mode == Mode::src_maps_dst ? b.src_dev : b.dst_dev));
        }
        if (b.src_dev == b.dst_dev) {
            CHECK(t.link_type == 0u);
        } else if (want == peerCopyPathDirect) {
            CHECK((t.link_type == 2u || t.link_type == 11u));
            CHECK(t.link_max_mbytes > 0u);
        }
    }
    // Read the window [0, guard + off + size + guard): the copied bytes must
    // be the source's, everything around them what the destination held.
    const size_t at = kGuard + dof;
    const size_t win = at + size + kGuard;
    auto got = b.dst->read(0, win);
    const long long before = first_diff_n(got.data(), b.dst_pat.data(), at);
    const long long copied = first_diff_n(got.data() + at, b.src_pat_v->data() + so, size);
    const long long after =
        first_diff_n(got.data() + at + size, b.dst_pat.data() + at + size, kGuard);
    INFO("copy starts at window offset " << at);
    CHECK(before == -1); // guard bytes (and untouched offset bytes) before the copy
    CHECK(copied == -1); // first wrong copied byte otherwise
    CHECK(after == -1);  // guard bytes after the copy
    // The destination now holds `got` (the expected bytes unless this copy
    // failed): later copies are checked against it, cheaper than rewriting.
    std::memcpy(b.dst_pat.data() + at, got.data() + at, size);
}

void run_pair(int s, int d, bool full) {
    PairBuffers b{s, d, nullptr, nullptr, nullptr, {}};
    const size_t max = 64 * Mi + 1;
    const size_t src_bytes = kMaxOffset + max;
    const size_t dst_bytes = kGuard + kMaxOffset + max + kGuard;
    // The same two patterns for every pair (made once: 64 MiB each); the
    // destination's expected image is per pair because copies change it.
    static const std::vector<uint8_t> src_pat = pattern(src_bytes, 0x5eed0001u);
    static const std::vector<uint8_t> dst_pat = pattern(dst_bytes, 0xd0000001u);
    b.src_pat_v = &src_pat;
    b.dst_pat = dst_pat;
    b.src = std::make_unique<DeviceBuffer>(s, src_bytes, 0);
    b.dst = std::make_unique<DeviceBuffer>(d, dst_bytes, 0);
    REQUIRE(hipMemcpyHtoD(b.src->ptr, const_cast<uint8_t *>(b.src_pat_v->data()), src_bytes) ==
            hipSuccess);
    REQUIRE(hipMemcpyHtoD(b.dst->ptr, b.dst_pat.data(), dst_bytes) == hipSuccess);
    const Mode modes[] = {Mode::disabled, Mode::dst_maps_src, Mode::src_maps_dst};
    const size_t nsizes = sizeof kSizes / sizeof kSizes[0];
    const size_t noffs = sizeof kOffsets / sizeof kOffsets[0];
    for (size_t mi = 0; mi < 3; ++mi) {
        const Mode mode = modes[mi];
        const bool enabled = set_mode(mode, s, d);
        for (size_t si = 0; si < nsizes; ++si) {
            if (full) {
                for (size_t so : kOffsets)
                    for (size_t dof : kOffsets)
                        one_copy(b, kSizes[si], so, dof, mode, enabled);
            } else if (si % 3 == mi) {
                // Rotate offsets so every pair sees all 7 source and all 7
                // destination offsets, in different combinations.
                one_copy(b, kSizes[si], kOffsets[si % noffs], kOffsets[(si * 3 + 1) % noffs], mode,
                         enabled);
            }
        }
        clear_mode(mode, s, d, enabled);
    }
}

} // namespace

TEST_CASE("hipMemcpyPeer is byte-exact on every ordered pair, size, offset and mode",
          "[copy][matrix]") {
    const char *depth = std::getenv("PEER_COPY_DEPTH");
    const bool full = depth && std::string(depth) == "full";
    const int n = device_count();
    for (int s = 0; s < n; ++s)
        for (int d = 0; d < n; ++d) {
            DYNAMIC_SECTION("pair " << s << ">" << d) {
                run_pair(s, d, full);
            }
        }
}

TEST_CASE("the default depth covers every size and offset on a pair", "[copy][coverage]") {
    // Guards the rotation above against edits: recompute the schedule.
    const size_t nsizes = sizeof kSizes / sizeof kSizes[0];
    const size_t noffs = sizeof kOffsets / sizeof kOffsets[0];
    std::vector<int> size_seen(nsizes, 0), src_seen(noffs, 0), dst_seen(noffs, 0);
    for (size_t mi = 0; mi < 3; ++mi)
        for (size_t si = 0; si < nsizes; ++si)
            if (si % 3 == mi) {
                size_seen[si]++;
                src_seen[si % noffs]++;
                dst_seen[(si * 3 + 1) % noffs]++;
            }
    for (int v : size_seen)
        CHECK(v == 1);
    for (int v : src_seen)
        CHECK(v > 0);
    for (int v : dst_seen)
        CHECK(v > 0);
}
