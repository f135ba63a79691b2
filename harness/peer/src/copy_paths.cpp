#include "copy_paths.hpp"

#include "thread_state.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace peer {
namespace {

hipError_t fail(const kmd::Status &s) {
    record_kernel_error(s);
    return Runtime::map_kernel_error(s);
}

// One COPY_LINEAR sequence as an IB; split at the engine's per-packet maximum.
hipError_t copy_ib(const PeerDevice &d, uint64_t src, uint64_t dst, uint64_t n,
                   std::vector<uint32_t> &ib) {
    ib.clear();
    if (sdma::copy_linear_split(ib, d.gen, src, dst, n, d.packet_max.load()) != sdma::Error::none)
        return hipErrorInvalidValue;
    return hipSuccess;
}

// Owner device and KMS handle of the live allocation holding [dev, dev + n).
// Read under Runtime::mu: a hipFree racing with the caller must make its job
// fail (unknown handle), never dereference a freed BO.
std::optional<std::pair<int, uint32_t>> owning_bo(Runtime &rt, uint64_t dev, uint64_t n) {
    std::lock_guard lock(rt.mu);
    const auto *e = rt.table.find_range(dev, n);
    if (!e) return std::nullopt;
    return std::pair{e->owner, kms_of(e->data->bo)};
}

// One job on the engine of the current path (KFD user queue or DRM CS).
JobOutcome run_ib(Runtime &rt, PeerDevice &d, std::span<const uint32_t> ib,
                  std::span<const uint32_t> bos) {
    return rt.kfd() ? rt.run_kfd_job(d, ib) : rt.run_job(d, ib, bos);
}

hipError_t run_copy(Runtime &rt, PeerDevice &d, uint64_t src, uint64_t dst, uint64_t n,
                    std::span<const uint32_t> bos) {
    std::vector<uint32_t> ib;
    if (hipError_t e = copy_ib(d, src, dst, n, ib); e != hipSuccess) return e;
    return run_ib(rt, d, ib, bos).status;
}

uint64_t host_now_ns() {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
}

// A one-job copy with SDMA TIMESTAMP (GET_GLOBAL) packets just before and
// just after its COPY_LINEAR packets, in the same IB: the engine executes its
// packets in order, so the difference is the copy's time on the GPU's own
// counter (amdgpu_ttm's copies carry no such packets; the placement is this
// harness's, as TransferBench brackets a transfer with its own timers).
// Without a clock buffer or a counter frequency the host clock times it.
hipError_t run_timed_copy(Runtime &rt, PeerDevice &d, uint64_t src, uint64_t dst, uint64_t n,
                          std::span<const uint32_t> job_bos, peerCopyTiming &t) {
    std::vector<uint32_t> ib;
    std::vector<uint32_t> bos(job_bos.begin(), job_bos.end());
    GttBuffer *clk = d.clock.get();
    const uint64_t khz = d.dev->info().gpu_counter_freq_khz;
    volatile uint64_t *stamp = nullptr;
    uint64_t stamp_va = 0;
    // The clock buffer is a DRM GTT BO; the KFD path's user queue is not
    // known to see it, so KFD copies are timed on the host (labelled so).
    if (clk && khz && !rt.kfd()) {
        const uint64_t slot = d.clock_slot.fetch_add(1) % (clk->bytes / 16);
        stamp = reinterpret_cast<volatile uint64_t *>(clk->cpu + slot * 16);
        stamp_va = clk->va + slot * 16;
        stamp[0] = 0;
        stamp[1] = 0;
        if (sdma::timestamp(ib, d.gen, stamp_va) != sdma::Error::none) {
            ib.clear();
            stamp = nullptr;
        }
    }
    if (sdma::copy_linear_split(ib, d.gen, src, dst, n, d.packet_max.load()) != sdma::Error::none)
        return hipErrorInvalidValue;
    if (stamp) {
        if (sdma::timestamp(ib, d.gen, stamp_va + 8) != sdma::Error::none)
            return hipErrorInvalidValue; // cannot happen: the first one was aligned
        bos.push_back(clk->bo->kms_handle());
    }
    const uint64_t t0 = host_now_ns();
    const hipError_t e = run_ib(rt, d, ib, bos).status;
    t = peerCopyTiming{};
    t.bytes = n;
    t.host_nanoseconds = host_now_ns() - t0;
    t.clock = peerCopyClockHostFence;
    t.nanoseconds = t.host_nanoseconds;
    t.engine_device = d.index;
    if (e != hipSuccess || !stamp) return e;
    const uint64_t begin = stamp[0], end = stamp[1];
    // An engine that ignored the packets leaves the zeros (or a value that
    // runs backwards): no GPU time, the host's figure stands, labelled as
    // such. A copy inside one tick is 0 ns on the GPU's clock, not a switch
    // of clocks, so two runs of one copy always name the same clock.
    if (begin != 0 && end >= begin) {
        t.clock = peerCopyClockSdmaTimestamp;
        t.counter_khz = khz;
        t.nanoseconds = static_cast<uint64_t>(static_cast<double>(end - begin) * 1e6 /
                                              static_cast<double>(khz));
    }
    return e;
}

void set_link(Runtime &rt, int from, int to, peerCopyTiming &t) {
    if (from == to) return;
    if (const kmd::Link *l = rt.link(from, to)) {
        t.link_type = l->type;
        t.link_max_mbytes = l->max_bandwidth_mbytes;
    }
}

} // namespace

namespace {

// Calls `chunk(d, st, bos, off, len)` for each staging-sized piece of
// [dev, dev + n), with the owner's staging buffer held; a chunk returns
// false in `more` to stop early.
template <class Chunk>
hipError_t through_staging(Runtime &rt, uint64_t dev, size_t n, Chunk chunk) {
    const auto range = owning_bo(rt, dev, n);
    if (!range) return hipErrorInvalidValue;
    const auto [owner, handle] = *range;
    PeerDevice &d = rt.device(owner);
    GttBuffer &st = rt.staging_of(d);
    std::lock_guard lock(st.mu);
    const uint32_t bos[] = {handle, kms_of(st.bo)};
    bool more = true;
    for (uint64_t off = 0; off < n && more;) {
        const uint64_t len = std::min<uint64_t>(n - off, st.bytes);
        if (hipError_t e = chunk(d, st, bos, off, len, more); e != hipSuccess) return e;
        off += len;
    }
    return hipSuccess;
}

} // namespace

hipError_t host_transfer(Runtime &rt, uint64_t dev, void *host, size_t n, Direction dir) {
    if (dir == Direction::to_device) {
        const peerHostSpan one{host, n};
        return host_write(rt, dev, HostSpans(&one, 1));
    }
    auto *h = static_cast<uint8_t *>(host);
    return through_staging(rt, dev, n,
                           [&](PeerDevice &d, GttBuffer &st, std::span<const uint32_t> bos,
                               uint64_t off, uint64_t len, bool &) {
                               hipError_t e = run_copy(rt, d, dev + off, st.va, len, bos);
                               if (e == hipSuccess) std::memcpy(h + off, st.cpu, len);
                               return e;
                           });
}

namespace {

hipError_t staged_write(Runtime &rt, uint64_t dev, const HostSpans &from) {
    return through_staging(rt, dev, from.total(),
                           [&](PeerDevice &d, GttBuffer &st, std::span<const uint32_t> bos,
                               uint64_t off, uint64_t len, bool &) {
                               from.copy_to(off, st.cpu, len);
                               return run_copy(rt, d, st.va, dev + off, len, bos);
                           });
}

// KFD path: one job from the caller's own pages, registered with KFD as a
// userptr BO on the owner's node for the job's duration. Memory that cannot
// be registered (pages libhsakmt already tracks, a refused ALLOC) is written
// through staging as before: the bytes that land are the same.
hipError_t direct_write(Runtime &rt, uint64_t dev, const peerHostSpan &piece) {
    const auto range = owning_bo(rt, dev, piece.size);
    if (!range) return hipErrorInvalidValue;
    PeerDevice &d = rt.device(range->first);
    std::unique_ptr<kfd::Memory> user;
    if (!kfd::Memory::register_user(piece.bytes, piece.size, d.node.node, user))
        return staged_write(rt, dev, HostSpans(&piece, 1));
    return run_copy(rt, d, user->va(), dev, piece.size, {});
}

// Why pieces of 1 MiB and more skip staging on the KFD path: the staging hop
// is a CPU pass over every byte before the engine's own. Filling a 64 MiB
// buffer took 23 ms through staging against 10.5 ms for the DRM path's single
// CPU pass (mi300x-8, pair 0>1). Registering costs two ioctls each way, which
// small pieces (guards, generated scratch) would not earn back.
constexpr size_t kDirectWrite = 1 << 20;

} // namespace

hipError_t host_write(Runtime &rt, uint64_t dev, const HostSpans &from) {
    if (!rt.kfd()) return staged_write(rt, dev, from);
    // The whole range first: nothing is written when it is not one allocation.
    if (!owning_bo(rt, dev, from.total())) return hipErrorInvalidValue;
    // Runs of small pieces go through staging together, large pieces alone.
    size_t at = 0, run_at = 0, run_first = 0;
    auto flush_run = [&](size_t end) {
        const HostSpans run = from.slice(run_first, end - run_first);
        return run.total() ? staged_write(rt, dev + run_at, run) : hipSuccess;
    };
    for (size_t i = 0; i < from.count(); ++i) {
        const peerHostSpan &p = from.piece(i);
        if (p.size >= kDirectWrite) {
            if (hipError_t e = flush_run(i); e != hipSuccess) return e;
            if (hipError_t e = direct_write(rt, dev + at, p); e != hipSuccess) return e;
            run_first = i + 1;
            run_at = at + p.size;
        }
        at += p.size;
    }
    return flush_run(from.count());
}

hipError_t host_compare(Runtime &rt, uint64_t dev, const HostSpans &expected, bool &equal) {
    equal = true;
    return through_staging(rt, dev, expected.total(),
                           [&](PeerDevice &d, GttBuffer &st, std::span<const uint32_t> bos,
                               uint64_t off, uint64_t len, bool &more) {
                               std::memset(st.cpu, static_cast<uint8_t>(~expected.byte(off)), len);
                               hipError_t r = run_copy(rt, d, dev + off, st.va, len, bos);
                               if (r != hipSuccess) return r;
                               equal = expected.equal(off, st.cpu, len);
                               more = equal;
                               return hipSuccess;
                           });
}

template <class Use> void HostSpans::each(size_t at, size_t n, Use use) const {
    size_t start = 0; // where piece i begins in the whole
    for (size_t i = 0; i < count_ && n > 0; start += spans_[i].size, ++i) {
        const size_t size = spans_[i].size;
        if (at >= start + size) continue;
        const size_t skip = at - start, len = std::min(size - skip, n);
        if (!use(static_cast<const uint8_t *>(spans_[i].bytes) + skip, len)) return;
        at += len;
        n -= len;
    }
}

bool HostSpans::valid() const {
    if (!spans_ && count_) return false;
    size_t sum = 0;
    for (size_t i = 0; i < count_; ++i) {
        if (!spans_[i].bytes && spans_[i].size) return false;
        if (spans_[i].size > SIZE_MAX - sum) return false;
        sum += spans_[i].size;
    }
    return true;
}

size_t HostSpans::total() const {
    size_t sum = 0;
    for (size_t i = 0; i < count_; ++i)
        sum += spans_[i].size;
    return sum;
}

uint8_t HostSpans::byte(size_t at) const {
    uint8_t b = 0;
    each(at, 1, [&](const uint8_t *p, size_t) {
        b = *p;
        return false;
    });
    return b;
}

void HostSpans::copy_to(size_t at, uint8_t *out, size_t n) const {
    each(at, n, [&](const uint8_t *p, size_t len) {
        std::memcpy(out, p, len);
        out += len;
        return true;
    });
}

bool HostSpans::equal(size_t at, const uint8_t *in, size_t n) const {
    bool same = true;
    each(at, n, [&](const uint8_t *p, size_t len) {
        same = std::memcmp(in, p, len) == 0;
        in += len;
        return same;
    });
    return same;
}

hipError_t device_fill(Runtime &rt, uint64_t dev, uint8_t value, size_t n) {
    const auto range = owning_bo(rt, dev, n);
    if (!range) return hipErrorInvalidValue;
    const auto [owner, handle] = *range;
    PeerDevice &d = rt.device(owner);
    std::vector<uint32_t> ib;
    // Byte fill (fillsize 0) with the byte in every lane, as the kernel's
    // amdgpu_fill_buffer uses CONSTANT_FILL.
    const uint32_t pattern = value * 0x01010101u;
    if (sdma::constant_fill_split(ib, d.gen, dev, pattern, n) != sdma::Error::none)
        return hipErrorInvalidValue;
    const uint32_t bos[] = {handle};
    return run_ib(rt, d, ib, bos).status;
}

namespace {

// Ends of a staged copy: owner device and the KMS handle of its BO (read
// under Runtime::mu by the caller).
struct StagedEnd {
    int dev = -1;
    uint32_t handle = 0;
    uint64_t va = 0;
};

hipError_t staged_copy(Runtime &rt, StagedEnd from, StagedEnd to, uint64_t n) {
    const uint64_t src = from.va, dst = to.va;
    GttBuffer *b = nullptr;
    if (kmd::Status s = rt.bounce(from.dev, to.dev, b); !s) return fail(s);
    std::lock_guard lock(b->mu);
    PeerDevice &sd = rt.device(from.dev);
    PeerDevice &dd = rt.device(to.dev);
    const uint32_t src_bos[] = {from.handle, kms_of(b->bo)};
    const uint32_t dst_bos[] = {to.handle, kms_of(b->import)};
    const uint64_t chunk = Runtime::kBounceChunk;
    const uint64_t chunks = (n + chunk - 1) / chunk;

    // Two bounce slots: while the destination engine drains chunk i from one
    // slot, the source engine fills chunk i+1 into the other. The engines are
    // on different devices, so the hand-off is a host wait on the fence.
    PendingJob fill[2], drain[2];
    bool fill_busy[2] = {false, false}, drain_busy[2] = {false, false};
    hipError_t first = hipSuccess;
    std::vector<uint32_t> ib;
    auto note = [&](hipError_t e) {
        if (first == hipSuccess) first = e;
    };
    auto finish = [&](PendingJob &j, bool &busy) {
        if (!busy) return;
        busy = false;
        JobOutcome o = rt.finish_job(j);
        if (o.status != hipSuccess) note(o.status);
    };
    auto start = [&](PeerDevice &d, uint64_t from, uint64_t to, uint64_t len,
                     std::span<const uint32_t> bos, PendingJob &j, bool &busy) {
        if (first != hipSuccess) return;
        if (hipError_t e = copy_ib(d, from, to, len, ib); e != hipSuccess) return note(e);
        kmd::Status s = rt.kfd() ? rt.submit_kfd_job(d, ib, j) : rt.submit_job(d, ib, bos, j);
        if (!s) return note(fail(s));
        busy = true;
    };
    auto slot_va = [&](uint64_t i) { return b->va + (i % 2) * chunk; };
    auto len_of = [&](uint64_t i) { return std::min(chunk, n - i * chunk); };

    for (uint64_t i = 0; i < chunks && first == hipSuccess; ++i) {
        const int s = int(i % 2);
        finish(drain[s], drain_busy[s]); // slot free again
        start(sd, src + i * chunk, slot_va(i), len_of(i), src_bos, fill[s], fill_busy[s]);
        if (i > 0) {
            const int p = int((i - 1) % 2);
            finish(fill[p], fill_busy[p]);
            start(dd, slot_va(i - 1), dst + (i - 1) * chunk, len_of(i - 1), dst_bos, drain[p],
                  drain_busy[p]);
        }
    }
    if (first == hipSuccess) {
        const int l = int((chunks - 1) % 2);
        finish(fill[l], fill_busy[l]);
        start(dd, slot_va(chunks - 1), dst + (chunks - 1) * chunk, len_of(chunks - 1), dst_bos,
              drain[l], drain_busy[l]);
    }
    // Never leave a job running on the bounce buffer, even after an error.
    for (int s = 0; s < 2; ++s) {
        finish(fill[s], fill_busy[s]);
        finish(drain[s], drain_busy[s]);
    }
    return first;
}

} // namespace

hipError_t peer_copy(Runtime &rt, uint64_t dst, int dst_dev, uint64_t src, int src_dev, size_t n) {
    std::shared_ptr<Allocation> sa, da;
    StagedEnd from, to;
    PeerDevice *exec = nullptr;
    std::vector<uint32_t> bos;
    peerCopyPath path = peerCopyPathStaged;
    {
        std::lock_guard lock(rt.mu);
        // §2 row 5: each range inside one live allocation of the given device.
        const auto *se = rt.table.find_range(src, n);
        const auto *de = rt.table.find_range(dst, n);
        if (!se || !de || se->owner != src_dev || de->owner != dst_dev) return hipErrorInvalidValue;
        // §2 row 6: overlapping ranges (only possible inside one allocation).
        if (src < dst + n && dst < src + n) return hipErrorInvalidValue;
        sa = se->data;
        da = de->data;
        from = {src_dev, kms_of(sa->bo), src};
        to = {dst_dev, kms_of(da->bo), dst};
        if (src_dev == dst_dev) {
            path = peerCopyPathSameDevice;
            exec = &rt.device(src_dev);
            bos.push_back(kms_of(sa->bo));
            if (da != sa) bos.push_back(kms_of(da->bo));
        } else if (rt.enabled[size_t(dst_dev)][size_t(src_dev)] && sa->peers.count(dst_dev)) {
            // The destination device maps the source: it pulls.
            path = peerCopyPathDirect;
            exec = &rt.device(dst_dev);
            bos = {kms_of(da->bo), kms_of(sa->peers.at(dst_dev).import)};
        } else if (rt.enabled[size_t(src_dev)][size_t(dst_dev)] && da->peers.count(src_dev)) {
            // The source device maps the destination: it pushes.
            path = peerCopyPathDirect;
            exec = &rt.device(src_dev);
            bos = {kms_of(sa->bo), kms_of(da->peers.at(src_dev).import)};
        }
    }
    ThreadState &t = thread_state();
    peerCopyTiming timing{};
    hipError_t e;
    if (exec) {
        e = run_timed_copy(rt, *exec, src, dst, n, bos, timing);
        set_link(rt, exec->index, exec->index == src_dev ? dst_dev : src_dev, timing);
    } else {
        // Two engines and a host hand-off per chunk: only the host sees the
        // whole copy, from the first submission to the last fence.
        const uint64_t t0 = host_now_ns();
        e = staged_copy(rt, from, to, n);
        timing.clock = peerCopyClockHostFence;
        timing.bytes = n;
        timing.host_nanoseconds = timing.nanoseconds = host_now_ns() - t0;
        timing.engine_device = -1;
        set_link(rt, src_dev, dst_dev, timing);
    }
    if (e == hipSuccess) {
        t.last_path = path;
        t.last_engine = exec ? exec->index : -1;
        t.last_timing = timing;
    }
    return e;
}

void report_outcome(const JobOutcome &o, peerRawAccessResult *result) {
    if (!result) return;
    result->status = o.status;
    result->vm_fault = o.vm_fault ? 1 : 0;
    result->fault_address = o.fault_address;
    result->kernel_errno = o.kernel.err;
    std::snprintf(result->kernel_call, sizeof result->kernel_call, "%s",
                  o.kernel.call ? o.kernel.call : "");
}

hipError_t raw_access(Runtime &rt, int device, uint64_t va, void *host, size_t n, bool write,
                      peerRawAccessResult *result) {
    PeerDevice &d = rt.device(device);
    std::shared_ptr<Allocation> hold;
    std::vector<uint32_t> bos;
    {
        // Whatever BO is mapped at va in this device's VM must be resident
        // for the job; if nothing is, the engine sees an unmapped page.
        std::lock_guard lock(rt.mu);
        if (const auto *e = rt.table.find(va)) {
            hold = e->data;
            if (hold->owner == device) {
                bos.push_back(kms_of(hold->bo));
            } else if (auto it = hold->peers.find(device); it != hold->peers.end()) {
                bos.push_back(kms_of(it->second.import));
            }
        }
    }
    GttBuffer &st = rt.staging_of(d);
    std::lock_guard lock(st.mu);
    bos.push_back(kms_of(st.bo));
    auto *h = static_cast<uint8_t *>(host);
    for (uint64_t off = 0; off < n;) {
        const uint64_t len = std::min<uint64_t>(n - off, st.bytes);
        std::vector<uint32_t> ib;
        if (write) std::memcpy(st.cpu, h + off, len);
        const uint64_t from = write ? st.va : va + off;
        const uint64_t to = write ? va + off : st.va;
        if (hipError_t e = copy_ib(d, from, to, len, ib); e != hipSuccess) return e;
        JobOutcome o = run_ib(rt, d, ib, bos);
        // The bytes the engine produced are returned even after a fault, so a
        // test can see what a faulting read yields.
        if (!write && o.kernel.ok()) std::memcpy(h + off, st.cpu, len);
        report_outcome(o, result);
        if (o.status != hipSuccess) return o.status;
        off += len;
    }
    return hipSuccess;
}

} // namespace peer
