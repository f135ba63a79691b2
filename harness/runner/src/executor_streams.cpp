// Steps of the wider HIP surface: hipMemcpy with a kind, hipMemcpyAsync and
// the stream steps (synchronize, query, hold/release through
// hipStreamWaitValue32 on a pinned word the case owns).
#include "executor_impl.hpp"
#include "executor_kernel.hpp" // complete KernelState for the destructor

#include "cases/step_table.hpp"

#include <atomic>
#include <cstring>

namespace harness::runner::detail {

namespace {

hipMemcpyKind kind_of(const std::string &w) {
    if (w == "host_to_host") return hipMemcpyHostToHost;
    if (w == "host_to_device") return hipMemcpyHostToDevice;
    if (w == "device_to_host") return hipMemcpyDeviceToHost;
    if (w == "device_to_device") return hipMemcpyDeviceToDevice;
    if (w == "default") return hipMemcpyDefault;
    return static_cast<hipMemcpyKind>(7); // `invalid`: no such kind
}

void store_word(uint32_t *w, uint32_t v) {
    reinterpret_cast<std::atomic<uint32_t> *>(w)->store(v);
}

} // namespace

// Cleanup after the instance, whatever it did: a held engine is released
// first (or it would run into the job timeout and poison the device for the
// next instance), then the case's stream is drained and destroyed. Failures
// here have no step to report to; the instance's verdict is already made.
Interpreter::~Interpreter() {
    if (hold_word_) store_word(hold_word_, 1);
    release_events_and_callbacks();
    if (stream_) {
        (void)hipStreamSynchronize(stream_);
        (void)hipStreamDestroy(stream_);
    }
    if (hold_word_) {
        (void)hipDeviceSynchronize();
        (void)hipHostFree(hold_word_);
    }
    release_host_buffers();
    (void)hipGetLastError();
}

std::string Interpreter::stream_of(const Step &s, hipStream_t &out) {
    const std::string w = word(s, "stream", "null");
    out = nullptr;
    if (w == "null") return {};
    if (!stream_) {
        if (hipError_t e = hipStreamCreate(&stream_); e != hipSuccess)
            return fmt::format("hipStreamCreate returned {} while preparing the step",
                               hip_code_name(e));
    }
    if (w == "created") {
        out = stream_;
        return {};
    }
    // `destroyed`: a handle hipStreamDestroy has ended (made after the case's
    // own stream, so that stream cannot take its place).
    if (!destroyed_stream_) {
        hipStream_t t = nullptr;
        if (hipError_t e = hipStreamCreate(&t); e != hipSuccess)
            return fmt::format("hipStreamCreate returned {} while preparing the step",
                               hip_code_name(e));
        if (hipError_t e = hipStreamDestroy(t); e != hipSuccess)
            return fmt::format("hipStreamDestroy returned {} while preparing the step",
                               hip_code_name(e));
        destroyed_stream_ = t;
    }
    out = destroyed_stream_;
    return {};
}

std::string Interpreter::memcpy_kind(const Step &s) {
    const bool async = s.spec->kind == StepKind::memcpy_async;
    Resolved dst = resolve(s.arg("dst")->pointer);
    Resolved src = resolve(s.arg("src")->pointer);
    const size_t n = static_cast<size_t>(num(s, "bytes", 0));
    const std::string kw = word(s, "kind", "default");
    const hipMemcpyKind kind = kind_of(kw);
    const bool host_dst = s.arg("dst")->pointer.base == PointerArg::Base::host;
    const bool host_src = s.arg("src")->pointer.base == PointerArg::Base::host;
    if ((host_dst || host_src) && n > host_scratch_.size())
        throw StepError{fmt::format("a host pointer names {} scratch bytes; {} asked",
                                    host_scratch_.size(), n)};
    hipStream_t st = nullptr;
    if (async)
        if (auto m = stream_of(s, st); !m.empty()) return m;
    const hipError_t e = async ? hipMemcpyAsync(dst.ptr, src.ptr, n, kind, st)
                               : hipMemcpy(dst.ptr, src.ptr, n, kind);
    const std::string call =
        fmt::format("{}(dst, src, {}, {}{})", async ? "hipMemcpyAsync" : "hipMemcpy", n, kw,
                    async ? ", " + word(s, "stream", "null") : "");
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || n == 0) return {};
    auto in_payload = [&](const Resolved &r) {
        return r.offset >= 0 && static_cast<size_t>(r.offset) + n <= r.buf->bytes;
    };
    if (dst.buf && !in_payload(dst))
        return fmt::format("{} succeeded on a range outside the destination buffer", call);
    if (src.buf && !in_payload(src))
        return fmt::format("{} succeeded on a range outside the source buffer", call);
    // What the destination must hold now (a queued copy: once it completes;
    // verify reads back through a synchronous call, which waits for streams).
    if (dst.buf) {
        const size_t to = dst.buf->guard + static_cast<size_t>(dst.offset);
        if (src.buf) {
            dst.buf->expect.copy_from(to, src.buf->expect,
                                      src.buf->guard + static_cast<size_t>(src.offset), n);
            dst.buf->payload_known = dst.buf->payload_known && src.buf->payload_known;
        } else if (host_src) {
            dst.buf->expect.set_bytes(to, host_scratch_.data(), n);
        }
    }
    // A synchronous copy to the host is checked here, byte for byte.
    if (!async && host_dst && src.buf && src.buf->payload_known &&
        std::memcmp(
            host_scratch_.data(),
            expected_bytes(*src.buf, src.buf->guard + static_cast<size_t>(src.offset), n).data(),
            n) != 0)
        return fmt::format("{} delivered bytes that differ from the source's", call);
    return {};
}

std::string Interpreter::stream_step(const Step &s) {
    hipStream_t st = nullptr;
    if (auto m = stream_of(s, st); !m.empty()) return m;
    const std::string name = word(s, "stream", "null");
    switch (s.spec->kind) {
    case StepKind::stream_synchronize: {
        const hipError_t e = hipStreamSynchronize(st);
        if (auto m = code_check(s, e, fmt::format("hipStreamSynchronize({})", name)); !m.empty())
            return m;
        return e == hipSuccess ? callbacks_ran(st, name) : std::string{};
    }
    case StepKind::stream_query:
        return code_check(s, hipStreamQuery(st), fmt::format("hipStreamQuery({})", name));
    case StepKind::stream_hold: {
        if (!hold_word_) {
            void *p = nullptr;
            if (hipError_t e = hipHostMalloc(&p, sizeof(uint32_t), 0); e != hipSuccess)
                return fmt::format("hipHostMalloc of the hold word returned {}", hip_code_name(e));
            hold_word_ = static_cast<uint32_t *>(p);
        }
        store_word(hold_word_, 0);
        return code_check(
            s, hipStreamWaitValue32(st, hold_word_, 1, hipStreamWaitValueEq, 0xffffffffu),
            fmt::format("hipStreamWaitValue32({}, word, 1, Eq)", name));
    }
    case StepKind::stream_release:
        if (!hold_word_) throw StepError{"stream_release without a stream_hold before it"};
        store_word(hold_word_, 1);
        return {};
    default:
        break;
    }
    throw StepError{"not a stream step"};
}

} // namespace harness::runner::detail
