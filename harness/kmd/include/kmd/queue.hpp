// SDMA submission on one device: a context, a pool of IB slots in a GTT BO
// mapped in the device's VM, CS with an inline BO list, and fence waits.
//
// IBs follow fixtures/amdgpu-sim/KERNEL-MODEL.md §3.4: slot bases honour HW_IP_INFO's
// ib_start_alignment and the 32-byte IB base rule, and each IB is padded with
// NOPs to a multiple of 8 dwords and of ib_size_alignment. The kernel neither pads nor checks
// user IBs, so this is the harness's own discipline, not a kernel rule.
#pragma once

#include "kmd/bo.hpp"
#include "kmd/device.hpp"
#include "kmd/status.hpp"
#include "kmd/va_allocator.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace kmd {

// An amdgpu context, freed when the last user lets go: a wait that started
// before renew_context() keeps the old context alive until it returns.
struct Context {
    amdgpu_context_handle handle = nullptr;
    Context() = default;
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;
    ~Context();
};

// A submitted job: the kernel's sequence number in its context.
struct Fence {
    std::shared_ptr<Context> ctx;
    uint64_t seq = 0;
    explicit operator bool() const { return ctx && seq; }
};

class Queue {
  public:
    static constexpr uint32_t kSlotBytes = 64 * 1024;
    static constexpr uint32_t kSlots = 16;

    static Status create(Device &dev, VaAllocator &va, std::unique_ptr<Queue> &out);
    ~Queue();
    Queue(const Queue &) = delete;
    Queue &operator=(const Queue &) = delete;

    // Copies `ib` into a free slot (waiting for the slot's previous job),
    // pads it, and submits it on SDMA ring 0 with `bo_handles` (KMS handles)
    // resident. `fence` is what wait() takes.
    Status submit(std::span<const uint32_t> ib, std::span<const uint32_t> bo_handles, Fence &fence);
    // WAIT_CS with a relative timeout. A fence that signalled with an error
    // returns that errno (-ETIME job timeout, -ECANCELED guilty/VRAM lost);
    // not signalled within timeout_ns -> ETIME with call "AMDGPU_WAIT_CS(timeout)".
    Status wait(const Fence &fence, uint64_t timeout_ns);
    // QUERY_STATE2 flags (AMDGPU_CTX_QUERY2_FLAGS_*).
    Status reset_state(uint64_t &flags);
    // A context the kernel marked guilty refuses every CS with -ECANCELED;
    // replace it so later calls can run (the failure was already reported).
    Status renew_context();

    Device &device() const { return *dev_; }
    uint64_t default_timeout_ns() const { return timeout_ns_; }

  private:
    Queue() = default;
    Device *dev_ = nullptr;
    VaAllocator *va_alloc_ = nullptr;
    std::shared_ptr<Context> ctx_; // replaced by renew_context, under mu_
    std::unique_ptr<Bo> ib_bo_;
    std::unique_ptr<VaMapping> ib_map_;
    uint64_t ib_va_ = 0;
    uint32_t *ib_cpu_ = nullptr;
    std::mutex mu_; // slot selection, IB writes and CS are one critical section
    uint32_t next_slot_ = 0;
    Fence slot_fence_[kSlots];
    uint64_t timeout_ns_ = 20ull * 1000 * 1000 * 1000;
    uint32_t pad_dw_ = 8; // IB length multiple, in dwords
};

} // namespace kmd
