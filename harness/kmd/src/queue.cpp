#include "kmd/queue.hpp"

#include <amdgpu_drm.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace kmd {

Context::~Context() {
    if (handle) amdgpu_cs_ctx_free(handle);
}

Status Queue::create(Device &dev, VaAllocator &va, std::unique_ptr<Queue> &out) {
    std::unique_ptr<Queue> q(new Queue());
    q->dev_ = &dev;
    q->va_alloc_ = &va;
    // IB starts: slot bases are multiples of kSlotBytes, which must satisfy
    // HW_IP_INFO's ib_start_alignment and the ring's 32-byte IB base rule
    // (sdma_vN_ring_emit_ib drops the low 5 bits). IB sizes: a multiple of
    // 8 dwords (as sdma_vN_ring_pad_ib) and of ib_size_alignment.
    const uint32_t start_align = std::max<uint32_t>(dev.info().ib_start_alignment, 32);
    if (kSlotBytes % start_align != 0)
        return Status::fail(EINVAL, "HW_IP_INFO(ib_start_alignment)");
    q->pad_dw_ = std::max<uint32_t>(8, dev.info().ib_size_alignment / 4);
    if (q->pad_dw_ & (q->pad_dw_ - 1)) return Status::fail(EINVAL, "HW_IP_INFO(ib_size_alignment)");
    q->ctx_ = std::make_shared<Context>();
    if (Status s = Status::from_ret(amdgpu_cs_ctx_create(dev.handle(), &q->ctx_->handle),
                                    "AMDGPU_CTX(ALLOC)");
        !s)
        return s;
    const uint64_t bytes = uint64_t(kSlotBytes) * kSlots;
    if (Status s = Bo::alloc(dev, bytes, Domain::gtt, 0, q->ib_bo_); !s) return s;
    void *cpu = nullptr;
    if (Status s = q->ib_bo_->cpu_map(&cpu); !s) return s;
    q->ib_cpu_ = static_cast<uint32_t *>(cpu);
    auto va_addr = va.allocate(bytes, 64 * 1024);
    if (!va_addr) return Status::fail(ENOMEM, "va_allocator");
    q->ib_va_ = *va_addr;
    if (Status s = VaMapping::map(*q->ib_bo_, q->ib_va_, bytes,
                                  VaMapping::kReadWrite | AMDGPU_VM_PAGE_EXECUTABLE, q->ib_map_);
        !s) {
        va.release(q->ib_va_);
        q->ib_va_ = 0;
        return s;
    }
    out = std::move(q);
    return Status::success();
}

Queue::~Queue() {
    // Let in-flight jobs finish before their IB memory goes away.
    for (const Fence &f : slot_fence_)
        if (f) (void)wait(f, timeout_ns_);
    ib_map_.reset();
    if (ib_va_) va_alloc_->release(ib_va_);
    ib_bo_.reset();
    ctx_.reset();
}

Status Queue::submit(std::span<const uint32_t> ib, std::span<const uint32_t> bo_handles,
                     Fence &fence) {
    // Pad with single NOPs (op 0): valid on every generation and independent
    // of the burst-NOP firmware feature.
    const size_t padded = (ib.size() + pad_dw_ - 1) & ~size_t(pad_dw_ - 1);
    if (ib.empty() || padded * 4 > kSlotBytes) return Status::fail(E2BIG, "ib_slot");

    std::lock_guard lock(mu_);
    const uint32_t slot = next_slot_;
    if (slot_fence_[slot]) {
        // A job that ended with an error is still over, and its error belongs
        // to whoever waited for it; only a job still running holds the slot.
        Status s = wait(slot_fence_[slot], timeout_ns_);
        if (!s && s.call && std::strcmp(s.call, "AMDGPU_WAIT_CS(timeout)") == 0) return s;
        slot_fence_[slot] = Fence{};
    }
    uint32_t *dst = ib_cpu_ + size_t(slot) * (kSlotBytes / 4);
    std::memcpy(dst, ib.data(), ib.size() * 4);
    std::memset(dst + ib.size(), 0, (padded - ib.size()) * 4);

    std::vector<drm_amdgpu_bo_list_entry> entries;
    entries.reserve(bo_handles.size() + 1);
    entries.push_back({ib_bo_->kms_handle(), 0});
    for (uint32_t h : bo_handles)
        entries.push_back({h, 0});

    drm_amdgpu_bo_list_in list{};
    list.operation = ~0u; // ignored for the inline chunk
    list.list_handle = ~0u;
    list.bo_number = static_cast<uint32_t>(entries.size());
    list.bo_info_size = sizeof(drm_amdgpu_bo_list_entry);
    list.bo_info_ptr = reinterpret_cast<uintptr_t>(entries.data());

    drm_amdgpu_cs_chunk_ib ibc{};
    ibc.va_start = ib_va_ + uint64_t(slot) * kSlotBytes;
    ibc.ib_bytes = static_cast<uint32_t>(padded * 4);
    ibc.ip_type = AMDGPU_HW_IP_DMA;
    ibc.ip_instance = 0;
    ibc.ring = 0;

    drm_amdgpu_cs_chunk chunks[2]{};
    chunks[0].chunk_id = AMDGPU_CHUNK_ID_IB;
    chunks[0].length_dw = sizeof(ibc) / 4;
    chunks[0].chunk_data = reinterpret_cast<uintptr_t>(&ibc);
    chunks[1].chunk_id = AMDGPU_CHUNK_ID_BO_HANDLES;
    chunks[1].length_dw = sizeof(list) / 4;
    chunks[1].chunk_data = reinterpret_cast<uintptr_t>(&list);

    uint64_t s_no = 0;
    if (Status s = Status::from_ret(
            amdgpu_cs_submit_raw2(dev_->handle(), ctx_->handle, 0, 2, chunks, &s_no), "AMDGPU_CS");
        !s)
        return s;
    slot_fence_[slot] = Fence{ctx_, s_no};
    next_slot_ = (slot + 1) % kSlots;
    fence = slot_fence_[slot];
    return Status::success();
}

Status Queue::wait(const Fence &fence, uint64_t timeout_ns) {
    if (!fence) return Status::fail(EINVAL, "AMDGPU_WAIT_CS(no fence)");
    amdgpu_cs_fence f{};
    f.context = fence.ctx->handle;
    f.ip_type = AMDGPU_HW_IP_DMA;
    f.ip_instance = 0;
    f.ring = 0;
    f.fence = fence.seq;
    uint32_t expired = 0;
    if (Status s = Status::from_ret(amdgpu_cs_query_fence_status(&f, timeout_ns, 0, &expired),
                                    "AMDGPU_WAIT_CS");
        !s)
        return s;
    if (!expired) return Status::fail(ETIME, "AMDGPU_WAIT_CS(timeout)");
    return Status::success();
}

Status Queue::reset_state(uint64_t &flags) {
    std::shared_ptr<Context> c;
    {
        std::lock_guard lock(mu_);
        c = ctx_;
    }
    return Status::from_ret(amdgpu_cs_query_reset_state2(c->handle, &flags),
                            "AMDGPU_CTX(QUERY_STATE2)");
}

Status Queue::renew_context() {
    auto fresh = std::make_shared<Context>();
    if (Status s = Status::from_ret(amdgpu_cs_ctx_create(dev_->handle(), &fresh->handle),
                                    "AMDGPU_CTX(ALLOC)");
        !s)
        return s;
    std::lock_guard lock(mu_);
    // Slots keep their old fences (and so the old context) until reused: a
    // waiter elsewhere may still be using that context.
    ctx_ = std::move(fresh);
    return Status::success();
}

} // namespace kmd
