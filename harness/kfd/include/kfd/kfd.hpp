// The KFD path to GPU memory and copies, the way ROCm's runtime takes it:
// everything through libhsakmt (hsaKmtOpenKFD, hsaKmtAllocMemory,
// hsaKmtMapMemoryToGPUNodes, hsaKmtCreateQueue), never through a render node
// of our own. Each object is RAII; every failure is a kmd::Status carrying
// the kernel's errno (as libhsakmt leaves it after the failing ioctl) and the
// libhsakmt call's name.
#pragma once

#include "kmd/status.hpp"
#include "sdma/packets.hpp"

#include <hsakmt.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace kfd {

// A libhsakmt result as a Status. `saved_errno` is errno read right after the
// call (cleared before it): libhsakmt's ioctl wrapper returns -1 and keeps the
// kernel's errno, so a refusal by the kernel arrives with its own errno. A
// status without an errno (libhsakmt refused before any ioctl) is mapped to
// the nearest errno: NO_MEMORY/OUT_OF_RESOURCES -> ENOMEM, INVALID_* -> EINVAL,
// KERNEL_IO_CHANNEL_NOT_OPENED -> ENODEV, NOT_SUPPORTED -> ENOTSUP, anything
// else -> EIO.
kmd::Status from_hsakmt(HSAKMT_STATUS st, int saved_errno, const char *call);

// hsaKmtOpenKFD and hsaKmtAcquireSystemProperties for the object's lifetime
// (libhsakmt counts opens; the KFD process, its buffers and queues stay while
// any session is open). libhsakmt keeps one topology snapshot per process and
// kmd::read_topology releases it, so read the topology before opening a
// session, not while one is open.
class Session {
  public:
    static kmd::Status open(std::unique_ptr<Session> &out);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

  private:
    Session() = default;
    bool open_ = false, acquired_ = false;
};

// One hsaKmtAllocMemory buffer. Its address is the GPU VA on every node it is
// mapped to (libhsakmt's SVM aperture); `nodes()` are the KFD nodes whose VM
// maps it now.
class Memory {
  public:
    // Device-local memory of `node` (NonPaged, NoSubstitute). With
    // `host_access` (HostAccess: KFD's ALLOC_MEM_FLAGS_PUBLIC, which the
    // kernel refuses on a small-BAR GPU) libhsakmt also maps it for the CPU
    // at its own address (ROCT fmm.c, fmm_allocate_device: MAP_SHARED of the
    // render node at the BO's mmap offset), and cpu() returns that address.
    // Not mapped on any GPU node yet.
    static kmd::Status alloc_vram(uint32_t node, uint64_t bytes, bool host_access,
                                  std::unique_ptr<Memory> &out);
    // Non-paged system memory (libhsakmt makes a GTT BO and maps it for the
    // CPU); GTT is never refused by kfd_mem_attach, so any GPU may map it.
    static kmd::Status alloc_host(uint64_t bytes, std::unique_ptr<Memory> &out);
    // The caller's own pageable memory [cpu, cpu + bytes) registered with KFD
    // as a userptr BO (hsaKmtRegisterMemoryToNodes) and mapped on `node`. The
    // GPU reaches it at va(), which is not the CPU address: libhsakmt places
    // userptr BOs in its dGPU aperture and returns that address plus the
    // offset into the first page (ROCT fmm.c, _fmm_map_to_gpu_userptr). The
    // pages must stay mapped while this object lives; map_to() does not apply.
    static kmd::Status register_user(const void *cpu, uint64_t bytes, uint32_t node,
                                     std::unique_ptr<Memory> &out);
    // Unmaps (if mapped) and frees (deregisters registered memory).
    ~Memory();
    Memory(const Memory &) = delete;
    Memory &operator=(const Memory &) = delete;

    // Makes the buffer mapped on exactly `nodes` (hsaKmtMapMemoryToGPUNodes).
    // Growing the set maps the new nodes; shrinking it unmaps everything and
    // maps the remaining set again (libhsakmt has no per-node unmap call).
    // On failure `nodes()` is what libhsakmt and the kernel are left with as
    // far as this object can tell: the old set when a grow failed (the kernel
    // maps nothing new that it refused; nodes it did map before the refusal
    // are unmapped again by a remap to the old set).
    kmd::Status map_to(std::span<const uint32_t> nodes);
    // hsaKmtUnmapMemoryToGPU: off every node.
    kmd::Status unmap();

    uint64_t va() const { return registered_ ? gpu_va_ : reinterpret_cast<uint64_t>(addr_); }
    // The CPU's address of the bytes: system memory, and VRAM allocated with
    // host access; nullptr otherwise.
    uint8_t *cpu() const { return host_visible_ ? static_cast<uint8_t *>(addr_) : nullptr; }
    uint64_t bytes() const { return bytes_; }
    uint32_t owner_node() const { return node_; }
    const std::vector<uint32_t> &nodes() const { return nodes_; }

  private:
    Memory() = default;
    kmd::Status map_exact(std::span<const uint32_t> nodes);
    void *addr_ = nullptr;
    uint64_t bytes_ = 0;
    uint32_t node_ = 0;
    bool host_visible_ = false; // mapped for the CPU at addr_
    bool registered_ = false;   // register_user: a userptr of the caller's pages
    uint64_t gpu_va_ = 0;       // registered: what hsaKmtMapMemoryToGPUNodes returned
    std::vector<uint32_t> nodes_;
};

// The VM faults KFD reports to this process: one memory event
// (HSA_EVENTTYPE_MEMORY, the event kfd_signal_vm_fault_event sets with the
// fault's GPU and page), read without waiting. Where the kernel reports a
// fault it has also evicted the process's queues on that GPU for good
// (kfd_dqm_evict_pasid; queues made later start evicted), so a queue on a
// faulted node never runs another job (kfd_int_process_v9.c
// event_interrupt_wq_v9; fixtures/amdgpu-sim/kfd/kfd_int_process.cpp has the
// rule per kernel version). Two faults before one look leave only the later
// one's GPU known, as the kernel keeps one report per event.
class FaultEvents {
  public:
    // Null `out` where no event can be made (as for SdmaQueue's own event):
    // an evicted queue is then found by its jobs' timeout.
    static void create(std::unique_ptr<FaultEvents> &out);
    ~FaultEvents();
    FaultEvents(const FaultEvents &) = delete;
    FaultEvents &operator=(const FaultEvents &) = delete;
    // Takes in what the kernel reported since the last look.
    void poll();
    // The page of the VM fault reported on `node`, if any.
    std::optional<uint64_t> fault_on(uint32_t node) const;

  private:
    FaultEvents() = default;
    HsaEvent *event_ = nullptr; // auto-reset: each report is read once
    mutable std::mutex mu_;
    std::map<uint32_t, uint64_t> faults_; // node -> page
};

// An SDMA user-mode queue on one GPU node (hsaKmtCreateQueue HSA_QUEUE_SDMA):
// a ring and a fence word in host memory mapped onto that node, the doorbell
// libhsakmt mapped. submit() appends packets plus a FENCE writing the job's
// sequence number, then writes the 64-bit byte count to the wptr and rings the
// doorbell (GFX9+ SDMA user queues take a monotonic byte count). Each job
// then writes the queue's KFD signal event's mailbox and raises a TRAP with
// its id, as ROCr's SDMA blit does for an interrupt signal, so wait() sleeps
// in hsaKmtWaitOnEvent until a job completes instead of polling the fence
// word on a timer (where the event cannot be made, it polls). Jobs on one
// queue complete in order.
class SdmaQueue {
  public:
    static constexpr uint64_t kRingBytes = 256 * 1024;
    // The call name of the status of a queue on a GPU where a VM fault was
    // reported (FaultEvents): EFAULT.
    static constexpr const char *kEvictedCall = "kfd SDMA queue(evicted after a VM fault)";
    // `faults` (may be null, must outlive the queue): the process's fault
    // reports; once one names this node, submit() and wait() fail at once
    // with EFAULT ("kfd SDMA queue(evicted after a VM fault)").
    static kmd::Status create(uint32_t node, sdma::Generation gen, std::unique_ptr<SdmaQueue> &out,
                              FaultEvents *faults = nullptr);
    // Waits for every submitted job (bounded), destroys the queue, frees memory.
    ~SdmaQueue();
    SdmaQueue(const SdmaQueue &) = delete;
    SdmaQueue &operator=(const SdmaQueue &) = delete;

    // `packets` must not be empty and must fit in the ring with the fence.
    // Waits (up to the timeout) for ring space. `seq` is what wait() takes.
    kmd::Status submit(std::span<const uint32_t> packets, uint64_t &seq);
    // ETIME ("kfd SDMA fence(timeout)") when the fence has not reached seq in
    // time, or ("kfd SDMA rptr(not written back)") when the engine's rptr
    // write-back never reaches the end of a finished job. The queue is then hung for good (its
    // later jobs would wait behind the stuck one, and a user queue has no kernel timeout to clear
    // it): every later submit and every wait for an unfinished job fails at once with ECANCELED
    // ("kfd SDMA queue(hung)"), the DRM path's answer for a guilty context, until the owner
    // replaces the queue.
    kmd::Status wait(uint64_t seq, uint64_t timeout_ns);
    kmd::Status run(std::span<const uint32_t> packets, uint64_t timeout_ns);
    bool hung() const { return hung_.load(); }

    uint32_t node() const { return node_; }
    sdma::Generation generation() const { return gen_; }
    // The kernel's SDMA job timeout (kmd::sdma_job_timeout_ms: the amdgpu
    // lockup_timeout parameter), at least kMinTimeoutMs so that a loaded
    // host's scheduling delay is never taken for a hang, and kNoTimeoutMs
    // where the kernel has none (a host poll must end).
    static constexpr uint64_t kMinTimeoutMs = 2000;
    static constexpr uint64_t kNoTimeoutMs = 60000;
    uint64_t default_timeout_ns() const { return timeout_ns_; }
    // What the engine wrote back (bytes consumed); for tests.
    uint64_t read_pointer() const;

  private:
    SdmaQueue() = default;
    uint32_t completed() const;
    kmd::Status wait_read_pointer(uint64_t seq, std::chrono::steady_clock::time_point deadline);
    // Where each of the last kJobEnds jobs ends in the ring (bytes, as wptr).
    struct JobEnd {
        uint64_t seq = 0;
        uint64_t wptr = 0;
    };
    static constexpr size_t kJobEnds = 64;
    std::array<JobEnd, kJobEnds> job_end_{};
    uint32_t node_ = 0;
    sdma::Generation gen_ = sdma::Generation::v4;
    std::unique_ptr<Memory> ring_, fence_;
    HsaEvent *event_ = nullptr; // signalled by every job's TRAP; null: poll
    HsaQueueResource res_{};
    bool created_ = false;
    std::mutex mu_;
    uint64_t wptr_ = 0; // bytes written, monotonic
    uint32_t next_seq_ = 1;
    uint64_t last_seq_ = 0;
    uint64_t timeout_ns_ = kNoTimeoutMs * 1000 * 1000;
    std::atomic<bool> hung_{false};
    FaultEvents *faults_ = nullptr;
    bool evicted(); // a fault reported on this node (polls the reports)
};

} // namespace kfd
