// The kernel_* steps: raw amdgpu ioctls through harness/kmd (kmd/raw.hpp) on
// a DRM file per device that belongs to this instance alone. Each step checks
// the errno the case names (`errno:`, default ok) and the effect; the kernel
// function behind each rule is named in the case file's `doc:`.
#include "executor_kernel.hpp"
#include "executor_impl.hpp"
#include "runner/executor.hpp"

#include "cases/step_table.hpp"
#include "sdma/packets.hpp"

#include <libdrm/amdgpu_drm.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sys/ioctl.h>
#include <thread>
#include <unistd.h>

namespace harness::runner::detail {

namespace {

constexpr uint64_t kWaitNs = 10ull * 1000 * 1000 * 1000; // "signaled": up to 10 s
constexpr uint32_t kIbBoBytes = 64 * 1024;
constexpr uint64_t kFirstVa = 1ull << 32; // clear of every kernel's reserved bottom

} // namespace

sdma::Generation generation(const kmd::RawFile &f) {
    auto g = sdma::generation_for_ip(f.info().sdma_major);
    if (!g) throw StepError{fmt::format("SDMA {}.x is not supported", f.info().sdma_major)};
    return *g;
}

void require(const kmd::Status &st, const std::string &what) {
    if (!st.ok()) throw StepError{what + ": " + st.describe()};
}

Interpreter::Interpreter(const Instance &in, const Topology &t, Workspace &ws, const Runtime &rt)
    : in_(in), topo_(t), ws_(ws), rt_(rt) {}

KernelFile &KernelSteps::file(int device) {
    if (auto it = k_.files.find(device); it != k_.files.end()) return it->second;
    return k_.files.emplace(device, open(device)).first->second;
}

uint64_t beyond_bar_bytes(const kmd::RawFile &f, uint64_t bytes) {
    drm_amdgpu_info_vram_gtt vg{};
    drm_amdgpu_info q{};
    q.return_pointer = reinterpret_cast<uintptr_t>(&vg);
    q.return_size = sizeof vg;
    q.query = AMDGPU_INFO_VRAM_GTT;
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_INFO, &q) != 0)
        throw StepError{"AMDGPU_INFO(VRAM_GTT) failed on the exporter"};
    return std::max<uint64_t>(bytes, vg.vram_cpu_accessible_size + 4096);
}

namespace {

void load_topology(KernelState &k, int device) {
    if (!k.have_topology) {
        kmd::Topology t;
        require(kmd::read_topology(t), "reading the KFD topology");
        for (size_t i : kmd::visible_devices(t.gpus.size(), std::getenv("ROCR_VISIBLE_DEVICES"),
                                             std::getenv("HIP_VISIBLE_DEVICES"))) {
            k.render_minor.push_back(t.gpus[i].render_minor);
            k.kfd_node.push_back(t.gpus[i].node);
        }
        k.have_topology = true;
    }
    if (device < 0 || size_t(device) >= k.render_minor.size())
        throw StepError{
            fmt::format("device {} does not exist ({} visible)", device, k.render_minor.size())};
}

} // namespace

uint32_t KernelSteps::kfd_node(int device) {
    load_topology(k_, device);
    return k_.kfd_node[size_t(device)];
}

int KernelSteps::render_minor(int device) {
    load_topology(k_, device);
    return k_.render_minor[size_t(device)];
}

KernelFile KernelSteps::open(int device) {
    load_topology(k_, device);
    KernelFile f;
    require(kmd::RawFile::open(k_.render_minor[size_t(device)], f.file),
            fmt::format("opening device {}'s render node", device));
    require(f.file->ctx_alloc(f.ctx), "AMDGPU_CTX");
    f.next_va = std::max<uint64_t>(kFirstVa, f.file->info().va_offset);
    require(f.file->gem_create(kIbBoBytes, AMDGPU_GEM_DOMAIN_GTT, 0, f.ib_bo),
            "GEM_CREATE of the IB buffer");
    void *cpu = nullptr;
    require(f.file->cpu_map(f.ib_bo, kIbBoBytes, &cpu), "mapping the IB buffer");
    f.ib_cpu = static_cast<uint32_t *>(cpu);
    f.ib_va = map_new(f, f.ib_bo, kIbBoBytes);
    return f;
}

uint64_t KernelSteps::map_new(KernelFile &f, uint32_t handle, uint64_t bytes) {
    const uint64_t va = f.next_va;
    require(f.file->gem_va(handle, AMDGPU_VA_OP_MAP, va, 0, bytes,
                           AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE),
            "GEM_VA map of a helper buffer");
    f.next_va += (bytes + 0xffff) & ~uint64_t(0xffff);
    f.next_va += 0x10000; // a guard page range between helper mappings
    return va;
}

uint64_t KernelSteps::place_ib(KernelFile &f, std::vector<uint32_t> ib) {
    sdma::pad(ib, generation(*f.file), 8);
    const uint32_t bytes = uint32_t(ib.size() * 4);
    const uint32_t at = (f.ib_next + 255) & ~255u;
    if (at + bytes > kIbBoBytes) throw StepError{"the instance used up its IB buffer"};
    std::memcpy(reinterpret_cast<char *>(f.ib_cpu) + at, ib.data(), bytes);
    f.ib_next = at + bytes;
    return f.ib_va + at;
}

std::vector<uint32_t> KernelSteps::nop_ib(KernelFile &f) {
    std::vector<uint32_t> ib;
    if (sdma::nop(ib, generation(*f.file), 8) != sdma::Error::none)
        throw StepError{"cannot encode a NOP"};
    return ib;
}

// AMDGPU_CTX(QUERY_STATE2): the context had a job time out (GUILTY flag).
// An ioctl that fails counts as not guilty: the caller's checks decide then.
bool ctx_guilty(const kmd::RawFile &f, uint32_t ctx) {
    union drm_amdgpu_ctx args = {};
    args.in.op = AMDGPU_CTX_OP_QUERY_STATE2;
    args.in.ctx_id = ctx;
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_CTX, &args) != 0) return false;
    return (args.out.state.flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) != 0;
}

namespace {

uint64_t domain_bits(const std::string &w) {
    if (w == "vram") return AMDGPU_GEM_DOMAIN_VRAM;
    if (w == "gtt") return AMDGPU_GEM_DOMAIN_GTT;
    return 1ull << 20; // unknown_bit: beyond every AMDGPU_GEM_DOMAIN_* any kernel defines
}

uint64_t create_flag(const std::string &w) {
    if (w == "vram_cleared") return AMDGPU_GEM_CREATE_VRAM_CLEARED;
    if (w == "cpu_access_required") return AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED;
    if (w == "no_cpu_access") return AMDGPU_GEM_CREATE_NO_CPU_ACCESS;
    if (w == "explicit_sync") return AMDGPU_GEM_CREATE_EXPLICIT_SYNC;
    if (w == "vm_always_valid") return AMDGPU_GEM_CREATE_VM_ALWAYS_VALID;
    if (w == "unknown_bit") return 1ull << 62; // no kernel defines it
    return 0;
}

// kernel_dependency: a job on device A that marks that it started, is held
// back by a POLL_REGMEM on a flag only the CPU sets, then copies 64 KiB; a job on B that depends on
// it through a syncobj (AMDGPU_FENCE_TO_HANDLE on A, SYNCOBJ_FD_TO_HANDLE on B, a SYNCOBJ_IN chunk:
// amdgpu_cs_p2_syncobj_in -> drm_sched_job_add_dependency). While A is held, B must not finish;
// after the flag is set both finish and A's copy is there. If A's own job timed out first (a
// machine too slow to set the flag within the job timeout), nothing was observed: tried again on
// a fresh context, and after kRounds such rounds the step fails saying so. Under load (two
// instances on two cores, each with the simulator's engine threads) the time from A's start to
// the release is what decides: the watch window is kept short (kWindow, a quarter of mixed-4's
// 200 ms job timeout) and inconclusive rounds are retried rather than reported.
constexpr int kRounds = 6;
constexpr auto kWindow = std::chrono::milliseconds(50);
constexpr uint64_t kHeldBytes = 64 * 1024;

// The SDMA rings of kernel_dependency's two jobs: A's (held) and B's
// (dependent); a kernel may honour a dependency on one ring and not another.
struct DependencyRings {
    uint32_t a = 0, b = 0;
};

// Job A of kernel_dependency: marks that it started (dword 16 of the flag BO),
// waits in a POLL_REGMEM for the CPU's release (dword 0), then copies
// kHeldBytes from src to dst.
struct HeldJob {
    volatile uint32_t *release = nullptr;
    void *src_cpu = nullptr, *dst_cpu = nullptr;
    uint64_t seq = 0;
};

HeldJob submit_held_job(KernelSteps &k, KernelFile &fa, uint32_t ring) {
    uint32_t flag = 0, src = 0, dst = 0;
    require(fa.file->gem_create(4096, AMDGPU_GEM_DOMAIN_GTT, 0, flag), "GEM_CREATE(flag)");
    require(fa.file->gem_create(kHeldBytes, AMDGPU_GEM_DOMAIN_GTT, 0, src), "GEM_CREATE(src)");
    require(fa.file->gem_create(kHeldBytes, AMDGPU_GEM_DOMAIN_GTT, 0, dst), "GEM_CREATE(dst)");
    HeldJob held;
    void *flag_cpu = nullptr;
    require(fa.file->cpu_map(flag, 4096, &flag_cpu), "mapping the flag");
    require(fa.file->cpu_map(src, kHeldBytes, &held.src_cpu), "mapping src");
    require(fa.file->cpu_map(dst, kHeldBytes, &held.dst_cpu), "mapping dst");
    std::memset(flag_cpu, 0, 4096);
    held.release = static_cast<volatile uint32_t *>(flag_cpu);
    for (uint64_t i = 0; i < kHeldBytes; ++i)
        static_cast<uint8_t *>(held.src_cpu)[i] = uint8_t(i * 7 + 1);
    std::memset(held.dst_cpu, 0x77, kHeldBytes);
    const uint64_t flag_va = k.map_new(fa, flag, 4096);
    const uint64_t src_va = k.map_new(fa, src, kHeldBytes);
    const uint64_t dst_va = k.map_new(fa, dst, kHeldBytes);
    std::vector<uint32_t> ib;
    const sdma::Generation g = generation(*fa.file);
    if (sdma::fence(ib, g, flag_va + 64, 1) != sdma::Error::none ||
        sdma::poll_regmem_mem(ib, g, flag_va, 1, 0xffffffffu) != sdma::Error::none ||
        sdma::copy_linear(ib, g, src_va, dst_va, kHeldBytes) != sdma::Error::none)
        throw StepError{"cannot encode the held job"};
    const uint32_t bytes = uint32_t(((ib.size() + 7) / 8) * 8 * 4);
    const uint64_t ib_va = k.place_ib(fa, ib);
    uint32_t list = 0;
    const uint32_t handles[] = {fa.ib_bo, flag, src, dst};
    require(fa.file->bo_list_create(handles, list), "AMDGPU_BO_LIST on A");
    const kmd::RawChunk chunks[] = {kmd::ib_chunk(ib_va, bytes, ring)};
    require(fa.file->cs(fa.ctx, list, chunks, held.seq), "AMDGPU_CS on A");
    return held;
}

// Job B: a NOP on device B that depends on A's fence through a syncobj
// (AMDGPU_FENCE_TO_HANDLE on A, SYNCOBJ_FD_TO_HANDLE on B, a SYNCOBJ_IN chunk).
uint64_t submit_dependent(KernelSteps &k, KernelFile &fa, KernelFile &fb, const DependencyRings &r,
                          uint64_t seq_a) {
    uint32_t sync_a = 0, sync_b = 0;
    int sync_fd = -1;
    require(fa.file->fence_to_syncobj(fa.ctx, seq_a, sync_a, r.a), "AMDGPU_FENCE_TO_HANDLE on A");
    require(fa.file->syncobj_to_fd(sync_a, sync_fd), "SYNCOBJ_HANDLE_TO_FD on A");
    kmd::Status imported = fb.file->syncobj_from_fd(sync_fd, sync_b);
    ::close(sync_fd);
    require(imported, "SYNCOBJ_FD_TO_HANDLE on B");
    const uint64_t ib_b = k.place_ib(fb, k.nop_ib(fb));
    uint32_t list_b = 0;
    const uint32_t handles_b[] = {fb.ib_bo};
    require(fb.file->bo_list_create(handles_b, list_b), "AMDGPU_BO_LIST on B");
    const kmd::RawChunk chunks_b[] = {kmd::ib_chunk(ib_b, 32, r.b), kmd::syncobj_in_chunk(sync_b)};
    uint64_t seq_b = 0;
    require(fb.file->cs(fb.ctx, list_b, chunks_b, seq_b), "AMDGPU_CS on B (SYNCOBJ_IN)");
    return seq_b;
}

std::string dependency(KernelSteps &k, int a, int b, const DependencyRings &r,
                       bool &expected_resets) {
    KernelFile &fa = k.file(a);
    KernelFile &fb = k.file(b);
    for (int round = 0; round < kRounds; ++round) {
        HeldJob held = submit_held_job(k, fa, r.a);
        volatile uint32_t *release = held.release, *started = held.release + 16;
        const uint64_t seq_a = held.seq;

        // A must be running (held in its POLL_REGMEM) on its own engine before
        // B exists: a kernel starts a job without anyone waiting for it, and a
        // thread waiting for B must never be the one that runs A.
        const auto start_limit = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (*started != 1 && std::chrono::steady_clock::now() < start_limit)
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        if (*started != 1) {
            *release = 1;
            bool busy = false;
            (void)fa.file->wait_cs(fa.ctx, seq_a, kWaitNs, busy, r.a);
            return fmt::format("the job on device {} did not start within 2 s without a waiter", a);
        }

        const uint64_t seq_b = submit_dependent(k, fa, fb, r, seq_a);

        // While A is held, B must stay pending: watched for kWindow (well
        // inside any machine's job timeout), checking A each time B is seen.
        bool b_busy = true, a_busy = true;
        const auto window = std::chrono::steady_clock::now() + kWindow;
        while (b_busy && a_busy && std::chrono::steady_clock::now() < window) {
            require(fb.file->wait_cs(fb.ctx, seq_b, 10ull * 1000 * 1000, b_busy, r.b),
                    "WAIT_CS on B");
            require(fa.file->wait_cs(fa.ctx, seq_a, 0, a_busy, r.a), "WAIT_CS on A");
        }
        if (!b_busy && a_busy) {
            // Let A go and see it finish: nothing of this instance may still
            // run when its files close (the next instance may share the process).
            *release = 1;
            bool busy = false;
            (void)fa.file->wait_cs(fa.ctx, seq_a, kWaitNs, busy, r.a);
            return fmt::format("the job on device {} finished while the job on device {} it "
                               "depends on (SYNCOBJ_IN) was still waiting: the dependency was "
                               "not honoured",
                               b, a);
        }
        const bool observed = b_busy && a_busy;
        *release = 1;
        // On one device A and B share a context: if A timed out, the reset
        // cancelled B (ECANCELED), and the round proves nothing (below).
        kmd::Status b_done = fb.file->wait_cs(fb.ctx, seq_b, kWaitNs, b_busy, r.b);
        kmd::Status a_done = fa.file->wait_cs(fa.ctx, seq_a, kWaitNs, a_busy, r.a);
        // Seen held through the window, A may still have timed out between
        // the window's end and the release (a descheduled runner): its
        // context is guilty then (amdgpu_job_timedout), and that round
        // proves nothing either.
        if (!observed || ctx_guilty(*fa.file, fa.ctx)) {
            // That timeout was a reset of the machine's making, not the kernel's.
            expected_resets = true;
            // A timed out before the flag was set; its context is now guilty:
            // start the next round on a fresh context.
            require(fa.file->ctx_alloc(fa.ctx), "AMDGPU_CTX");
            continue;
        }
        require(b_done, "WAIT_CS on B");
        if (b_busy) return fmt::format("the job on device {} did not finish within 10 s", b);
        require(a_done, "WAIT_CS on A");
        if (a_busy) return fmt::format("the job on device {} did not finish within 10 s", a);
        if (std::memcmp(held.src_cpu, held.dst_cpu, kHeldBytes) != 0)
            return fmt::format("the held job on device {} finished without its copy", a);
        return {};
    }
    return fmt::format("inconclusive: in {} rounds the job on device {} timed out before the "
                       "CPU released it (machine too slow for the job timeout)",
                       kRounds, a);
}

} // namespace

namespace {

// The step's `errno:` (default ok) against what the ioctl returned.
std::string errno_check(const std::string &want, const kmd::Status &st, const std::string &call) {
    if (errno_matches(want, st.err)) return {};
    return fmt::format("{} returned {}, expected {}", call,
                       st.ok() ? std::string("success") : st.describe(), want);
}

KernelBo &bo_of(KernelState &k, const std::string &name) {
    auto it = k.bos.find(name);
    if (it == k.bos.end()) throw StepError{"'" + name + "' is not a BO created by kernel_bo"};
    return it->second;
}

KernelJob &job_of(KernelState &k, const std::string &name) {
    auto it = k.jobs.find(name);
    if (it == k.jobs.end()) throw StepError{"'" + name + "' is not a job submitted by kernel_cs"};
    return it->second;
}

} // namespace

KernelState &Interpreter::kernel_state() {
    if (!kernel_) kernel_ = std::make_unique<KernelState>();
    return *kernel_;
}

std::string Interpreter::kernel_bo(const Step &s) {
    KernelSteps k(kernel_state());
    const int dev = int(num(s, "device", 0));
    KernelFile &f = k.file(dev);
    const uint64_t bytes = uint64_t(num(s, "bytes", 0));
    uint32_t handle = 0;
    kmd::Status st = f.file->gem_create(bytes, domain_bits(word(s, "domain", "vram")),
                                        create_flag(word(s, "flag", "none")), handle);
    if (auto m = errno_check(word(s, "errno", "ok"), st, "AMDGPU_GEM_CREATE"); !m.empty()) return m;
    if (st.ok() && s.arg("as")) kernel_->bos[s.arg("as")->word] = {dev, handle, bytes};
    return {};
}

std::string Interpreter::kernel_bo_read(const Step &s) {
    KernelSteps k(kernel_state());
    KernelBo &bo = bo_of(*kernel_, s.arg("bo")->word);
    KernelFile &f = k.file(bo.device);
    void *cpu = nullptr;
    require(f.file->cpu_map(bo.handle, bo.bytes, &cpu), "GEM_MMAP + mmap");
    const auto *p = static_cast<const uint8_t *>(cpu);
    size_t bad = 0, first = bo.bytes;
    for (size_t i = 0; i < bo.bytes; ++i)
        if (p[i] != 0) {
            if (first == bo.bytes) first = i;
            ++bad;
        }
    if (bad)
        return fmt::format("{} of {} bytes of a fresh BO are not zero; first at offset {} "
                           "(0x{:02x})",
                           bad, bo.bytes, first, p[first]);
    return {};
}

std::string Interpreter::kernel_va(const Step &s) {
    KernelSteps k(kernel_state());
    KernelBo &bo = bo_of(*kernel_, s.arg("bo")->word);
    KernelFile &f = k.file(bo.device);
    const std::string from = word(s, "from", "zero");
    const uint64_t base = from == "start" ? f.file->info().va_offset
                          : from == "end" ? f.file->info().va_max
                                          : 0;
    const uint64_t va = base + uint64_t(num(s, "va", 0));
    const std::string op = word(s, "op", "map");
    const uint32_t opcode = op == "map"     ? AMDGPU_VA_OP_MAP
                            : op == "unmap" ? AMDGPU_VA_OP_UNMAP
                                            : 99u; // unknown_op
    kmd::Status st = f.file->gem_va(bo.handle, opcode, va, uint64_t(num(s, "offset", 0)),
                                    uint64_t(num(s, "bytes", int64_t(bo.bytes))),
                                    AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE);
    return errno_check(word(s, "errno", "ok"), st,
                       fmt::format("AMDGPU_GEM_VA({} at 0x{:x})", op, va));
}

std::string Interpreter::kernel_cs(const Step &s) {
    KernelSteps k(kernel_state());
    const int dev = int(num(s, "device", 0));
    KernelFile &f = k.file(dev);
    const uint64_t ib_va = k.place_ib(f, k.nop_ib(f));
    const uint32_t ib_bytes = 8 * 4;
    const std::string shape = word(s, "chunks", "ib");
    std::vector<kmd::RawChunk> chunks;
    if (shape != "none") chunks.push_back(kmd::ib_chunk(ib_va, ib_bytes));
    if (shape == "undersized_ib") {
        // 24 of drm_amdgpu_cs_chunk_ib's 32 bytes: through ip_type.
        chunks.back().data.resize(6);
        chunks.back().length_dw = 6;
    } else if (shape == "bad_ip_type") {
        chunks.back().data[5] = AMDGPU_HW_IP_NUM;
    } else if (shape == "unknown_chunk") {
        chunks.push_back({0x7f, 1, {0}});
    }
    uint32_t list = 0;
    const std::string bl = word(s, "bo_list", "none");
    if (bl == "valid") {
        const uint32_t handles[] = {f.ib_bo};
        require(f.file->bo_list_create(handles, list), "AMDGPU_BO_LIST(CREATE)");
    } else if (bl == "unknown") {
        list = 0xdead;
    }
    const uint32_t ctx = word(s, "ctx", "own") == "own" ? f.ctx : f.ctx + 1000;
    uint64_t seq = 0;
    kmd::Status st = f.file->cs(ctx, list, chunks, seq);
    if (auto m = errno_check(word(s, "errno", "ok"), st, "AMDGPU_CS"); !m.empty()) return m;
    if (st.ok() && s.arg("as")) kernel_->jobs[s.arg("as")->word] = {dev, ctx, seq};
    return {};
}

std::string Interpreter::kernel_wait(const Step &s) {
    KernelSteps k(kernel_state());
    KernelJob &job = job_of(*kernel_, s.arg("job")->word);
    KernelFile &f = k.file(job.device);
    const uint64_t seq = word(s, "seq", "issued") == "future" ? job.seq + 1000 : job.seq;
    const bool want_busy = word(s, "must", "signaled") == "busy";
    const uint64_t timeout = want_busy ? 0 : kWaitNs;
    const std::string how = word(s, "ioctl", "wait_cs");
    bool busy = false;
    kmd::Status st;
    if (how == "wait_cs") {
        st = f.file->wait_cs(job.ctx, seq, timeout, busy);
    } else if (how == "wait_fences") {
        const std::pair<uint32_t, uint64_t> fences[] = {{job.ctx, seq}};
        uint32_t first = 0;
        st = f.file->wait_fences(fences, true, timeout, busy, first);
    } else {
        uint32_t h = 0;
        st = f.file->fence_to_syncobj(job.ctx, seq, h);
        if (st.ok()) {
            st = f.file->syncobj_wait(h, timeout, 0);
            // SYNCOBJ_WAIT reports "not yet" as ETIME, not as a status.
            if (st.err == ETIME && want_busy) {
                busy = true;
                st = kmd::Status::success();
            }
        }
    }
    if (auto m = errno_check(word(s, "errno", "ok"), st, "waiting with " + how); !m.empty())
        return m;
    if (st.ok() && busy != want_busy)
        return fmt::format("{}: the job is {}, expected {}", how,
                           busy ? "still busy after 10 s" : "signaled",
                           want_busy ? "busy" : "signaled");
    return {};
}

std::string Interpreter::kernel_syncobj(const Step &s) {
    KernelSteps k(kernel_state());
    KernelFile &f = k.file(int(num(s, "device", 0)));
    const std::string state = word(s, "state", "signaled");
    uint32_t h = 0;
    require(f.file->syncobj_create(state == "signaled" || state == "signaled_then_reset", h),
            "SYNCOBJ_CREATE");
    if (state == "signaled_then_reset") require(f.file->syncobj_reset(h), "SYNCOBJ_RESET");
    if (state == "unsignaled_then_signaled") require(f.file->syncobj_signal(h), "SYNCOBJ_SIGNAL");
    return errno_check(word(s, "errno", "ok"), f.file->syncobj_wait(h, 0, 0), "SYNCOBJ_WAIT");
}

std::string Interpreter::kernel_dependency(const Step &s) {
    KernelSteps k(kernel_state());
    bool resets = false;
    const DependencyRings rings{uint32_t(num(s, "ring", 0)), uint32_t(num(s, "peer_ring", 0))};
    std::string r = dependency(k, int(num(s, "device", 0)), int(num(s, "peer", 1)), rings, resets);
    if (resets) expected_kernel_events_ |= kExpectReset;
    return r;
}

std::string Interpreter::kernel_dmabuf(const Step &s) {
    KernelSteps k(kernel_state());
    const int a = int(num(s, "device", 0)), b = int(num(s, "peer", 1));
    if (word(s, "must", "stay_in_vram") == "readable_after_close")
        return dmabuf_after_close(k, a, b, uint64_t(num(s, "bytes", 1 << 20)));
    if (word(s, "must", "stay_in_vram") == "write_survives_move") {
        expected_kernel_events_ |= kExpectReset; // a held job timing out is retried
        return dmabuf_move_under_job(k, a, b, uint64_t(num(s, "bytes", 1 << 20)));
    }
    KernelFile &fa = k.file(a);
    KernelFile &fb = k.file(b);
    uint64_t bytes = uint64_t(num(s, "bytes", 1 << 20));
    const bool must_move = word(s, "must", "stay_in_vram") == "move_to_gtt";
    if (must_move) {
        // Larger than the exporter's CPU-visible VRAM (its BAR): no peer
        // can reach it over PCIe, whatever the P2P rules allow.
        bytes = beyond_bar_bytes(*fa.file, bytes);
    }
    uint32_t h = 0;
    require(fa.file->gem_create(bytes, AMDGPU_GEM_DOMAIN_VRAM, 0, h), "GEM_CREATE(VRAM)");
    kmd::FdMemory before, after;
    require(fa.file->memory(before), "reading the exporter's fdinfo");
    int fd = -1;
    require(fa.file->prime_export(h, fd), "PRIME_HANDLE_TO_FD");
    uint32_t imported = 0;
    kmd::Status st = fb.file->prime_import(fd, imported);
    ::close(fd);
    require(st, "PRIME_FD_TO_HANDLE on the peer");
    k.map_new(fb, imported, bytes);
    require(fa.file->memory(after), "reading the exporter's fdinfo");
    if (must_move) {
        // No XGMI and the BO beyond the BAR: the importer can only reach
        // system memory, so the exporter's BO must have moved to GTT.
        const uint64_t kib = (bytes + 1023) / 1024;
        if (after.gtt_kib >= before.gtt_kib + kib && after.vram_kib + kib <= before.vram_kib)
            return {};
        return fmt::format("importing on device {} (no P2P path to this BO in device {}'s "
                           "VRAM: it is larger than the BAR) left "
                           "the BO in VRAM: exporter drm-memory-vram {} -> {} KiB, "
                           "drm-memory-gtt {} -> {} KiB",
                           b, a, before.vram_kib, after.vram_kib, before.gtt_kib, after.gtt_kib);
    }
    if (after.vram_kib != before.vram_kib || after.gtt_kib != before.gtt_kib)
        return fmt::format("importing on device {} moved device {}'s BO: exporter "
                           "drm-memory-vram {} -> {} KiB, drm-memory-gtt {} -> {} KiB",
                           b, a, before.vram_kib, after.vram_kib, before.gtt_kib, after.gtt_kib);
    return {};
}

} // namespace harness::runner::detail

namespace harness::runner {

bool errno_matches(const std::string &want, int err) {
    return err == 0 ? want == "ok" : want == kmd::errno_name(err);
}

} // namespace harness::runner
