// kernel_jobs: fence and job-lifetime rules of the scheduler, observed with
// jobs held on a flag only the CPU sets (POLL_REGMEM) and markers they write
// (FENCE packets) into a GTT buffer the CPU reads, on the instance's own DRM
// files (kmd/raw.hpp). Each check names the kernel rule it holds the kernel
// to; cases/contract/jobs.yaml says which function.
//
// A held job that times out on a loaded machine (the simulated kernel's job
// timeout is 200 ms) makes its round inconclusive; such rounds are retried on
// a fresh context, never reported as the kernel's fault.
#include "executor_impl.hpp"
#include "executor_kernel.hpp"

#include "cases/step_table.hpp"

#include <libdrm/amdgpu_drm.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sys/ioctl.h>
#include <thread>
#include <unistd.h>

namespace harness::runner::detail {

namespace {

constexpr uint64_t kMs = 1000ull * 1000;
constexpr uint64_t kLong = 20000 * kMs; // longer than any kernel's job timeout (10 s by default)
constexpr int kRounds = 6;

// Dword offsets in the flag BO.
enum : uint32_t { kStarted = 0, kRelease = 16, kDone = 32, kMarker = 48, kRelease2 = 64 };

uint64_t abs_ns(uint64_t rel) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return uint64_t(now.tv_sec) * 1000000000ull + uint64_t(now.tv_nsec) + rel;
}

// AMDGPU_WAIT_CS on an SDMA ring of the context; `busy` when not done. The
// fence's error comes back as the ioctl's errno.
kmd::Status wait_ring(const kmd::RawFile &f, uint32_t ctx, uint32_t ring, uint64_t seq,
                      uint64_t timeout_rel, bool &busy) {
    union drm_amdgpu_wait_cs w = {};
    w.in.handle = seq;
    w.in.ip_type = AMDGPU_HW_IP_DMA;
    w.in.ring = ring;
    w.in.ctx_id = ctx;
    w.in.timeout = abs_ns(timeout_rel);
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_WAIT_CS, &w) != 0)
        return kmd::Status::fail(errno, "AMDGPU_WAIT_CS");
    busy = w.out.status != 0;
    return kmd::Status::success();
}

// AMDGPU_GEM_WAIT_IDLE; `busy` when a fence of the BO is still pending.
kmd::Status wait_idle(const kmd::RawFile &f, uint32_t bo, uint64_t timeout_rel, bool &busy) {
    union drm_amdgpu_gem_wait_idle w = {};
    w.in.handle = bo;
    w.in.timeout = abs_ns(timeout_rel);
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_GEM_WAIT_IDLE, &w) != 0)
        return kmd::Status::fail(errno, "AMDGPU_GEM_WAIT_IDLE");
    busy = w.out.status != 0;
    return kmd::Status::success();
}

// AMDGPU_CTX(QUERY_STATE2) flags, 0 when the query fails.
uint64_t ctx_flags(const kmd::RawFile &f, uint32_t ctx) {
    union drm_amdgpu_ctx a = {};
    a.in.op = AMDGPU_CTX_OP_QUERY_STATE2;
    a.in.ctx_id = ctx;
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_CTX, &a) != 0) return 0;
    return a.out.state.flags;
}

kmd::Status ctx_free(const kmd::RawFile &f, uint32_t ctx) {
    union drm_amdgpu_ctx a = {};
    a.in.op = AMDGPU_CTX_OP_FREE_CTX;
    a.in.ctx_id = ctx;
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_CTX, &a) != 0)
        return kmd::Status::fail(errno, "AMDGPU_CTX(FREE_CTX)");
    return kmd::Status::success();
}

// HW_IP_INFO(DMA) available_rings: how many SDMA rings user space may use.
uint32_t sdma_rings(const kmd::RawFile &f) {
    drm_amdgpu_info_hw_ip ip{};
    drm_amdgpu_info q{};
    q.return_pointer = reinterpret_cast<uintptr_t>(&ip);
    q.return_size = sizeof ip;
    q.query = AMDGPU_INFO_HW_IP_INFO;
    q.query_hw_ip.type = AMDGPU_HW_IP_DMA;
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_INFO, &q) != 0) return 1;
    return uint32_t(__builtin_popcount(ip.available_rings));
}

// A 4 KiB GTT BO of flags and markers, CPU-mapped and mapped in the VM.
struct Flags {
    uint32_t bo = 0;
    volatile uint32_t *cpu = nullptr;
    uint64_t va = 0;
    uint64_t at(uint32_t dword) const { return va + dword * 4; }
    void clear() {
        for (uint32_t i = 0; i < 1024; ++i)
            cpu[i] = 0;
    }
};

Flags make_flags(KernelSteps &k, KernelFile &f) {
    Flags fl;
    require(f.file->gem_create(4096, AMDGPU_GEM_DOMAIN_GTT, 0, fl.bo), "GEM_CREATE(flags)");
    void *cpu = nullptr;
    require(f.file->cpu_map(fl.bo, 4096, &cpu), "mapping the flags");
    fl.cpu = static_cast<volatile uint32_t *>(cpu);
    fl.clear();
    fl.va = k.map_new(f, fl.bo, 4096);
    return fl;
}

// Appends: mark `started`, wait until the CPU writes 1 at `release`.
void held(std::vector<uint32_t> &ib, sdma::Generation g, const Flags &fl, uint32_t started,
          uint32_t release) {
    if (sdma::fence(ib, g, fl.at(started), 1) != sdma::Error::none ||
        sdma::poll_regmem_mem(ib, g, fl.at(release), 1, 0xffffffffu) != sdma::Error::none)
        throw StepError{"cannot encode a held job"};
}

void marker(std::vector<uint32_t> &ib, sdma::Generation g, const Flags &fl, uint32_t dword,
            uint32_t value) {
    if (sdma::fence(ib, g, fl.at(dword), value) != sdma::Error::none)
        throw StepError{"cannot encode a FENCE"};
}

// Submits `ib` on (ctx, ring) with the BOs given; returns its sequence number.
uint64_t submit(KernelSteps &k, KernelFile &f, uint32_t ctx, uint32_t ring,
                std::vector<uint32_t> ib, std::vector<uint32_t> bos,
                std::vector<kmd::RawChunk> extra = {}) {
    const uint32_t bytes = uint32_t(((ib.size() + 7) / 8) * 8 * 4);
    const uint64_t va = k.place_ib(f, std::move(ib));
    bos.push_back(f.ib_bo);
    uint32_t list = 0;
    require(f.file->bo_list_create(bos, list), "AMDGPU_BO_LIST");
    std::vector<kmd::RawChunk> chunks{kmd::ib_chunk(va, bytes)};
    // drm_amdgpu_cs_chunk_ib.ring is its eighth dword.
    chunks[0].data[7] = ring;
    chunks.insert(chunks.end(), extra.begin(), extra.end());
    uint64_t seq = 0;
    require(f.file->cs(ctx, list, chunks, seq), fmt::format("AMDGPU_CS on SDMA ring {}", ring));
    return seq;
}

bool wait_started(const Flags &fl, uint32_t dword) {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (fl.cpu[dword] != 1 && std::chrono::steady_clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    return fl.cpu[dword] == 1;
}

uint32_t fresh_ctx(KernelFile &f) {
    uint32_t c = 0;
    require(f.file->ctx_alloc(c), "AMDGPU_CTX(ALLOC)");
    return c;
}

// amdgpu_cs_wait_ioctl -> amdgpu_ctx_get_fence + dma_fence_wait_timeout: a
// job still held reports busy, on every SDMA ring, every time (R21: a fence
// picked before the work finished).
std::string wait_never_early(KernelSteps &k, int dev) {
    KernelFile &f = k.file(dev);
    Flags fl = make_flags(k, f);
    const sdma::Generation g = generation(*f.file);
    const uint32_t rings = std::min<uint32_t>(sdma_rings(*f.file), 8);
    for (uint32_t ring = 0; ring < rings; ++ring) {
        int inconclusive = 0;
        for (int round = 0; round < kRounds;) {
            fl.clear();
            const uint32_t ctx = fresh_ctx(f);
            std::vector<uint32_t> ib;
            held(ib, g, fl, kStarted, kRelease);
            marker(ib, g, fl, kDone, 1);
            const uint64_t seq = submit(k, f, ctx, ring, ib, {fl.bo});
            if (!wait_started(fl, kStarted)) {
                fl.cpu[kRelease] = 1;
                return fmt::format("a job on SDMA ring {} did not start within 2 s", ring);
            }
            bool busy = false;
            kmd::Status st = wait_ring(*f.file, ctx, ring, seq, 2 * kMs, busy);
            const bool done_early = st.ok() && !busy && fl.cpu[kDone] == 0;
            const bool timed_out = ctx_flags(*f.file, ctx) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY;
            fl.cpu[kRelease] = 1;
            if (done_early && !timed_out)
                return fmt::format("WAIT_CS on SDMA ring {} reported a job done while it was "
                                   "still held (wait {} of the ring)",
                                   ring, round + 1);
            kmd::Status st2 = wait_ring(*f.file, ctx, ring, seq, kLong, busy);
            if (ctx_flags(*f.file, ctx) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY || timed_out) {
                if (++inconclusive > kRounds)
                    return fmt::format("inconclusive: held jobs on SDMA ring {} kept timing out",
                                       ring);
                continue; // the job timed out before the release: try again
            }
            if (!st.ok()) return "WAIT_CS on a held job: " + st.describe();
            if (!st2.ok()) return "WAIT_CS after the release: " + st2.describe();
            if (busy) return fmt::format("a job on SDMA ring {} did not finish within 20 s", ring);
            if (fl.cpu[kDone] != 1)
                return fmt::format("WAIT_CS on SDMA ring {} reported a job done before it wrote "
                                   "its last marker",
                                   ring);
            ++round;
        }
    }
    return {};
}

// amdgpu_cs_submit -> amdgpu_bo_list / dma_resv_add_fence: a BO's reservation
// holds the newest job's fence, so GEM_WAIT_IDLE waits for the last job that
// uses it (R36: an older fence replacing a newer one).
std::string idle_waits_for_newest(KernelSteps &k, int dev) {
    KernelFile &f = k.file(dev);
    Flags fl = make_flags(k, f);
    uint32_t data = 0;
    require(f.file->gem_create(4096, AMDGPU_GEM_DOMAIN_GTT, 0, data), "GEM_CREATE(data)");
    const sdma::Generation g = generation(*f.file);
    for (int round = 0; round < kRounds; ++round) {
        fl.clear();
        const uint32_t ctx = fresh_ctx(f);
        std::vector<uint32_t> first, second;
        held(first, g, fl, kStarted, kRelease);
        held(second, g, fl, kDone, kRelease2);
        marker(second, g, fl, kMarker, 2);
        const uint64_t s1 = submit(k, f, ctx, 0, first, {fl.bo, data});
        const uint64_t s2 = submit(k, f, ctx, 0, second, {fl.bo, data});
        if (!wait_started(fl, kStarted)) {
            fl.cpu[kRelease] = 1;
            fl.cpu[kRelease2] = 1;
            return "the first job did not start within 2 s";
        }
        fl.cpu[kRelease] = 1;
        bool busy = false;
        require(wait_ring(*f.file, ctx, 0, s1, kLong, busy), "WAIT_CS on the first job");
        bool bo_busy = false;
        kmd::Status idle = wait_idle(*f.file, data, 0, bo_busy);
        bool second_busy = false;
        kmd::Status q = wait_ring(*f.file, ctx, 0, s2, 0, second_busy);
        fl.cpu[kRelease2] = 1;
        require(idle, "GEM_WAIT_IDLE");
        require(q, "WAIT_CS on the second job");
        const bool guilty = ctx_flags(*f.file, ctx) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY;
        if (!bo_busy && second_busy && !guilty)
            return "GEM_WAIT_IDLE reported a BO idle while the newer of its two jobs was still "
                   "pending (the reservation kept the older fence)";
        (void)wait_ring(*f.file, ctx, 0, s2, kLong, busy);
        if (guilty || !bo_busy) continue; // a job timed out, or the window was missed
        require(wait_idle(*f.file, data, kLong, bo_busy), "GEM_WAIT_IDLE");
        if (bo_busy) return "the BO did not become idle within 20 s of its last job";
        return {};
    }
    return fmt::format("inconclusive: in {} rounds the second job never stayed held long enough",
                       kRounds);
}

// amdgpu_ctx_free -> drm_sched_entity_destroy: freeing a context whose job
// still waits for a dependency does not end that job before the dependency
// finished: its fence stays unsignalled until then (it runs, or is killed
// with -ESRCH only after its dependencies: R53, 0b10ab80695d). `a` holds the
// dependency, `b` frees the context.
std::string free_ctx_waits_for_deps(KernelSteps &k, int a, int b) {
    KernelFile &fa = k.file(a);
    KernelFile &fb = k.file(b);
    Flags fla = make_flags(k, fa);
    Flags flb = a == b ? fla : make_flags(k, fb);
    const sdma::Generation ga = generation(*fa.file), gb = generation(*fb.file);
    for (int round = 0; round < kRounds; ++round) {
        fla.clear();
        flb.clear();
        const uint32_t ctx_a = fresh_ctx(fa);
        std::vector<uint32_t> ib;
        held(ib, ga, fla, kStarted, kRelease);
        const uint64_t seq_a = submit(k, fa, ctx_a, 0, ib, {fla.bo});
        if (!wait_started(fla, kStarted)) {
            fla.cpu[kRelease] = 1;
            return fmt::format("the job on device {} did not start within 2 s", a);
        }
        uint32_t sync_a = 0, sync_b = 0, sync_job = 0;
        int fd = -1;
        require(fa.file->fence_to_syncobj(ctx_a, seq_a, sync_a), "AMDGPU_FENCE_TO_HANDLE");
        require(fa.file->syncobj_to_fd(sync_a, fd), "SYNCOBJ_HANDLE_TO_FD");
        kmd::Status imp = fb.file->syncobj_from_fd(fd, sync_b);
        ::close(fd);
        require(imp, "SYNCOBJ_FD_TO_HANDLE");
        const uint32_t ctx_b = fresh_ctx(fb);
        std::vector<uint32_t> job;
        marker(job, gb, flb, kMarker, 7);
        const uint64_t seq_b =
            submit(k, fb, ctx_b, 0, job, {flb.bo}, {kmd::syncobj_in_chunk(sync_b)});
        require(fb.file->fence_to_syncobj(ctx_b, seq_b, sync_job), "AMDGPU_FENCE_TO_HANDLE");
        require(ctx_free(*fb.file, ctx_b), "AMDGPU_CTX(FREE_CTX)");
        // SYNCOBJ_WAIT reports a fence not yet signalled as ETIME.
        kmd::Status early = fb.file->syncobj_wait(sync_job, 0, 0);
        const bool ran_early = flb.cpu[kMarker] != 0;
        bool busy = false;
        kmd::Status a_state = wait_ring(*fa.file, ctx_a, 0, seq_a, 0, busy);
        const bool a_held = a_state.ok() && busy;
        fla.cpu[kRelease] = 1;
        (void)wait_ring(*fa.file, ctx_a, 0, seq_a, kLong, busy);
        const bool guilty = ctx_flags(*fa.file, ctx_a) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY;
        kmd::Status w = fb.file->syncobj_wait(sync_job, kLong, 0);
        if (guilty || !a_held) continue; // the dependency timed out: nothing observed
        if (ran_early)
            return fmt::format("the job on device {} ran before the job on device {} it depends "
                               "on was released",
                               b, a);
        if (early.ok())
            return fmt::format("freeing its context on device {} signalled a job still waiting "
                               "for device {}'s job (torn down before its dependency)",
                               b, a);
        if (early.err != ETIME)
            return "SYNCOBJ_WAIT on the freed context's job: " + early.describe();
        if (!w.ok())
            return fmt::format("the freed context's job did not end after its dependency: {}",
                               w.describe());
        return {};
    }
    return fmt::format("inconclusive: in {} rounds the job on device {} timed out first", kRounds,
                       a);
}

// amdgpu_job_timedout -> drm_sched_job_timedout / amdgpu_device_gpu_recover:
// a job that never finishes is ended by the job timeout; its fence signals
// with -ETIME (R57: never signalled; R58: no error), its context becomes
// guilty, and the context's jobs queued behind it end with -ECANCELED
// without running (R59: they still executed).
// After a timeout's reset the device takes work again: a new (innocent)
// context's job on the same ring runs (amdgpu_device_gpu_recover releases the
// reset domain, amdgpu_device_unlock_reset_domain; b57c4ec98c17 fixed an
// error path that kept it held, so the device never ran another job).
std::string runs_after_reset(KernelSteps &k, KernelFile &f, const Flags &fl, uint32_t ring) {
    std::vector<uint32_t> after;
    marker(after, generation(*f.file), fl, kDone, 5);
    const uint32_t ctx = fresh_ctx(f);
    const uint64_t seq = submit(k, f, ctx, ring, after, {fl.bo});
    bool busy = false;
    kmd::Status st = wait_ring(*f.file, ctx, ring, seq, kLong, busy);
    if (!st.ok() || busy || fl.cpu[kDone] != 5)
        return fmt::format(
            "after the reset a new context's job on SDMA ring {} did not run "
            "(WAIT_CS: {}): the device takes no more work",
            ring, st.ok() ? (busy ? "still busy" : "done, marker missing") : st.describe());
    return {};
}

std::string hang(KernelSteps &k, int dev, uint32_t ring) {
    KernelFile &f = k.file(dev);
    Flags fl = make_flags(k, f);
    const sdma::Generation g = generation(*f.file);
    const uint32_t ctx = fresh_ctx(f);
    std::vector<uint32_t> stuck, queued;
    held(stuck, g, fl, kStarted, kRelease); // never released
    marker(queued, g, fl, kMarker, 9);
    const uint64_t s1 = submit(k, f, ctx, ring, stuck, {fl.bo});
    const uint64_t s2 = submit(k, f, ctx, ring, queued, {fl.bo});
    bool busy = false;
    kmd::Status st = wait_ring(*f.file, ctx, ring, s1, kLong, busy);
    if (st.ok() && busy)
        return "a job that never finishes was still not ended 20 s later (its fence never "
               "signalled)";
    if (st.ok())
        return "the timed-out job's fence signalled without an error (WAIT_CS returned success)";
    if (st.err != ETIME)
        return "WAIT_CS on the timed-out job: " + st.describe() + ", expected ETIME";
    if (!(ctx_flags(*f.file, ctx) & AMDGPU_CTX_QUERY2_FLAGS_GUILTY))
        return "the context of the timed-out job is not guilty (QUERY_STATE2)";
    kmd::Status q = wait_ring(*f.file, ctx, ring, s2, kLong, busy);
    if (q.ok() && busy) return "the job queued behind the timed-out one never ended";
    if (fl.cpu[kMarker] != 0)
        return "the job queued behind the timed-out one ran although the reset cancelled it";
    if (q.ok() || q.err != ECANCELED)
        return "WAIT_CS on the job queued behind the timed-out one: " +
               (q.ok() ? std::string("success") : q.describe()) + ", expected ECANCELED";
    return runs_after_reset(k, f, fl, ring);
}

} // namespace

std::string Interpreter::kernel_jobs(const Step &s) {
    KernelSteps k(kernel_state());
    const int dev = int(num(s, "device", 0));
    const std::string check = word(s, "check", "wait_never_early");
    // Held jobs that time out on a loaded machine are retried, never blamed
    // on the kernel; the resets they cause are the step's own.
    expected_kernel_events_ |= kExpectReset;
    if (check == "wait_never_early") return wait_never_early(k, dev);
    if (check == "idle_waits_for_newest") return idle_waits_for_newest(k, dev);
    if (check == "free_ctx_waits_for_deps")
        return free_ctx_waits_for_deps(k, dev, int(num(s, "peer", dev)));
    if (check == "hang") {
        expected_kernel_events_ |= kExpectReset;
        return hang(k, dev, uint32_t(num(s, "ring", 0)));
    }
    return "unknown kernel_jobs check " + check;
}

} // namespace harness::runner::detail
