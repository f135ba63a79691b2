// hipMalloc / hipFree / hipMemGetAddressRange and host transfers.
#include "api_common.hpp"
#include "copy_paths.hpp"

#include <amdgpu_drm.h>

#include <cerrno>

using namespace peer;

namespace {
constexpr uint64_t kPage = 4096;
constexpr uint64_t kGuard = kPage; // unmapped page after each allocation

hipError_t fail(const kmd::Status &s) {
    record_kernel_error(s);
    return Runtime::map_kernel_error(s);
}

// KFD path (CONTRACT.md §7): hsaKmtAllocMemory on the owner's node, mapped
// onto the owner and every device that enabled access to it. The address is
// libhsakmt's (its SVM aperture); there is no guard page of ours after it.
// Host access where the owner's whole VRAM is in its BAR, as ROCr's
// device-local region asks for it (HostAccess unless the heap is
// FRAME_BUFFER_PRIVATE: amd_memory_region.cpp); the kernel refuses it on a
// small BAR.
hipError_t malloc_kfd(Runtime &rt, int c, size_t size, uint64_t bytes, void **ptr) {
    auto a = std::make_shared<Allocation>();
    a->owner = c;
    a->size = size;
    const kmd::GpuNode &node = rt.device(c).node;
    if (kmd::Status s = kfd::Memory::alloc_vram(node.node, bytes, !node.small_bar, a->kmem); !s)
        return fail(s);
    a->base = a->kmem->va();
    const uint32_t own[] = {node.node};
    if (kmd::Status s = a->kmem->map_to(own); !s) return fail(s);
    std::lock_guard lock(rt.mu);
    for (int p = 0; p < rt.count(); ++p) {
        if (p == c || !rt.enabled[size_t(p)][size_t(c)]) continue;
        if (kmd::Status m = rt.map_into(*a, p); !m) return fail(m); // kmem frees it all
    }
    rt.table.insert({a->base, a->size, c, a});
    *ptr = reinterpret_cast<void *>(a->base);
    return hipSuccess;
}
} // namespace

hipError_t api::hipMalloc(void **ptr, size_t size) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!ptr) return hipErrorInvalidValue;
    if (size == 0) {
        *ptr = nullptr; // as HIP: success, no allocation
        return hipSuccess;
    }
    const int c = thread_state().current_device;
    PeerDevice &d = rt->device(c);
    const uint64_t bo_bytes = (uint64_t(size) + kPage - 1) & ~(kPage - 1);
    if (bo_bytes < size) return hipErrorOutOfMemory;
    if (rt->kfd()) return malloc_kfd(*rt, c, size, bo_bytes, ptr);
    // Large allocations get 2 MiB alignment so the kernel can use big pages.
    const uint64_t align = bo_bytes >= (2ull << 20) ? (2ull << 20) : (64ull << 10);
    auto va = rt->va().allocate(bo_bytes + kGuard, align);
    if (!va) return fail(kmd::Status::fail(ENOMEM, "va_allocator"));

    auto a = std::make_shared<Allocation>();
    a->owner = c;
    a->base = *va;
    a->size = size;
    // VRAM_CLEARED: the kernel zeroes the BO before anyone can read it. HIP
    // does not promise zeroed memory, but the harness asks, so that stale bytes
    // of an earlier owner (regression K06) are observable by a case.
    kmd::Status s =
        kmd::Bo::alloc(*d.dev, bo_bytes, kmd::Domain::vram, AMDGPU_GEM_CREATE_VRAM_CLEARED, a->bo);
    if (s) s = kmd::VaMapping::map(*a->bo, a->base, bo_bytes, kmd::VaMapping::kReadWrite, a->map);
    if (!s) {
        a->map.reset();
        a->bo.reset();
        rt->va().release(*va);
        return fail(s);
    }
    std::lock_guard lock(rt->mu);
    // Every device that enabled access to C sees the new allocation before
    // hipMalloc returns (§2 Enable, row 5).
    for (int p = 0; p < rt->count(); ++p) {
        if (p == c || !rt->enabled[size_t(p)][size_t(c)]) continue;
        if (kmd::Status m = rt->map_into(*a, p); !m) {
            for (int q = 0; q < rt->count(); ++q)
                (void)rt->unmap_from(*a, q);
            a->map.reset();
            a->bo.reset();
            rt->va().release(*va);
            return fail(m);
        }
    }
    rt->table.insert({a->base, a->size, c, a});
    *ptr = reinterpret_cast<void *>(a->base);
    return hipSuccess;
}

hipError_t api::hipFree(void *ptr) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!ptr) return hipSuccess;
    std::lock_guard lock(rt->mu);
    if (!rt->table.find_base(addr(ptr))) return hipErrorInvalidValue;
    if (kmd::Status s = rt->free_locked(addr(ptr)); !s) return fail(s);
    return hipSuccess;
}

// CONTRACT.md hipMemGetAddressRange: interior pointers of device and pinned
// host memory resolve; NULL outputs are allowed; anything else is
// hipErrorInvalidDevicePointer.
hipError_t api::hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr) {
    Runtime &rt = Runtime::get();
    if (!dptr || rt.count() == 0) return hipErrorInvalidDevicePointer;
    std::lock_guard lock(rt.mu);
    const auto *e = rt.table.find(addr(dptr));
    // Pinned host memory is known by its host address and by its GPU VA.
    const AllocTable<HostAlloc>::Entry *h = nullptr;
    if (!e && !(h = rt.host.by_cpu.find(addr(dptr)))) h = rt.host.by_va.find(addr(dptr));
    if (h) {
        if (pbase) *pbase = reinterpret_cast<hipDeviceptr_t>(h->base);
        if (psize) *psize = h->size;
        return hipSuccess;
    }
    if (!e) return hipErrorInvalidDevicePointer;
    if (pbase) *pbase = reinterpret_cast<hipDeviceptr_t>(e->base);
    if (psize) *psize = e->size;
    return hipSuccess;
}

hipError_t api::hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (sizeBytes == 0) return hipSuccess;
    if (!dst || !src) return hipErrorInvalidValue;
    return host_transfer(*rt, addr(dst), src, sizeBytes, Direction::to_device);
}

hipError_t api::hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (sizeBytes == 0) return hipSuccess;
    if (!dst || !src) return hipErrorInvalidValue;
    return host_transfer(*rt, addr(src), dst, sizeBytes, Direction::to_host);
}

hipError_t api::hipMemset(void *dst, int value, size_t sizeBytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (sizeBytes == 0) return hipSuccess;
    if (!dst) return hipErrorInvalidValue;
    return device_fill(*rt, addr(dst), static_cast<uint8_t>(value), sizeBytes);
}
