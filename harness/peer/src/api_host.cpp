// Pinned host memory (host_memory.hpp): hipHostMalloc / hipHostFree /
// hipHostRegister / hipHostUnregister / hipHostGetDevicePointer.
#include "api_common.hpp"

#include <cerrno>
#include <string_view>

using namespace peer;

namespace {
constexpr uint64_t kPage = 4096;

hipError_t fail(const kmd::Status &s) {
    record_kernel_error(s);
    // A user range the kernel cannot pin (amdgpu_gem_userptr_ioctl: EFAULT
    // for unmapped pages, EINVAL for a non-anonymous mapping) is the caller's
    // bad pointer, not a device failure.
    if (s.call && std::string_view(s.call) == "AMDGPU_GEM_USERPTR" &&
        (s.err == EFAULT || s.err == EINVAL))
        return hipErrorInvalidValue;
    return Runtime::map_kernel_error(s);
}

// Maps every device's BO of `h` at h.va's page; the BOs exist already.
kmd::Status map_all(HostAlloc &h) {
    const uint64_t va_span = h.va - (h.cpu - h.span_cpu);
    for (auto &d : h.dev)
        if (kmd::Status s = kmd::VaMapping::map(*d.bo, va_span, h.span_bytes,
                                                kmd::VaMapping::kReadWrite, d.map);
            !s)
            return s;
    return kmd::Status::success();
}

void insert(Runtime &rt, const std::shared_ptr<HostAlloc> &h) {
    rt.host.by_cpu.insert({h->cpu, h->size, -1, h});
    rt.host.by_va.insert({h->va, h->size, -1, h});
}

void forget(Runtime &rt, HostAlloc &h) {
    rt.host.by_cpu.erase(h.cpu);
    rt.host.by_va.erase(h.va);
}

// Unmaps (reporting the first unmap error), releases the BOs and the VA.
kmd::Status release(Runtime &rt, HostAlloc &h) {
    kmd::Status first;
    for (auto &d : h.dev) {
        if (d.map)
            if (kmd::Status s = d.map->unmap(); !s && first.ok()) first = s;
        d.map.reset();
        d.bo.reset();
    }
    if (h.va_reserved) rt.va().release(h.va_reserved);
    h.va_reserved = 0;
    return first;
}
// Reserves the process-wide VA of `h`'s page span, maps the span on every
// device there and makes the allocation known (hipMemGetAddressRange, copies);
// `h->va` is where h->cpu lies in the span. On failure nothing is left mapped.
hipError_t map_and_publish(Runtime &rt, const std::shared_ptr<HostAlloc> &h) {
    auto va = rt.va().allocate(h->span_bytes + kPage, 64 * 1024);
    if (!va) return fail(kmd::Status::fail(ENOMEM, "va_allocator"));
    h->va_reserved = *va;
    h->va = *va + (h->cpu - h->span_cpu);
    if (kmd::Status s = map_all(*h); !s) {
        (void)release(rt, *h);
        return fail(s);
    }
    std::lock_guard lock(rt.mu);
    insert(rt, h);
    return hipSuccess;
}

} // namespace

hipError_t api::hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!ptr) return hipErrorInvalidValue;
    const unsigned known = hipHostMallocPortable | hipHostMallocMapped |
                           hipHostMallocWriteCombined | hipHostMallocNumaUser |
                           hipHostMallocCoherent | hipHostMallocNonCoherent;
    if ((flags & ~known) || ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)))
        return hipErrorInvalidValue;
    if (size == 0) {
        *ptr = nullptr;
        return hipSuccess;
    }
    // KFD path: pinned memory would be DRM GTT at an address of the harness's
    // allocator, which may coincide with libhsakmt's (CONTRACT.md §7).
    if (rt->kfd()) return hipErrorNotSupported;
    const int c = thread_state().current_device;
    auto h = std::make_shared<HostAlloc>();
    h->span_bytes = (uint64_t(size) + kPage - 1) & ~(kPage - 1);
    if (h->span_bytes < size) return hipErrorOutOfMemory;
    h->size = size;
    h->flags = flags;
    h->device = c;
    h->dev.resize(size_t(rt->count()));
    auto &own = h->dev[size_t(c)];
    if (kmd::Status s =
            kmd::Bo::alloc(*rt->device(c).dev, h->span_bytes, kmd::Domain::gtt, 0, own.bo);
        !s)
        return fail(s);
    void *cpu = nullptr;
    if (kmd::Status s = own.bo->cpu_map(&cpu); !s) return fail(s);
    h->cpu = h->span_cpu = reinterpret_cast<uintptr_t>(cpu);
    // The other devices import the same pages (dma-buf), so every engine
    // reaches them at one VA.
    for (int d = 0; d < rt->count(); ++d) {
        if (d == c) continue;
        kmd::UniqueFd fd;
        if (kmd::Status s = own.bo->export_dmabuf(fd); !s) return fail(s);
        if (kmd::Status s =
                kmd::Bo::import_dmabuf(*rt->device(d).dev, fd.get(), h->dev[size_t(d)].bo);
            !s)
            return fail(s);
    }
    if (hipError_t e = map_and_publish(*rt, h); e != hipSuccess) return e;
    *ptr = cpu;
    return hipSuccess;
}

hipError_t api::hipHostFree(void *ptr) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!ptr) return hipSuccess;
    std::shared_ptr<HostAlloc> h;
    {
        std::lock_guard lock(rt->mu);
        const auto *e = rt->host.by_cpu.find_base(addr(ptr));
        if (!e || e->data->registered) return hipErrorInvalidValue;
        h = e->data;
        forget(*rt, *h);
    }
    if (kmd::Status s = release(*rt, *h); !s) return fail(s);
    return hipSuccess;
}

// The caller's pages become a userptr BO on every device (page-aligned
// span around [hostPtr, hostPtr + sizeBytes)), mapped at one VA.
hipError_t api::hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!hostPtr || sizeBytes == 0) return hipErrorInvalidValue;
    const unsigned known = hipHostRegisterPortable | hipHostRegisterMapped |
                           hipHostRegisterIoMemory | hipHostRegisterReadOnly;
    if (flags & ~known) return hipErrorInvalidValue;
    if (flags & hipHostRegisterIoMemory) return hipErrorNotSupported; // no MMIO pinning here
    if (rt->kfd()) return hipErrorNotSupported;                       // §7
    const uint64_t a = addr(hostPtr);
    if (a + sizeBytes < a) return hipErrorInvalidValue;
    {
        std::lock_guard lock(rt->mu);
        // Any overlap with pinned memory already known (either kind).
        const auto *lo = rt->host.by_cpu.find(a);
        const auto *hi = rt->host.by_cpu.find(a + sizeBytes - 1);
        bool overlap = lo || hi;
        for (const auto &e : rt->host.by_cpu.all())
            overlap = overlap || (e.base >= a && e.base < a + sizeBytes);
        if (overlap) return hipErrorHostMemoryAlreadyRegistered;
    }
    auto h = std::make_shared<HostAlloc>();
    h->cpu = a;
    h->size = sizeBytes;
    h->span_cpu = a & ~(kPage - 1);
    h->span_bytes = ((a + sizeBytes + kPage - 1) & ~(kPage - 1)) - h->span_cpu;
    h->flags = flags;
    h->registered = true;
    h->device = thread_state().current_device;
    h->dev.resize(size_t(rt->count()));
    for (int d = 0; d < rt->count(); ++d)
        if (kmd::Status s =
                kmd::Bo::from_user(*rt->device(d).dev, reinterpret_cast<void *>(h->span_cpu),
                                   h->span_bytes, h->dev[size_t(d)].bo);
            !s)
            return fail(s);
    return map_and_publish(*rt, h);
}

hipError_t api::hipHostUnregister(void *hostPtr) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!hostPtr) return hipErrorInvalidValue;
    std::shared_ptr<HostAlloc> h;
    {
        std::lock_guard lock(rt->mu);
        const auto *e = rt->host.by_cpu.find_base(addr(hostPtr));
        if (!e || !e->data->registered) return hipErrorHostMemoryNotRegistered;
        h = e->data;
        forget(*rt, *h);
    }
    if (kmd::Status s = release(*rt, *h); !s) return fail(s);
    return hipSuccess;
}

hipError_t api::hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!devPtr || !hstPtr || flags != 0) return hipErrorInvalidValue;
    std::lock_guard lock(rt->mu);
    const auto *e = rt->host.by_cpu.find(addr(hstPtr));
    if (!e) return hipErrorInvalidValue;
    *devPtr = reinterpret_cast<void *>(e->data->va + (addr(hstPtr) - e->base));
    return hipSuccess;
}

hipError_t api::hipHostGetFlags(unsigned int *flagsPtr, void *hostPtr) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!flagsPtr || !hostPtr) return hipErrorInvalidValue;
    std::lock_guard lock(rt->mu);
    const auto *e = rt->host.by_cpu.find(addr(hostPtr));
    if (!e) return hipErrorInvalidValue;
    *flagsPtr = e->data->flags;
    return hipSuccess;
}
