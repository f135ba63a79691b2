#include "kfd/kfd.hpp"

#include "kmd/job_timeout.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

namespace kfd {
namespace {

constexpr uint64_t kPage = 4096;

uint64_t page_up(uint64_t n) {
    return (n + kPage - 1) & ~(kPage - 1);
}

// Runs one libhsakmt call with errno cleared before and read right after it.
template <typename F> kmd::Status call(const char *name, F &&f) {
    errno = 0;
    const HSAKMT_STATUS st = f();
    const int e = errno;
    return from_hsakmt(st, e, name);
}

// hsaKmtAllocMemory answers HSAKMT_STATUS_NO_MEMORY whenever
// fmm_allocate_device finds no memory: the kernel's ALLOC refused (errno
// ENOMEM, amdgpu_amdkfd_reserve_mem_limit) or libhsakmt could not reserve
// the range in its own aperture, which leaves the errno of its failed VA
// reservation (EINVAL for 128 TiB and more under amdgpu-sim, which runs the
// real libhsakmt). The flags used here (a valid node, a size > 0, PUBLIC only
// where the caller knows the BAR is large) give the kernel no other reason to
// refuse, so NO_MEMORY is out of memory.
template <typename F> kmd::Status alloc_call(const char *name, F &&f) {
    errno = 0;
    const HSAKMT_STATUS st = f();
    const int e = errno;
    if (st == HSAKMT_STATUS_NO_MEMORY) return kmd::Status::fail(ENOMEM, name);
    return from_hsakmt(st, e, name);
}

// libhsakmt 5.2.3 keeps its events page (the mailboxes of signal events)
// across hsaKmtCloseKFD: clear_events_page() runs only in a forked child
// (openclose.c). An event made after KFD was closed and opened again names a
// mailbox in a page the new KFD process never mapped, and a job's FENCE there
// is a GPU page fault. So once a Session has closed after an event existed,
// queues made later poll their fence instead (SdmaQueue). Process-wide
// because libhsakmt's page is.
std::atomic<bool> g_events_made{false};
std::atomic<bool> g_closed_after_events{false};

} // namespace

kmd::Status from_hsakmt(HSAKMT_STATUS st, int saved_errno, const char *name) {
    if (st == HSAKMT_STATUS_SUCCESS) return kmd::Status::success();
    if (saved_errno > 0) return kmd::Status::fail(saved_errno, name);
    switch (st) {
    case HSAKMT_STATUS_NO_MEMORY:
    case HSAKMT_STATUS_OUT_OF_RESOURCES:
        return kmd::Status::fail(ENOMEM, name);
    case HSAKMT_STATUS_INVALID_PARAMETER:
    case HSAKMT_STATUS_INVALID_HANDLE:
    case HSAKMT_STATUS_INVALID_NODE_UNIT:
        return kmd::Status::fail(EINVAL, name);
    case HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED:
        return kmd::Status::fail(ENODEV, name);
    case HSAKMT_STATUS_NOT_SUPPORTED:
        return kmd::Status::fail(ENOTSUP, name);
    default:
        return kmd::Status::fail(EIO, name);
    }
}

kmd::Status Session::open(std::unique_ptr<Session> &out) {
    // KERNEL_ALREADY_OPENED: another user in this process holds it; libhsakmt
    // raised its open count all the same, so the close below balances it.
    if (kmd::Status s =
            call("hsaKmtOpenKFD",
                 [] {
                     const HSAKMT_STATUS st = hsaKmtOpenKFD();
                     return st == HSAKMT_STATUS_KERNEL_ALREADY_OPENED ? HSAKMT_STATUS_SUCCESS : st;
                 });
        !s)
        return s;
    std::unique_ptr<Session> k(new Session());
    k->open_ = true;
    // libhsakmt resolves node ids through its topology snapshot: without one
    // every per-node call (AllocMemory, MapMemoryToGPUNodes, CreateQueue)
    // refuses the node.
    HsaSystemProperties sys{};
    if (kmd::Status s = call("hsaKmtAcquireSystemProperties",
                             [&] { return hsaKmtAcquireSystemProperties(&sys); });
        !s)
        return s;
    k->acquired_ = true;
    out = std::move(k);
    return kmd::Status::success();
}

Session::~Session() {
    if (acquired_) hsaKmtReleaseSystemProperties();
    if (open_) {
        hsaKmtCloseKFD();
        if (g_events_made.load()) g_closed_after_events = true;
    }
}

kmd::Status Memory::alloc_vram(uint32_t node, uint64_t bytes, bool host_access,
                               std::unique_ptr<Memory> &out) {
    if (bytes == 0) return kmd::Status::fail(EINVAL, "hsaKmtAllocMemory(size 0)");
    std::unique_ptr<Memory> m(new Memory());
    m->bytes_ = page_up(bytes);
    m->node_ = node;
    HsaMemFlags flags{};
    flags.ui32.NonPaged = 1;     // device-local: preferred node is a GPU
    flags.ui32.NoSubstitute = 1; // VRAM or nothing, never system memory instead
    flags.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    flags.ui32.CoarseGrain = 1;
    flags.ui32.HostAccess = host_access ? 1 : 0;
    if (kmd::Status s =
            alloc_call("hsaKmtAllocMemory(VRAM)",
                       [&] { return hsaKmtAllocMemory(node, m->bytes_, flags, &m->addr_); });
        !s)
        return s;
    m->host_visible_ = host_access;
    out = std::move(m);
    return kmd::Status::success();
}

kmd::Status Memory::alloc_host(uint64_t bytes, std::unique_ptr<Memory> &out) {
    if (bytes == 0) return kmd::Status::fail(EINVAL, "hsaKmtAllocMemory(size 0)");
    std::unique_ptr<Memory> m(new Memory());
    m->bytes_ = page_up(bytes);
    m->host_visible_ = true;
    HsaMemFlags flags{};
    flags.ui32.HostAccess = 1;
    flags.ui32.NonPaged = 1; // GTT, not a userptr of pageable memory
    flags.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    if (kmd::Status s =
            alloc_call("hsaKmtAllocMemory(host)",
                       [&] { return hsaKmtAllocMemory(0, m->bytes_, flags, &m->addr_); });
        !s)
        return s;
    out = std::move(m);
    return kmd::Status::success();
}

kmd::Status Memory::register_user(const void *cpu, uint64_t bytes, uint32_t node,
                                  std::unique_ptr<Memory> &out) {
    if (!cpu || bytes == 0) return kmd::Status::fail(EINVAL, "hsaKmtRegisterMemoryToNodes");
    // libhsakmt keeps the pointer and hands it to the kernel as the userptr;
    // it never writes through it (the GPU may, which is the point of WRITABLE).
    void *user = const_cast<void *>(cpu);
    HSAuint32 nodes[] = {node};
    if (kmd::Status s = call("hsaKmtRegisterMemoryToNodes",
                             [&] { return hsaKmtRegisterMemoryToNodes(user, bytes, 1, nodes); });
        !s)
        return s;
    // From here the destructor deregisters (and never frees the caller's pages).
    std::unique_ptr<Memory> m(new Memory());
    m->addr_ = user;
    m->bytes_ = bytes;
    m->node_ = node;
    m->registered_ = true;
    HSAuint64 gpu_va = 0;
    HsaMemMapFlags flags{};
    if (kmd::Status s = call(
            "hsaKmtMapMemoryToGPUNodes",
            [&] { return hsaKmtMapMemoryToGPUNodes(m->addr_, bytes, &gpu_va, flags, 1, nodes); });
        !s)
        return s;
    m->nodes_ = {node};
    m->gpu_va_ = gpu_va;
    out = std::move(m);
    return kmd::Status::success();
}

Memory::~Memory() {
    if (!addr_) return;
    // A destructor cannot report; callers that care call unmap() first.
    if (!nodes_.empty()) (void)unmap();
    if (registered_)
        hsaKmtDeregisterMemory(addr_);
    else
        hsaKmtFreeMemory(addr_, bytes_);
}

kmd::Status Memory::map_exact(std::span<const uint32_t> nodes) {
    std::vector<HSAuint32> arr(nodes.begin(), nodes.end());
    HSAuint64 gpu_va = 0;
    HsaMemMapFlags flags{};
    return call("hsaKmtMapMemoryToGPUNodes", [&] {
        return hsaKmtMapMemoryToGPUNodes(addr_, bytes_, &gpu_va, flags, arr.size(), arr.data());
    });
}

kmd::Status Memory::map_to(std::span<const uint32_t> nodes) {
    std::vector<uint32_t> want(nodes.begin(), nodes.end());
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    if (want == nodes_) return kmd::Status::success();
    if (want.empty()) return unmap();
    const bool grows = std::includes(want.begin(), want.end(), nodes_.begin(), nodes_.end());
    if (!grows) {
        // libhsakmt's own shrink path builds its list of nodes to drop in a
        // buffer sized by the buffer's registered nodes, which is empty for
        // memory that was never registered; unmapping everything and mapping
        // the remaining set again avoids that path.
        if (kmd::Status s = unmap(); !s) return s;
    }
    kmd::Status s = map_exact(want);
    if (s) {
        nodes_ = want;
        return s;
    }
    // The kernel maps device by device and stops at the first refusal
    // (kfd_ioctl_map_memory_to_gpu: n_success), so some of the new nodes may
    // be mapped now; put the buffer back on its old set (or nothing).
    std::vector<uint32_t> old = grows ? nodes_ : std::vector<uint32_t>{};
    const bool was_grow = grows;
    nodes_ = want; // what might be mapped: unmap() must name every node
    (void)unmap();
    if (was_grow && !old.empty() && map_exact(old)) nodes_ = old;
    return s;
}

kmd::Status Memory::unmap() {
    if (nodes_.empty()) return kmd::Status::success();
    nodes_.clear();
    return call("hsaKmtUnmapMemoryToGPU", [&] { return hsaKmtUnmapMemoryToGPU(addr_); });
}

void FaultEvents::create(std::unique_ptr<FaultEvents> &out) {
    out.reset();
    if (g_closed_after_events.load()) return; // libhsakmt's events page is stale
    std::unique_ptr<FaultEvents> f(new FaultEvents());
    HsaEventDescriptor desc{};
    desc.EventType = HSA_EVENTTYPE_MEMORY;
    if (hsaKmtCreateEvent(&desc, false, false, &f->event_) != HSAKMT_STATUS_SUCCESS || !f->event_)
        return;
    g_events_made = true;
    out = std::move(f);
}

FaultEvents::~FaultEvents() {
    if (event_) hsaKmtDestroyEvent(event_);
}

void FaultEvents::poll() {
    std::lock_guard lock(mu_);
    HsaMemoryAccessFault &f = event_->EventData.EventData.MemoryAccessFault;
    f.Flags = HSA_EVENTID_MEMORY_RECOVERABLE; // libhsakmt writes FATAL_PROCESS with a report
    if (hsaKmtWaitOnEvent(event_, 0) != HSAKMT_STATUS_SUCCESS) return;
    if (f.Flags == HSA_EVENTID_MEMORY_FATAL_PROCESS) faults_[f.NodeId] = f.VirtualAddress;
}

std::optional<uint64_t> FaultEvents::fault_on(uint32_t node) const {
    std::lock_guard lock(mu_);
    auto it = faults_.find(node);
    if (it == faults_.end()) return std::nullopt;
    return it->second;
}

kmd::Status SdmaQueue::create(uint32_t node, sdma::Generation gen, std::unique_ptr<SdmaQueue> &out,
                              FaultEvents *faults) {
    std::unique_ptr<SdmaQueue> q(new SdmaQueue());
    q->node_ = node;
    q->gen_ = gen;
    q->faults_ = faults;
    const uint32_t on[] = {node};
    if (kmd::Status s = Memory::alloc_host(kRingBytes, q->ring_); !s) return s;
    if (kmd::Status s = q->ring_->map_to(on); !s) return s;
    if (kmd::Status s = Memory::alloc_host(kPage, q->fence_); !s) return s;
    if (kmd::Status s = q->fence_->map_to(on); !s) return s;
    std::memset(q->ring_->cpu(), 0, kRingBytes);
    std::memset(q->fence_->cpu(), 0, kPage);
    if (kmd::Status s =
            call("hsaKmtCreateQueue(SDMA)",
                 [&] {
                     return hsaKmtCreateQueue(node, HSA_QUEUE_SDMA, 100, HSA_QUEUE_PRIORITY_NORMAL,
                                              q->ring_->cpu(), kRingBytes, nullptr, &q->res_);
                 });
        !s)
        return s;
    q->created_ = true;
    // An auto-reset signal event: each TRAP sets it, each wait that sees it
    // set clears it. Without one the waits poll (the kernel may refuse: a
    // full event table answers -ENOSPC; or libhsakmt's events page is stale,
    // see g_closed_after_events).
    HsaEventDescriptor desc{};
    desc.EventType = HSA_EVENTTYPE_SIGNAL;
    desc.NodeId = node;
    if (!g_closed_after_events.load() &&
        hsaKmtCreateEvent(&desc, false, false, &q->event_) == HSAKMT_STATUS_SUCCESS && q->event_) {
        g_events_made = true;
        if (!q->event_->EventData.HWData2) {
            hsaKmtDestroyEvent(q->event_);
            q->event_ = nullptr;
        }
    } else {
        q->event_ = nullptr;
    }
    const std::optional<uint64_t> ms = kmd::sdma_job_timeout_ms();
    q->timeout_ns_ = std::max(ms.value_or(kNoTimeoutMs), kMinTimeoutMs) * 1000 * 1000;
    out = std::move(q);
    return kmd::Status::success();
}

SdmaQueue::~SdmaQueue() {
    if (created_) {
        if (last_seq_ && !hung_ && !evicted()) (void)wait(last_seq_, timeout_ns_);
        hsaKmtDestroyQueue(res_.QueueId);
    }
    if (event_) hsaKmtDestroyEvent(event_);
}

uint32_t SdmaQueue::completed() const {
    return __atomic_load_n(reinterpret_cast<const uint32_t *>(fence_->cpu()), __ATOMIC_ACQUIRE);
}

uint64_t SdmaQueue::read_pointer() const {
    return __atomic_load_n(res_.Queue_read_ptr_aql, __ATOMIC_ACQUIRE);
}

bool SdmaQueue::evicted() {
    if (!faults_) return false;
    faults_->poll();
    return faults_->fault_on(node_).has_value();
}

kmd::Status SdmaQueue::submit(std::span<const uint32_t> packets, uint64_t &seq) {
    std::lock_guard lock(mu_);
    if (evicted()) return kmd::Status::fail(EFAULT, kEvictedCall);
    if (hung_) return kmd::Status::fail(ECANCELED, "kfd SDMA queue(hung)");
    const uint32_t value = next_seq_;
    std::vector<uint32_t> dw(packets.begin(), packets.end());
    if (dw.empty()) return kmd::Status::fail(EINVAL, "kfd SDMA submit(empty)");
    if (sdma::fence(dw, gen_, fence_->va(), value) != sdma::Error::none)
        return kmd::Status::fail(EINVAL, "sdma::fence");
    // The interrupt after the fence: the event's mailbox slot holds its id
    // (kfd_signal_event_interrupt acts only on a written slot), then TRAP
    // (ROCr: BlitSdma's fence and trap commands for an interrupt signal).
    if (event_) {
        const auto id = static_cast<uint32_t>(event_->EventId);
        if (sdma::fence(dw, gen_, event_->EventData.HWData2, id) != sdma::Error::none ||
            sdma::trap(dw, gen_, id) != sdma::Error::none)
            return kmd::Status::fail(EINVAL, "sdma::trap");
    }
    const uint64_t bytes = dw.size() * 4;
    // A packet must not run across the ring's end: the tail is filled with
    // zero dwords (one-dword NOPs) first, as ROCr's SDMA blit does.
    const uint64_t pos = wptr_ % kRingBytes;
    const uint64_t tail = pos + bytes > kRingBytes ? kRingBytes - pos : 0;
    const uint64_t need = tail + bytes;
    if (need >= kRingBytes) return kmd::Status::fail(E2BIG, "kfd SDMA submit(ring size)");
    // Space: at most ring - 1 bytes outstanding between rptr and wptr.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns_);
    while (wptr_ + need - read_pointer() > kRingBytes - 1) {
        if (std::chrono::steady_clock::now() > deadline) {
            hung_ = true; // the engine stopped consuming the ring
            return kmd::Status::fail(ETIME, "kfd SDMA ring(full)");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    auto *ring = reinterpret_cast<uint32_t *>(ring_->cpu());
    if (tail) {
        std::memset(ring + pos / 4, 0, tail);
        wptr_ += tail;
    }
    std::memcpy(ring + (wptr_ % kRingBytes) / 4, dw.data(), bytes);
    wptr_ += bytes;
    // The packets must be visible before the engine learns the new wptr.
    __atomic_store_n(res_.Queue_write_ptr_aql, wptr_, __ATOMIC_RELEASE);
    __atomic_store_n(res_.Queue_DoorBell_aql, wptr_, __ATOMIC_RELEASE);
    ++next_seq_;
    if (next_seq_ == 0) next_seq_ = 1;
    seq = value;
    last_seq_ = value;
    job_end_[value % kJobEnds] = {value, wptr_};
    return kmd::Status::success();
}

namespace {

// How long a waiter sleeps between looks at the fence: an eighth of what it
// has waited so far, from 20 us up to 1 ms. A 64 MiB copy waited on in 20 us
// steps woke its waiter about a thousand times, each a context switch that
// the engine's own thread (or a neighbour job) could have used; this way it
// wakes a few dozen times and is late by at most an eighth.
std::chrono::microseconds poll_interval(std::chrono::steady_clock::duration waited) {
    const auto eighth = std::chrono::duration_cast<std::chrono::microseconds>(waited / 8);
    return std::clamp(eighth, std::chrono::microseconds(20), std::chrono::microseconds(1000));
}

// Sleeps between looks at `done` (poll_interval) until it holds; false when
// `deadline` passes first.
template <class Done> bool poll_until(Done done, std::chrono::steady_clock::time_point deadline) {
    const auto since = std::chrono::steady_clock::now();
    while (!done()) {
        const auto now = std::chrono::steady_clock::now();
        if (now > deadline) return false;
        std::this_thread::sleep_for(poll_interval(now - since));
    }
    return true;
}

} // namespace

kmd::Status SdmaQueue::wait(uint64_t seq, uint64_t timeout_ns) {
    if (seq == 0) return kmd::Status::fail(EINVAL, "kfd SDMA fence(no job)");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns);
    auto done = [&] { return int32_t(completed() - uint32_t(seq)) >= 0; };
    bool cancelled = false, gone = false;
    auto finished = [&] {
        if (done()) return true;
        cancelled = hung_.load(); // another waiter found the queue hung
        // The job will never run. The engine writes a faulting job's fence
        // before the fault evicts the queue, so done() is asked again: a job
        // that completed just before the eviction is not lost.
        gone = !cancelled && evicted() && !done();
        return cancelled || gone;
    };
    bool in_time = true;
    if (!event_) {
        // Spin briefly (small copies finish in microseconds), then sleep.
        for (int i = 0; i < 200 && !done(); ++i)
            std::this_thread::yield();
        in_time = poll_until(finished, deadline);
    } else {
        // Slices of 1 ms: a signal that another thread's wait took (one
        // event serves every job of the queue) delays this one that long
        // at most; the fence word decides, never the wake-up alone.
        while (!finished()) {
            if (std::chrono::steady_clock::now() > deadline) {
                in_time = false;
                break;
            }
            (void)hsaKmtWaitOnEvent(event_, 1);
        }
    }
    if (cancelled) return kmd::Status::fail(ECANCELED, "kfd SDMA queue(hung)");
    if (gone) return kmd::Status::fail(EFAULT, kEvictedCall);
    if (!in_time) {
        hung_ = true;
        return kmd::Status::fail(ETIME, "kfd SDMA fence(timeout)");
    }
    return wait_read_pointer(seq, deadline);
}

kmd::Status SdmaQueue::wait_read_pointer(uint64_t seq,
                                         std::chrono::steady_clock::time_point deadline) {
    // The engine reports how far it consumed the ring by writing rptr back
    // (ROCr and this queue find ring space by it). The write-back is not
    // ordered with the job's fence, so it may trail by a moment; a job whose
    // fence signalled while rptr never reaches its end is a queue that will
    // look full forever: hung, like a lost fence.
    uint64_t end = 0;
    {
        std::lock_guard lock(mu_);
        const JobEnd &j = job_end_[seq % kJobEnds];
        if (j.seq != seq) return kmd::Status::success(); // too old to check
        end = j.wptr;
    }
    if (!poll_until([&] { return read_pointer() >= end; }, deadline)) {
        hung_ = true;
        return kmd::Status::fail(ETIME, "kfd SDMA rptr(not written back)");
    }
    return kmd::Status::success();
}

kmd::Status SdmaQueue::run(std::span<const uint32_t> packets, uint64_t timeout_ns) {
    uint64_t seq = 0;
    if (kmd::Status s = submit(packets, seq); !s) return s;
    return wait(seq, timeout_ns);
}

} // namespace kfd
