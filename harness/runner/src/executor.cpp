#include "runner/executor.hpp"

#include "cases/hip_codes.hpp"
#include "cases/pattern.hpp"
#include "cases/step_table.hpp"

#include <peer/hip_peer.h>
#include <peer/peer_debug.h>

#include <fmt/format.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <set>
#include <unistd.h>

namespace harness::runner {

using namespace harness::cases;

namespace {

// Seed of the guard pattern, distinct from any fill a case chooses.
constexpr uint64_t kGuardSeed = 0x6a09e667f3bcc908ull;
constexpr int kUntouched = 0x5a5a5a5a;

uint64_t name_hash(const std::string &s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s)
        h = (h ^ c) * 0x100000001b3ull;
    return h;
}

// One allocation made by the case, and what it must contain.
struct Buffer {
    char *base = nullptr; // allocation start (before the leading guard)
    size_t alloc_bytes = 0;
    size_t guard = 0;
    size_t bytes = 0; // payload the case asked for
    int device = -1;
    bool live = false;
    bool payload_known = false;
    std::vector<uint8_t> expect; // whole allocation, guards included
    char *payload() const { return base + guard; }
};

struct StepError {
    std::string message;
};

class Interpreter {
  public:
    Interpreter(const Instance &in, const Topology &t) : in_(in), topo_(t) {}

    nlohmann::json run() {
        nlohmann::json out;
        out["failures"] = nlohmann::json::array();
        out["kernel_errors"] = nlohmann::json::array();
        int index = 0, ran = 0;
        for (const auto &step : in_.kase->steps) {
            ++index;
            if (!in_.runs(step)) continue;
            ++ran;
            peerClearLastKernelError();
            std::string failure = execute(step);
            if (failure.empty()) continue;
            out["failures"].push_back({{"step", index},
                                       {"file", step.at.file},
                                       {"line", step.at.line},
                                       {"message", std::string(step.spec->name) + ": " + failure},
                                       {"doc", step.doc}});
            const char *k = peerLastKernelError();
            if (k && *k) out["kernel_errors"].push_back(k);
            break;
        }
        out["steps_run"] = ran;
        out["status"] = out["failures"].empty() ? "pass" : "fail";
        return out;
    }

  private:
    const Instance &in_;
    const Topology &topo_;
    std::map<std::string, Buffer> buffers_;
    std::map<std::string, int64_t> sizes_;  // NAME.bytes
    std::set<std::pair<int, int>> enabled_; // (current device, peer) as this case enabled
    std::vector<uint8_t> host_scratch_ = std::vector<uint8_t>(64);

    int64_t eval(const Expr &e) const {
        auto r = e.evaluate([&](const std::string &v) { return in_.lookup(v, sizes_); });
        if (auto *m = std::get_if<std::string>(&r))
            throw StepError{"expression '" + e.text() + "': " + *m};
        return std::get<int64_t>(r);
    }
    int64_t num(const Step &s, const char *name, int64_t fallback) const {
        const Arg *a = s.arg(name);
        return a ? eval(a->expr) : fallback;
    }
    std::string word(const Step &s, const char *name, const std::string &fallback) const {
        const Arg *a = s.arg(name);
        if (!a) return fallback;
        if (!a->word.empty() && a->word[0] == '$') return in_.words.at(a->word.substr(1));
        return a->word;
    }
    Buffer &buffer(const std::string &name) {
        auto it = buffers_.find(name);
        if (it == buffers_.end()) throw StepError{"buffer '" + name + "' was never allocated"};
        return it->second;
    }
    // A pointer operand: its address, and the buffer + payload offset behind it.
    struct Resolved {
        void *ptr = nullptr;
        Buffer *buf = nullptr;
        int64_t offset = 0;
    };
    Resolved resolve(const PointerArg &p) {
        Resolved r;
        switch (p.base) {
        case PointerArg::Base::null:
            return r;
        case PointerArg::Base::host:
            r.ptr = host_scratch_.data();
            return r;
        case PointerArg::Base::buffer:
            r.buf = &buffer(p.buffer);
            r.offset = eval(p.offset);
            // Device addresses are numbers to the host: integer arithmetic, so
            // an offset past the allocation (on purpose) is not host UB.
            r.ptr = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(r.buf->payload()) +
                                             static_cast<uintptr_t>(r.offset));
            return r;
        }
        return r;
    }
    std::string code_check(const Step &s, hipError_t got, const std::string &call) const {
        if (static_cast<int>(got) == s.expect) return {};
        return fmt::format("{} returned {}, expected {}", call, hip_code_name(got), s.expect_name);
    }
    std::string set_current(int device) {
        hipError_t e = hipSetDevice(device);
        if (e != hipSuccess)
            return fmt::format("hipSetDevice({}) returned {} while preparing the step", device,
                               hip_code_name(e));
        return {};
    }

    std::string execute(const Step &s) {
        try {
            return dispatch(s);
        } catch (const StepError &e) {
            return e.message;
        }
    }

    std::string dispatch(const Step &s) {
        switch (s.spec->kind) {
        case StepKind::set_device: {
            int d = static_cast<int>(num(s, "device", 0));
            return code_check(s, hipSetDevice(d), fmt::format("hipSetDevice({})", d));
        }
        case StepKind::get_device: {
            int d = -1;
            hipError_t e = hipGetDevice(&d);
            if (auto m = code_check(s, e, "hipGetDevice"); !m.empty()) return m;
            int64_t want = eval(s.arg("expect_value")->check.value);
            if (e == hipSuccess && d != want)
                return fmt::format("hipGetDevice reported {}, expected {}", d, want);
            return {};
        }
        case StepKind::get_device_count: {
            int n = -1;
            hipError_t e = hipGetDeviceCount(&n);
            if (auto m = code_check(s, e, "hipGetDeviceCount"); !m.empty()) return m;
            const CheckArg &c = s.arg("expect_value")->check;
            int64_t want = c.kind == CheckArg::Kind::topology ? topo_.device_count : eval(c.value);
            if (n != want)
                return fmt::format("hipGetDeviceCount reported {}, expected {}{}", n, want,
                                   c.kind == CheckArg::Kind::topology ? " (KFD topology)" : "");
            return {};
        }
        case StepKind::alloc:
            return alloc(s);
        case StepKind::free: {
            Buffer &b = buffer(s.arg("buffer")->word);
            hipError_t e = hipFree(b.base);
            if (e == hipSuccess) b.live = false;
            return code_check(s, e, "hipFree(" + s.arg("buffer")->word + ")");
        }
        case StepKind::fill: {
            Buffer &b = buffer(s.arg("buffer")->word);
            PatternKind k = pattern_kind(word(s, "pattern", "lfsr"));
            fill_pattern(k, static_cast<uint64_t>(num(s, "seed", 1)), 0, b.expect.data() + b.guard,
                         b.bytes);
            hipError_t e = hipMemcpyHtoD(b.payload(), b.expect.data() + b.guard, b.bytes);
            if (e == hipSuccess) b.payload_known = true;
            return code_check(s, e, "hipMemcpyHtoD (fill)");
        }
        case StepKind::can_access_peer:
            return can_access(s);
        case StepKind::enable_peer_access: {
            if (const Arg *d = s.arg("device"))
                if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
            int peer = static_cast<int>(num(s, "peer", 0));
            unsigned flags = static_cast<unsigned>(num(s, "flags", 0));
            int cur = -1;
            hipGetDevice(&cur);
            hipError_t e = hipDeviceEnablePeerAccess(peer, flags);
            if (e == hipSuccess) enabled_.insert({cur, peer});
            return code_check(
                s, e,
                fmt::format("hipDeviceEnablePeerAccess({}, {}) on device {}", peer, flags, cur));
        }
        case StepKind::disable_peer_access: {
            if (const Arg *d = s.arg("device"))
                if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
            int peer = static_cast<int>(num(s, "peer", 0));
            int cur = -1;
            hipGetDevice(&cur);
            hipError_t e = hipDeviceDisablePeerAccess(peer);
            if (e == hipSuccess) enabled_.erase({cur, peer});
            return code_check(
                s, e, fmt::format("hipDeviceDisablePeerAccess({}) on device {}", peer, cur));
        }
        case StepKind::device_reset: {
            if (const Arg *d = s.arg("device"))
                if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
            int cur = -1;
            hipGetDevice(&cur);
            hipError_t e = hipDeviceReset();
            if (e == hipSuccess) {
                // peer-api-spec.md §2 hipDeviceReset: C's allocations are freed
                // and C's enabled state is cleared.
                for (auto &[name, b] : buffers_)
                    if (b.device == cur) b.live = false;
                std::erase_if(enabled_, [&](const auto &p) { return p.first == cur; });
            }
            return code_check(s, e, fmt::format("hipDeviceReset on device {}", cur));
        }
        case StepKind::get_address_range:
            return address_range(s);
        case StepKind::memcpy_peer:
            return memcpy_peer(s);
        case StepKind::verify:
            return verify(buffer(s.arg("buffer")->word), s.arg("buffer")->word);
        case StepKind::raw_sdma_read:
            return raw_read(s);
        case StepKind::raw_sdma_write:
            return raw_write(s);
        case StepKind::error_name: {
            const std::string code = word(s, "code", "");
            int v = hip_code_value(code).value_or(-1);
            const char *n = hipGetErrorName(static_cast<hipError_t>(v));
            const char *t = hipGetErrorString(static_cast<hipError_t>(v));
            if (!n || code != n)
                return fmt::format("hipGetErrorName({}) returned \"{}\", expected \"{}\"", v,
                                   n ? n : "(null)", code);
            if (!t || !*t) return fmt::format("hipGetErrorString({}) returned an empty text", v);
            return {};
        }
        case StepKind::selftest: {
            const std::string action = word(s, "action", "pass");
            if (action == "corrupt_guard" || action == "corrupt_payload") {
                const Arg *b = s.arg("buffer");
                if (!b) return "selftest " + action + " needs a buffer";
                return corrupt(buffer(b->word), action == "corrupt_guard");
            }
            return selftest(action);
        }
        }
        return "step kind not handled by the interpreter";
    }

    std::string alloc(const Step &s) {
        const std::string name = s.arg("as")->word;
        Buffer b;
        b.device = static_cast<int>(num(s, "device", 0));
        b.bytes = static_cast<size_t>(num(s, "bytes", 0));
        b.guard = static_cast<size_t>(num(s, "guard", 0));
        b.alloc_bytes = b.bytes + 2 * b.guard;
        sizes_[name + ".bytes"] = static_cast<int64_t>(b.bytes);
        int prev = 0;
        hipGetDevice(&prev);
        if (auto m = set_current(b.device); !m.empty()) return m;
        void *p = nullptr;
        hipError_t e = hipMalloc(&p, b.alloc_bytes);
        hipSetDevice(prev);
        if (auto m = code_check(s, e,
                                fmt::format("hipMalloc({}) on device {}", b.alloc_bytes, b.device));
            !m.empty())
            return m;
        if (e != hipSuccess) return {};
        b.base = static_cast<char *>(p);
        b.live = true;
        b.expect.resize(b.alloc_bytes);
        const uint64_t gseed = kGuardSeed ^ name_hash(name);
        fill_pattern(PatternKind::lfsr, gseed, 0, b.expect.data(), b.guard);
        fill_pattern(PatternKind::lfsr, gseed, b.guard + b.bytes,
                     b.expect.data() + b.guard + b.bytes, b.guard);
        const Arg *fill = s.arg("fill");
        PatternArg pat = fill ? fill->pattern : PatternArg{};
        if (!fill) pat.seed = Expr::constant(static_cast<int64_t>(name_hash(name) & 0xffff));
        if (pat.kind != "none") {
            std::string kind = pat.kind[0] == '$' ? in_.words.at(pat.kind.substr(1)) : pat.kind;
            fill_pattern(pattern_kind(kind), static_cast<uint64_t>(eval(pat.seed)), 0,
                         b.expect.data() + b.guard, b.bytes);
            b.payload_known = true;
        }
        if (b.alloc_bytes > 0) {
            hipError_t h = b.payload_known ? hipMemcpyHtoD(b.base, b.expect.data(), b.alloc_bytes)
                                           : hipSuccess;
            if (!b.payload_known && b.guard > 0) {
                h = hipMemcpyHtoD(b.base, b.expect.data(), b.guard);
                if (h == hipSuccess)
                    h = hipMemcpyHtoD(b.payload() + b.bytes, b.expect.data() + b.guard + b.bytes,
                                      b.guard);
            }
            if (h != hipSuccess) {
                buffers_[name] = std::move(b);
                return fmt::format("hipMemcpyHtoD filling '{}' returned {}", name,
                                   hip_code_name(h));
            }
        }
        buffers_[name] = std::move(b);
        return {};
    }

    std::string can_access(const Step &s) {
        int dev = static_cast<int>(num(s, "device", 0));
        int peer = static_cast<int>(num(s, "peer", 0));
        int value = kUntouched;
        bool null_out = word(s, "out", "out") == "null";
        hipError_t e = hipDeviceCanAccessPeer(null_out ? nullptr : &value, dev, peer);
        std::string call = fmt::format("hipDeviceCanAccessPeer({}, {}, {})",
                                       null_out ? "NULL" : "&out", dev, peer);
        if (auto m = code_check(s, e, call); !m.empty()) return m;
        if (null_out) return {};
        // Without expect_value: a success is checked against the topology, an
        // error must leave the output alone.
        CheckArg c;
        if (const Arg *a = s.arg("expect_value"))
            c = a->check;
        else
            c.kind = e == hipSuccess ? CheckArg::Kind::topology : CheckArg::Kind::untouched;
        if (c.kind == CheckArg::Kind::untouched) {
            if (value != kUntouched)
                return fmt::format("{} wrote {} to its output, expected it untouched", call, value);
            return {};
        }
        int64_t want;
        if (c.kind == CheckArg::Kind::topology) {
            if (dev < 0 || peer < 0 || dev >= topo_.device_count || peer >= topo_.device_count)
                return fmt::format("expect_value topology needs valid ids, got {} and {}", dev,
                                   peer);
            want = topo_.can_access(dev, peer) ? 1 : 0;
        } else {
            want = eval(c.value);
        }
        if (value != want)
            return fmt::format("{} wrote {}, expected {}{}", call, value, want,
                               c.kind == CheckArg::Kind::topology
                                   ? fmt::format(" (KFD topology: {} link, {})",
                                                 link_type_name(topo_.link_type(dev, peer)),
                                                 want ? "direct access" : "no direct access")
                                   : std::string());
        return {};
    }

    std::string address_range(const Step &s) {
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

    std::string expected_path(int dst_dev, int src_dev) const {
        if (dst_dev == src_dev) return "same_device";
        if (enabled_.count({dst_dev, src_dev}) || enabled_.count({src_dev, dst_dev}))
            return "direct";
        return "staged";
    }

    std::string memcpy_peer(const Step &s) {
        Resolved dst = resolve(s.arg("dst")->pointer);
        Resolved src = resolve(s.arg("src")->pointer);
        int dd = static_cast<int>(num(s, "dst_device", 0));
        int sd = static_cast<int>(num(s, "src_device", 0));
        size_t n = static_cast<size_t>(num(s, "bytes", 0));
        hipError_t e = hipMemcpyPeer(dst.ptr, dd, src.ptr, sd, n);
        std::string call = fmt::format("hipMemcpyPeer(dst, {}, src, {}, {})", dd, sd, n);
        if (auto m = code_check(s, e, call); !m.empty()) return m;
        if (e != hipSuccess || n == 0) return {};
        if (dst.buf && src.buf) {
            // The destination must now hold the source's bytes.
            const uint8_t *from = src.buf->expect.data() + src.buf->guard + src.offset;
            uint8_t *to = dst.buf->expect.data() + dst.buf->guard + dst.offset;
            if (dst.offset < 0 || src.offset < 0 ||
                static_cast<size_t>(dst.offset) + n > dst.buf->alloc_bytes - dst.buf->guard ||
                static_cast<size_t>(src.offset) + n > src.buf->alloc_bytes - src.buf->guard)
                return fmt::format("{} succeeded on a range outside the buffers", call);
            std::memmove(to, from, n);
            dst.buf->payload_known = dst.buf->payload_known && src.buf->payload_known;
        }
        std::string path = word(s, "path", "");
        if (!path.empty()) {
            if (path == "expected") path = expected_path(dd, sd);
            peerCopyPath want = path == "direct"   ? peerCopyPathDirect
                                : path == "staged" ? peerCopyPathStaged
                                                   : peerCopyPathSameDevice;
            peerCopyPath got = peerLastCopyPath();
            if (got != want) {
                const char *g = peerCopyPathName(got);
                return fmt::format("{} took the {} path, expected {}", call, g ? g : "?", path);
            }
        }
        return {};
    }

    std::string verify(Buffer &b, const std::string &name) {
        if (!b.live) return "buffer '" + name + "' is not allocated (freed or reset)";
        std::vector<uint8_t> got(b.alloc_bytes);
        if (b.alloc_bytes == 0) return {};
        hipError_t e = hipMemcpyDtoH(got.data(), b.base, b.alloc_bytes);
        if (e != hipSuccess)
            return fmt::format("hipMemcpyDtoH reading '{}' back returned {}", name,
                               hip_code_name(e));
        size_t bad = 0, first = SIZE_MAX;
        for (size_t i = 0; i < b.alloc_bytes; ++i) {
            bool in_payload = i >= b.guard && i < b.guard + b.bytes;
            if (in_payload && !b.payload_known) continue;
            if (got[i] != b.expect[i]) {
                ++bad;
                if (first == SIZE_MAX) first = i;
            }
        }
        if (!bad) return {};
        std::string where;
        if (first < b.guard)
            where = fmt::format("guard before the buffer, byte -{}", b.guard - first);
        else if (first >= b.guard + b.bytes)
            where = fmt::format("guard after the buffer, byte +{}", first - b.guard - b.bytes);
        else
            where = fmt::format("offset {}", first - b.guard);
        return fmt::format("'{}' differs from the expected contents in {} byte(s); first at {}: "
                           "0x{:02x}, expected 0x{:02x}",
                           name, bad, where, got[first], b.expect[first]);
    }

    std::string raw_read(const Step &s) {
        int dev = static_cast<int>(num(s, "device", 0));
        Resolved r = resolve(s.arg("src")->pointer);
        size_t n = static_cast<size_t>(num(s, "bytes", 0));
        std::string must = word(s, "must", "succeed");
        std::vector<uint8_t> got(n, 0);
        peerRawAccessResult res{};
        hipError_t e = peerRawSdmaRead(dev, r.ptr, got.data(), n, &res);
        std::string call = fmt::format("peerRawSdmaRead(device {}, {}, {} bytes)", dev, r.ptr, n);
        bool data_ok = false;
        if (r.buf && r.offset >= 0 &&
            static_cast<size_t>(r.offset) + n <= r.buf->bytes + r.buf->guard)
            data_ok =
                std::memcmp(got.data(), r.buf->expect.data() + r.buf->guard + r.offset, n) == 0;
        if (must == "fault") {
            if (!res.vm_fault)
                return fmt::format("{} returned {} without a VM fault; it must fault", call,
                                   hip_code_name(e));
            return {};
        }
        if (must == "not_return_data") {
            if (res.vm_fault || e != hipSuccess || !data_ok) return {};
            return fmt::format("{} returned the buffer's bytes; access must have been revoked",
                               call);
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

    std::string raw_write(const Step &s) {
        int dev = static_cast<int>(num(s, "device", 0));
        Resolved r = resolve(s.arg("dst")->pointer);
        size_t n = static_cast<size_t>(num(s, "bytes", 0));
        std::string must = word(s, "must", "succeed");
        std::vector<uint8_t> data(n);
        fill_pattern(PatternKind::lfsr, static_cast<uint64_t>(num(s, "seed", 99)),
                     static_cast<uint64_t>(r.offset), data.data(), n);
        peerRawAccessResult res{};
        hipError_t e = peerRawSdmaWrite(dev, r.ptr, data.data(), n, &res);
        std::string call = fmt::format("peerRawSdmaWrite(device {}, {}, {} bytes)", dev, r.ptr, n);
        if (must == "fault") {
            if (!res.vm_fault)
                return fmt::format("{} returned {} without a VM fault; it must fault", call,
                                   hip_code_name(e));
            return {}; // the buffer's expected contents stay: a later verify proves nothing landed
        }
        if (e != hipSuccess || res.vm_fault)
            return fmt::format("{} returned {}{}; it must succeed", call, hip_code_name(e),
                               res.vm_fault ? " with a VM fault" : "");
        if (r.buf && r.offset >= 0 && static_cast<size_t>(r.offset) + n <= r.buf->bytes)
            std::memcpy(r.buf->expect.data() + r.buf->guard + r.offset, data.data(), n);
        return {};
    }

    // Changes one byte on the device without telling the model: the next
    // verify must notice (proves the guard and payload checks can fail).
    static std::string corrupt(Buffer &b, bool guard) {
        if (guard && b.guard == 0) return "corrupt_guard needs a buffer with guard bytes";
        if (!guard && b.bytes == 0) return "corrupt_payload needs a non-empty buffer";
        const size_t at = guard ? b.guard - 1 : b.guard + b.bytes / 2;
        uint8_t v = static_cast<uint8_t>(b.expect[at] ^ 0xff);
        hipError_t e = hipMemcpyHtoD(b.base + at, &v, 1);
        if (e != hipSuccess) return "hipMemcpyHtoD for the corruption returned " + hip_code_name(e);
        return {};
    }

    static std::string selftest(const std::string &action) {
        if (action == "fail") return "failing on purpose";
        if (action == "crash") std::raise(SIGSEGV);
        if (action == "abort") std::abort();
        if (action == "hang")
            for (;;)
                pause();
        return {};
    }
};

} // namespace

nlohmann::json execute_instance(const Instance &instance, const Topology &topology) {
    return Interpreter(instance, topology).run();
}

} // namespace harness::runner
