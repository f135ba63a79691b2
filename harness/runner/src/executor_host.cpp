// Steps of harness/peer/CONTRACT.md §5.7: pinned host memory (hipHostMalloc,
// hipHostFree, hipHostRegister, hipHostUnregister, hipHostGetDevicePointer),
// hipMemGetInfo, hipMemcpyPeerAsync, hipStreamCreate / hipStreamDestroy and
// hipGetLastError / hipPeekAtLastError. Host buffers live in the same
// namespace as device buffers, so memcpy, memcpy_async and verify use them.
#include "executor_impl.hpp"
#include "pattern_cache.hpp"

#include "cases/pattern.hpp"
#include "cases/step_table.hpp"

#include <algorithm>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace harness::runner::detail {

namespace {

unsigned host_malloc_flags(const std::string &w) {
    if (w == "portable") return hipHostMallocPortable;
    if (w == "mapped") return hipHostMallocMapped;
    if (w == "coherent_and_noncoherent") return hipHostMallocCoherent | hipHostMallocNonCoherent;
    if (w == "unknown_bit") return 0x00100000u; // no hipHostMalloc* flag has this bit
    return hipHostMallocDefault;
}

unsigned register_flags(const std::string &w) {
    if (w == "mapped") return hipHostRegisterMapped;
    if (w == "io_memory") return hipHostRegisterIoMemory;
    if (w == "unknown_bit") return 0x00100000u; // no hipHostRegister* flag has this bit
    return hipHostRegisterDefault;
}

size_t page_size() {
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<size_t>(p) : 4096;
}

// Host memory the case names: writes the pattern both into the memory and
// into the model, so a later verify or copy has known bytes.
void fill_host(Buffer &b, const std::string &name, PatternCache &patterns) {
    b.expect.reset(b.alloc_bytes);
    b.expect.set_pattern(0, b.bytes, PatternKind::lfsr, name_hash(name) & 0xffff, 0);
    if (b.bytes) b.expect.read(0, reinterpret_cast<uint8_t *>(b.base), b.bytes, patterns);
    b.payload_known = true;
}

} // namespace

// Called by ~Interpreter after the streams are drained: registered ranges
// are unregistered, pinned memory freed, the case's pageable memory unmapped.
void Interpreter::release_host_buffers() {
    for (auto &[name, b] : buffers_) {
        if (b.host == Buffer::Host::no) continue;
        if (b.registered) (void)hipHostUnregister(b.base);
        if (b.host == Buffer::Host::pinned && b.live) (void)hipHostFree(b.base);
        if (b.host == Buffer::Host::pageable && b.base) munmap(b.base, b.alloc_bytes);
        b.live = false;
        b.registered = false;
    }
}

std::string Interpreter::memcpy_peer_async(const Step &s) {
    Resolved dst = resolve(s.arg("dst")->pointer);
    Resolved src = resolve(s.arg("src")->pointer);
    const int dd = static_cast<int>(num(s, "dst_device", 0));
    const int sd = static_cast<int>(num(s, "src_device", 0));
    const size_t n = static_cast<size_t>(num(s, "bytes", 0));
    hipStream_t st = nullptr;
    if (auto m = stream_of(s, st); !m.empty()) return m;
    poison(sd, dd, n);
    const hipError_t e = dd == sd && rocclr_copy(dst.ptr, src.ptr, n, true)
                             ? hipSuccess
                             : hipMemcpyPeerAsync(dst.ptr, dd, src.ptr, sd, n, st);
    const std::string call = fmt::format("hipMemcpyPeerAsync(dst, {}, src, {}, {}, {})", dd, sd, n,
                                         word(s, "stream", "null"));
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || n == 0 || !dst.buf || !src.buf) return {};
    if (dst.offset < 0 || src.offset < 0 || static_cast<size_t>(dst.offset) + n > dst.buf->bytes ||
        static_cast<size_t>(src.offset) + n > src.buf->bytes)
        return fmt::format("{} succeeded on a range outside the buffers", call);
    // Once the stream's work completes the destination holds the source's
    // bytes; verify waits for the streams (a synchronous read-back).
    dst.buf->expect.copy_from(dst.buf->guard + static_cast<size_t>(dst.offset), src.buf->expect,
                              src.buf->guard + static_cast<size_t>(src.offset), n);
    dst.buf->payload_known = dst.buf->payload_known && src.buf->payload_known;
    return {};
}

std::string Interpreter::host_step(const Step &s) {
    switch (s.spec->kind) {
    case StepKind::host_pageable: {
        const std::string name = s.arg("as")->word;
        Buffer b = new_buffer();
        b.host = Buffer::Host::pageable;
        b.bytes = static_cast<size_t>(num(s, "bytes", 0));
        if (b.bytes == 0) throw StepError{"host_pageable needs bytes > 0"};
        b.alloc_bytes = (b.bytes + page_size() - 1) / page_size() * page_size();
        void *p = mmap(nullptr, b.alloc_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (p == MAP_FAILED) throw StepError{fmt::format("mmap of {} bytes failed", b.bytes)};
        b.base = static_cast<char *>(p);
        b.live = true;
        b.alloc_bytes = b.bytes; // verify compares the bytes the case asked for
        sizes_[name + ".bytes"] = static_cast<int64_t>(b.bytes);
        fill_host(b, name, ws_.patterns());
        buffers_[name] = std::move(b);
        return {};
    }
    case StepKind::host_malloc: {
        const size_t n = static_cast<size_t>(num(s, "bytes", 0));
        const std::string fw = word(s, "flags", "default");
        void *p = nullptr;
        const hipError_t e = hipHostMalloc(&p, n, host_malloc_flags(fw));
        if (auto m = code_check(s, e, fmt::format("hipHostMalloc(&p, {}, {})", n, fw));
            !m.empty()) {
            if (e == hipSuccess) (void)hipHostFree(p);
            return m;
        }
        if (e != hipSuccess) return {};
        if (n > 0 && !p) return fmt::format("hipHostMalloc({}) succeeded with a NULL pointer", n);
        const Arg *as = s.arg("as");
        if (!as) return n ? (hipHostFree(p) == hipSuccess ? "" : "hipHostFree failed") : "";
        Buffer b = new_buffer();
        b.host = Buffer::Host::pinned;
        b.base = static_cast<char *>(p);
        b.bytes = b.alloc_bytes = n;
        b.live = true;
        sizes_[as->word + ".bytes"] = static_cast<int64_t>(n);
        fill_host(b, as->word, ws_.patterns());
        buffers_[as->word] = std::move(b);
        return {};
    }
    case StepKind::host_free: {
        Resolved r = resolve(s.arg("ptr")->pointer);
        const hipError_t e = hipHostFree(r.ptr);
        if (auto m = code_check(s, e, "hipHostFree(" + s.arg("ptr")->text + ")"); !m.empty())
            return m;
        if (e == hipSuccess && r.buf) r.buf->live = false;
        return {};
    }
    case StepKind::host_register: {
        Resolved r = resolve(s.arg("ptr")->pointer);
        const size_t n = static_cast<size_t>(num(s, "bytes", 0));
        const std::string fw = word(s, "flags", "default");
        const hipError_t e = hipHostRegister(r.ptr, n, register_flags(fw));
        const std::string call = fmt::format(
            "hipHostRegister({}, {}, {})",
            s.arg("ptr")->text.empty() ? std::string("ptr") : s.arg("ptr")->text, n, fw);
        if (e == hipSuccess) {
            // Whatever the case expected, a registered range is unregistered
            // at the end: the host scratch is not ours to leave pinned.
            if (!r.buf)
                (void)hipHostUnregister(r.ptr);
            else if (r.offset == 0)
                r.buf->registered = true;
            else
                (void)hipHostUnregister(r.ptr);
        }
        return code_check(s, e, call);
    }
    case StepKind::host_unregister: {
        Resolved r = resolve(s.arg("ptr")->pointer);
        const hipError_t e = hipHostUnregister(r.ptr);
        if (e == hipSuccess && r.buf) r.buf->registered = false;
        return code_check(s, e, "hipHostUnregister(" + s.arg("ptr")->text + ")");
    }
    default:
        break;
    }
    throw StepError{"not a host memory step"};
}

std::string Interpreter::host_get_device_pointer(const Step &s) {
    Resolved r = resolve(s.arg("ptr")->pointer);
    const unsigned flags = static_cast<unsigned>(num(s, "flags", 0));
    const bool null_out = word(s, "out", "out") == "null";
    void *dev = nullptr;
    const hipError_t e = hipHostGetDevicePointer(null_out ? nullptr : &dev, r.ptr, flags);
    const std::string call =
        fmt::format("hipHostGetDevicePointer({}, ptr, {})", null_out ? "NULL" : "&dev", flags);
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || null_out) return {};
    if (!dev) return call + " succeeded with a NULL device pointer";
    if (!r.buf) return {};
    // The device pointer names the same allocation: hipMemGetAddressRange
    // reports its size, and the bytes read through it are the host's.
    hipDeviceptr_t base = nullptr;
    size_t size = 0;
    if (hipError_t g = hipMemGetAddressRange(&base, &size, dev); g != hipSuccess)
        return fmt::format("hipMemGetAddressRange of the device pointer returned {}",
                           hip_code_name(g));
    if (size != r.buf->bytes ||
        reinterpret_cast<uintptr_t>(dev) - reinterpret_cast<uintptr_t>(base) !=
            static_cast<uintptr_t>(r.offset))
        return fmt::format("hipMemGetAddressRange of the device pointer reported size {} and "
                           "offset {}, expected {} and {}",
                           size,
                           reinterpret_cast<uintptr_t>(dev) - reinterpret_cast<uintptr_t>(base),
                           r.buf->bytes, r.offset);
    const size_t n = std::min(host_scratch_.size(), r.buf->bytes - static_cast<size_t>(r.offset));
    std::fill(host_scratch_.begin(), host_scratch_.end(), kPoison);
    if (hipError_t c = hipMemcpy(host_scratch_.data(), dev, n, hipMemcpyDeviceToHost);
        c != hipSuccess)
        return fmt::format("hipMemcpy DeviceToHost from the device pointer returned {}",
                           hip_code_name(c));
    if (std::memcmp(host_scratch_.data(), r.ptr, n) != 0)
        return fmt::format("{} bytes read through the device pointer differ from the host's", n);
    return {};
}

std::string Interpreter::mem_get_info(const Step &s) {
    size_t free_b = 0, total_b = 0;
    const bool nf = word(s, "free", "out") == "null", nt = word(s, "total", "out") == "null";
    const hipError_t e = hipMemGetInfo(nf ? nullptr : &free_b, nt ? nullptr : &total_b);
    const std::string call =
        fmt::format("hipMemGetInfo({}, {})", nf ? "NULL" : "&free", nt ? "NULL" : "&total");
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || nf || nt) return {};
    if (total_b == 0 || free_b > total_b)
        return fmt::format("{} reported free {} of total {}", call, free_b, total_b);
    return {};
}

std::string Interpreter::stream_lifetime(const Step &s) {
    if (s.spec->kind == StepKind::stream_create) {
        const bool null_out = word(s, "out", "out") == "null";
        if (!null_out && stream_)
            throw StepError{"stream_create: the case already has a created stream"};
        hipStream_t t = nullptr;
        const hipError_t e = hipStreamCreate(null_out ? nullptr : &t);
        if (e == hipSuccess) stream_ = t;
        if (auto m = code_check(s, e, null_out ? "hipStreamCreate(NULL)" : "hipStreamCreate(&s)");
            !m.empty())
            return m;
        if (e == hipSuccess && !t) return "hipStreamCreate succeeded with a NULL stream";
        if (e == hipSuccess)
            if (hipError_t q = hipStreamQuery(t); q != hipSuccess)
                return fmt::format("hipStreamQuery of the new stream returned {}",
                                   hip_code_name(q));
        return {};
    }
    const std::string name = word(s, "stream", "null");
    hipStream_t st = nullptr;
    // The stream this case destroyed is the `destroyed` handle as it is:
    // stream_of would first make a new `created` stream, which may reuse
    // the destroyed handle's address and make it valid again.
    if (name == "destroyed" && destroyed_stream_)
        st = destroyed_stream_;
    else if (auto m = stream_of(s, st); !m.empty())
        return m;
    const hipError_t e = hipStreamDestroy(st);
    if (e == hipSuccess && name == "created") {
        stream_ = nullptr;
        if (!destroyed_stream_) destroyed_stream_ = st;
    }
    return code_check(s, e, fmt::format("hipStreamDestroy({})", name));
}

std::string Interpreter::last_error(const Step &s) {
    const bool get = s.spec->kind == StepKind::get_last_error;
    return code_check(s, get ? hipGetLastError() : hipPeekAtLastError(),
                      get ? "hipGetLastError()" : "hipPeekAtLastError()");
}

} // namespace harness::runner::detail
