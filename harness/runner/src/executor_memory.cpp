#include "executor_impl.hpp"

#include "cases/hip_codes.hpp"
#include "cases/pattern.hpp"
#include "cases/step_table.hpp"
#include "runner/executor.hpp"
#include "runner/settings.hpp"

#include <peer/peer_debug.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace harness::runner::detail {

std::string Interpreter::alloc(const Step &s) {
    const std::string name = s.arg("as")->word;
    Buffer b = new_buffer();
    b.device = static_cast<int>(num(s, "device", 0));
    b.bytes = static_cast<size_t>(num(s, "bytes", 0));
    b.guard = static_cast<size_t>(num(s, "guard", 0));
    b.alloc_bytes = b.bytes + 2 * b.guard;
    sizes_[name + ".bytes"] = static_cast<int64_t>(b.bytes);
    int prev = 0;
    hipGetDevice(&prev);
    if (auto m = set_current(b.device); !m.empty()) return m;
    void *p = nullptr;
    const Placement before = placement_of(b.device);
    hipError_t e = hipMalloc(&p, b.alloc_bytes);
    hipSetDevice(prev);
    if (e == hipSuccess)
        // A new buffer is imported into every device that enabled access to
        // its device: the same placement rule as at Enable.
        for (const auto &[importer, exporter] : enabled_)
            if (exporter == b.device)
                if (auto m = placement_check(before, importer, exporter, "hipMalloc"); !m.empty())
                    return m;
    if (auto m =
            code_check(s, e, fmt::format("hipMalloc({}) on device {}", b.alloc_bytes, b.device));
        !m.empty())
        return m;
    if (e != hipSuccess) return {};
    b.base = static_cast<char *>(p);
    b.live = true;
    b.expect.reset(b.alloc_bytes); // zero: `cleared` must read it, and `none` is never compared
    const uint64_t gseed = kGuardSeed ^ name_hash(name);
    b.expect.set_pattern(0, b.guard, PatternKind::lfsr, gseed, 0);
    b.expect.set_pattern(b.guard + b.bytes, b.guard, PatternKind::lfsr, gseed, b.guard + b.bytes);
    const Arg *fill = s.arg("fill");
    PatternArg pat = fill ? fill->pattern : PatternArg{};
    if (!fill) pat.seed = Expr::constant(static_cast<int64_t>(name_hash(name) & 0xffff));
    // `cleared`: the payload is never written and must read zero (hipMalloc
    // asks the kernel for VRAM_CLEARED; stale bytes are regression K06).
    const bool cleared = pat.kind == "cleared";
    if (cleared) b.payload_known = true;
    if (pat.kind != "none" && !cleared) {
        std::string kind = pat.kind[0] == '$' ? in_.words.at(pat.kind.substr(1)) : pat.kind;
        b.expect.set_pattern(b.guard, b.bytes, pattern_kind(kind),
                             static_cast<uint64_t>(eval(pat.seed)), 0);
        b.payload_known = true;
    }
    // The initial contents go in through the BO's CPU mapping, as verify
    // reads them back (peerCpuWriteSpans): no staging buffer and no SDMA job,
    // so a 64 MiB buffer costs one pass instead of a copy into GTT and a copy
    // out of it, and nothing the copy under test uses.
    if (b.alloc_bytes > 0) {
        const bool write_payload = b.payload_known && !cleared;
        hipError_t h = write_payload ? write_expected(b, 0, b.alloc_bytes) : hipSuccess;
        if (!write_payload && b.guard > 0) {
            h = write_expected(b, 0, b.guard);
            if (h == hipSuccess) h = write_expected(b, b.guard + b.bytes, b.guard);
        }
        if (h != hipSuccess) {
            buffers_[name] = std::move(b);
            return fmt::format("peerCpuWrite (CPU mapping) filling '{}' returned {}", name,
                               hip_code_name(h));
        }
    }
    buffers_[name] = std::move(b);
    return {};
}

hipError_t Interpreter::write_expected(const Buffer &b, size_t at, size_t n) {
    const GatheredRange g = expected_pieces(b, at, n);
    return rt_.write_spans(b.base + at, g.pieces.data(), g.pieces.size());
}

std::string Interpreter::address_range(const Step &s) {
    Resolved r = resolve(s.arg("ptr")->pointer);
    hipDeviceptr_t base = reinterpret_cast<hipDeviceptr_t>(uintptr_t{0x5a5a5a5a});
    size_t size = 0x5a5a5a5a;
    bool want_base = word(s, "pbase", "out") == "out";
    bool want_size = word(s, "psize", "out") == "out";
    hipError_t e =
        hipMemGetAddressRange(want_base ? &base : nullptr, want_size ? &size : nullptr, r.ptr);
    std::string call =
        fmt::format("hipMemGetAddressRange({}, {}, {})", want_base ? "&base" : "NULL",
                    want_size ? "&size" : "NULL", r.ptr);
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess) return {};
    // A buffer name as expect_base means that allocation's base (its
    // leading guard included); by default the buffer ptr points into.
    void *exp_base = nullptr;
    int64_t exp_size = -1;
    if (const Arg *b = s.arg("expect_base")) {
        Resolved x = resolve(b->pointer);
        exp_base = x.buf ? reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(x.buf->base) +
                                                    static_cast<uintptr_t>(x.offset))
                         : x.ptr;
        if (x.buf) exp_size = static_cast<int64_t>(x.buf->alloc_bytes);
    } else if (r.buf) {
        exp_base = r.buf->base;
        exp_size = static_cast<int64_t>(r.buf->alloc_bytes);
    }
    if (const Arg *z = s.arg("expect_size")) exp_size = eval(z->expr);
    if (want_base && exp_base && base != exp_base)
        return fmt::format("{} reported base {}, expected {}", call, base, exp_base);
    if (want_size && exp_size >= 0 && static_cast<int64_t>(size) != exp_size)
        return fmt::format("{} reported size {}, expected {}", call, size, exp_size);
    return {};
}

std::string Interpreter::expected_path(int dst_dev, int src_dev) const {
    if (dst_dev == src_dev) return "same_device";
    if (enabled_.count({dst_dev, src_dev}) || enabled_.count({src_dev, dst_dev})) return "direct";
    return "staged";
}

std::string Interpreter::memcpy_peer(const Step &s) {
    Resolved dst = resolve(s.arg("dst")->pointer);
    Resolved src = resolve(s.arg("src")->pointer);
    int dd = static_cast<int>(num(s, "dst_device", 0));
    int sd = static_cast<int>(num(s, "src_device", 0));
    size_t n = static_cast<size_t>(num(s, "bytes", 0));
    std::string path = word(s, "path", "");
    if (path == "expected") path = expected_path(dd, sd);
    // Staging and bounce buffers are poisoned so that a staged leg that
    // wrote nothing cannot pass on an earlier copy's bytes. A step that
    // asserts the direct or same-device path fails on any staged copy by the
    // path check below, so there the poison could not change a verdict (and
    // for a 64 MiB copy it was up to 48 MiB of memset).
    if (path != "direct" && path != "same_device" && word(s, "staging", "poisoned") == "poisoned")
        poison(sd, dd, n);
    hipError_t e = dd == sd && rocclr_copy(dst.ptr, src.ptr, n, false)
                       ? hipSuccess
                       : hipMemcpyPeer(dst.ptr, dd, src.ptr, sd, n);
    std::string call = fmt::format("hipMemcpyPeer(dst, {}, src, {}, {})", dd, sd, n);
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || n == 0) return {};
    if (dst.buf && src.buf) {
        // The destination must now hold the source's bytes.
        if (dst.offset < 0 || src.offset < 0 ||
            static_cast<size_t>(dst.offset) + n > dst.buf->alloc_bytes - dst.buf->guard ||
            static_cast<size_t>(src.offset) + n > src.buf->alloc_bytes - src.buf->guard)
            return fmt::format("{} succeeded on a range outside the buffers", call);
        dst.buf->expect.copy_from(dst.buf->guard + static_cast<size_t>(dst.offset), src.buf->expect,
                                  src.buf->guard + static_cast<size_t>(src.offset), n);
        dst.buf->payload_known = dst.buf->payload_known && src.buf->payload_known;
    }
    if (!path.empty() && harness_runtime()) { // which path ROCm took, only it knows
        peerCopyPath want = path == "direct"   ? peerCopyPathDirect
                            : path == "staged" ? peerCopyPathStaged
                                               : peerCopyPathSameDevice;
        peerCopyPath got = peerLastCopyPath();
        if (got != want) {
            const char *g = peerCopyPathName(got);
            return fmt::format("{} took the {} path, expected {}", call, g ? g : "?", path);
        }
    }
    record_copy(dd, sd);
    return {};
}

void Interpreter::record_copy(int dst_dev, int src_dev) {
    peerCopyTiming t{};
    if (!harness_runtime() || peerLastCopyTiming(&t) != hipSuccess ||
        t.clock == peerCopyClockNone || t.bytes == 0)
        return;
    // Asked once per process: the kernel interface, not the environment,
    // says whether these are the simulator's figures (settings.hpp).
    static const bool simulated = running_on_simulator();
    nlohmann::json c;
    c["step"] = step_index_;
    c["src"] = src_dev;
    c["dst"] = dst_dev;
    c["bytes"] = t.bytes;
    c["ns"] = t.nanoseconds;
    // bytes per nanosecond is GB/s (10^9 bytes per second).
    c["gbps"] =
        t.nanoseconds ? static_cast<double>(t.bytes) / static_cast<double>(t.nanoseconds) : 0.0;
    c["clock"] = t.clock == peerCopyClockSdmaTimestamp ? "sdma-timestamp" : "host-fence";
    if (t.counter_khz) c["counter_khz"] = t.counter_khz;
    c["link"] = dst_dev == src_dev  ? "local"
                : t.link_type == 11 ? "xgmi"
                : t.link_type == 2  ? "pcie"
                                    : "unknown";
    // KFD's io_link max_bandwidth is MB/s (10^6): /1000 is GB/s.
    if (t.link_max_mbytes) c["peak_gbps"] = t.link_max_mbytes / 1000.0;
    c["simulated"] = simulated;
    copies_.push_back(std::move(c));
}

// Compared where the bytes are (peerCpuEqual: the CPU mapping, or the
// staging buffer the engine reads into), one pass over the buffer and one
// over the expected bytes: the guards, and the payload when its contents are
// known.
hipError_t Interpreter::compare_in_place(const Buffer &b, bool &differs) {
    differs = false;
    auto compare = [&](size_t from, size_t to) -> hipError_t {
        if (from >= to || differs) return hipSuccess;
        const GatheredRange want = expected_pieces(b, from, to - from);
        if (b.host != Buffer::Host::no) {
            const char *at = b.base + from;
            for (const peerHostSpan &p : want.pieces) {
                differs = differs || std::memcmp(at, p.bytes, p.size) != 0;
                at += p.size;
            }
            return hipSuccess;
        }
        int equal = 0;
        const hipError_t e =
            rt_.equal_spans(b.base + from, want.pieces.data(), want.pieces.size(), &equal);
        differs = e == hipSuccess && !equal;
        return e;
    };
    if (b.payload_known) return compare(0, b.alloc_bytes);
    if (hipError_t e = compare(0, b.guard); e != hipSuccess) return e;
    return compare(b.guard + b.bytes, b.alloc_bytes);
}

// The description of a mismatch: read back in chunks into a poisoned host
// buffer (a read that fills nothing cannot match). 256 KiB: poisoning,
// reading and comparing a chunk stay in a core's L2. On the KFD path a
// small-BAR owner's VRAM has no CPU mapping: there every peerCpuRead is an
// SDMA job through the owner's 8 MiB staging buffer (harness/peer/CONTRACT.md
// §7), so a chunk is that size: a 64 MiB buffer is 8 jobs instead of 256.
std::string Interpreter::describe_mismatch(Buffer &b, const std::string &name) {
    constexpr size_t kChunk = 256 << 10, kKfdChunk = 8 << 20;
    const size_t chunk = kernel_path_of(in_) == "kfd" ? kKfdChunk : kChunk;
    const size_t payload_end = b.guard + b.bytes;
    ExpectedBytes got{ExpectationAllocator<uint8_t>(&ws_.expectations())};
    got.resize(std::min(b.alloc_bytes, chunk));
    ExpectedBytes want{ExpectationAllocator<uint8_t>(&ws_.expectations())};
    want.resize(got.size());
    // [from, to) of the buffer, compared with what it must hold.
    auto same = [&](size_t at, size_t from, size_t to) {
        return from >= to ||
               std::memcmp(got.data() + (from - at), want.data() + (from - at), to - from) == 0;
    };
    size_t bad = 0, first = SIZE_MAX;
    uint8_t got_first = 0, want_first = 0;
    for (size_t at = 0; at < b.alloc_bytes; at += chunk) {
        const size_t n = std::min(chunk, b.alloc_bytes - at), end = at + n;
        std::memset(got.data(), kPoison, n);
        hipError_t e = hipSuccess;
        if (b.host != Buffer::Host::no)
            std::memcpy(got.data(), b.base + at, n);
        else
            e = rt_.read(b.base + at, got.data(), n);
        if (e != hipSuccess)
            return fmt::format("peerCpuRead (CPU mapping) of '{}' returned {}", name,
                               hip_code_name(e));
        b.expect.read(at, want.data(), n, ws_.patterns());
        if (same(at, at, std::min(end, b.guard)) &&
            (!b.payload_known || same(at, std::max(at, b.guard), std::min(end, payload_end))) &&
            same(at, std::max(at, payload_end), end))
            continue;
        for (size_t i = at; i < end; ++i) {
            const bool in_payload = i >= b.guard && i < payload_end;
            if ((in_payload && !b.payload_known) || got[i - at] == want[i - at]) continue;
            if (bad++ == 0) {
                first = i;
                got_first = got[i - at];
                want_first = want[i - at];
            }
        }
    }
    if (!bad)
        return fmt::format("'{}' differed from the expected contents when compared in place but "
                           "matched when read back: the contents are not stable",
                           name);
    std::string where;
    if (first < b.guard)
        where = fmt::format("guard before the buffer, byte -{}", b.guard - first);
    else if (first >= payload_end)
        where = fmt::format("guard after the buffer, byte +{}", first - payload_end);
    else
        where = fmt::format("offset {}", first - b.guard);
    return fmt::format("'{}' differs from the expected contents in {} byte(s); first at {}: "
                       "0x{:02x}, expected 0x{:02x}",
                       name, bad, where, got_first, want_first);
}

std::string Interpreter::verify(Buffer &b, const std::string &name) {
    if (!b.live) return "buffer '" + name + "' is not allocated (freed or reset)";
    if (b.alloc_bytes == 0) return {};
    // Checked through a CPU mapping of the BO: no SDMA job, no staging
    // buffer, nothing the copy under test used; on the KFD path the mapping
    // libhsakmt made of host-visible VRAM, and on a small-BAR owner, which
    // has none, by the owner's engine into its staging buffer
    // (harness/peer/CONTRACT.md §7). Host memory (pinned or pageable) is the
    // CPU's own: read it directly, after the streams' work that may write it
    // has finished.
    if (b.host != Buffer::Host::no)
        if (hipError_t e = hipDeviceSynchronize(); e != hipSuccess)
            return fmt::format("peerCpuRead (CPU mapping) of '{}' returned {}", name,
                               hip_code_name(e));
    bool differs = false;
    if (hipError_t e = compare_in_place(b, differs); e != hipSuccess)
        return fmt::format("peerCpuEqual (CPU mapping) of '{}' returned {}", name,
                           hip_code_name(e));
    // The chunked read-back runs only to describe a mismatch.
    return differs ? describe_mismatch(b, name) : std::string();
}

std::string Interpreter::raw_read(const Step &s) {
    int dev = static_cast<int>(num(s, "device", 0));
    Resolved r = resolve(s.arg("src")->pointer);
    size_t n = static_cast<size_t>(num(s, "bytes", 0));
    std::string must = word(s, "must", "succeed");
    std::vector<uint8_t> got(n, kPoison);
    poison(dev, dev, n);
    peerRawAccessResult res{};
    hipError_t e = peerRawSdmaRead(dev, r.ptr, got.data(), n, &res);
    std::string call = fmt::format("peerRawSdmaRead(device {}, {}, {} bytes)", dev, r.ptr, n);
    bool data_ok = false;
    if (r.buf && r.offset >= 0 && static_cast<size_t>(r.offset) + n <= r.buf->bytes + r.buf->guard)
        data_ok = got == expected_bytes(*r.buf, r.buf->guard + static_cast<size_t>(r.offset), n);
    if (must == "fault" || must == "not_return_data") expected_kernel_events_ |= kExpectVmFault;
    if (must == "fault") {
        if (!res.vm_fault)
            return fmt::format("{} returned {} without a VM fault; it must fault", call,
                               hip_code_name(e));
        return {};
    }
    if (must == "not_return_data") {
        if (res.vm_fault || e != hipSuccess || !data_ok) return {};
        return fmt::format("{} returned the buffer's bytes; access must have been revoked", call);
    }
    if (e != hipSuccess || res.vm_fault)
        return fmt::format("{} returned {}{} ({} {}); it must succeed", call, hip_code_name(e),
                           res.vm_fault ? fmt::format(", VM fault at 0x{:x}", res.fault_address)
                                        : std::string(),
                           res.kernel_call, std::strerror(res.kernel_errno));
    if (!data_ok)
        return fmt::format("{} succeeded but returned other bytes than the buffer holds", call);
    return {};
}

std::string Interpreter::raw_write(const Step &s) {
    int dev = static_cast<int>(num(s, "device", 0));
    Resolved r = resolve(s.arg("dst")->pointer);
    size_t n = static_cast<size_t>(num(s, "bytes", 0));
    std::string must = word(s, "must", "succeed");
    std::vector<uint8_t> data(n);
    fill_pattern(PatternKind::lfsr, static_cast<uint64_t>(num(s, "seed", 99)),
                 static_cast<uint64_t>(r.offset), data.data(), n);
    poison(dev, dev, n);
    peerRawAccessResult res{};
    hipError_t e = peerRawSdmaWrite(dev, r.ptr, data.data(), n, &res);
    std::string call = fmt::format("peerRawSdmaWrite(device {}, {}, {} bytes)", dev, r.ptr, n);
    if (must == "fault" || must == "not_return_data") expected_kernel_events_ |= kExpectVmFault;
    if (must == "fault") {
        if (!res.vm_fault)
            return fmt::format("{} returned {} without a VM fault; it must fault", call,
                               hip_code_name(e));
        return {}; // the buffer's expected contents stay: a later verify proves nothing landed
    }
    if (e != hipSuccess || res.vm_fault)
        return fmt::format("{} returned {}{}; it must succeed", call, hip_code_name(e),
                           res.vm_fault ? " with a VM fault" : "");
    if (r.buf && r.offset >= 0 && static_cast<size_t>(r.offset) + n <= r.buf->bytes + r.buf->guard)
        r.buf->expect.set_bytes(r.buf->guard + static_cast<size_t>(r.offset), data.data(), n);
    return {};
}

// Changes one byte on the device without telling the model: the next
// verify must notice (proves the guard and payload checks can fail).
std::string Interpreter::corrupt(Buffer &b, bool guard) const {
    if (guard && b.guard == 0) return "corrupt_guard needs a buffer with guard bytes";
    if (!guard && b.bytes == 0) return "corrupt_payload needs a non-empty buffer";
    const size_t at = guard ? b.guard - 1 : b.guard + b.bytes / 2;
    uint8_t v = static_cast<uint8_t>(b.expect.at(at) ^ 0xff);
    hipError_t e = hipMemcpyHtoD(b.base + at, &v, 1);
    if (e != hipSuccess) return "hipMemcpyHtoD for the corruption returned " + hip_code_name(e);
    return {};
}

} // namespace harness::runner::detail
