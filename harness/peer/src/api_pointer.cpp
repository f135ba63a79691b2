// hipPointerGetAttributes and hipMemPtrGetInfo (CONTRACT.md §5.2): what the
// allocation table knows about a pointer, as ROCm 5.2.3 answers it.
#include "api_common.hpp"

#include <cstring>

using namespace peer;

namespace {

hipError_t pointer_attributes(hipPointerAttribute_t *attributes, const void *ptr) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!attributes || !ptr) return hipErrorInvalidValue;
    const uint64_t p = addr(ptr);
    std::lock_guard lock(rt->mu);
    if (const auto *e = rt->table.find(p)) {
        std::memset(attributes, 0, sizeof *attributes);
        attributes->memoryType = hipMemoryTypeDevice;
        attributes->device = e->owner;
        attributes->devicePointer = const_cast<void *>(ptr);
        return hipSuccess;
    }
    // Pinned host memory, named by its host address or by its GPU VA.
    const HostAlloc *h = nullptr;
    uint64_t offset = 0;
    if (const auto *c = rt->host.by_cpu.find(p)) {
        h = c->data.get();
        offset = p - c->base;
    } else if (const auto *v = rt->host.by_va.find(p)) {
        h = v->data.get();
        offset = p - v->base;
    }
    if (!h) return hipErrorInvalidValue; // ROCm: a pointer it did not allocate
    std::memset(attributes, 0, sizeof *attributes);
    attributes->memoryType = hipMemoryTypeHost;
    attributes->device = h->device;
    attributes->hostPointer = reinterpret_cast<void *>(h->cpu + offset);
    attributes->devicePointer = reinterpret_cast<void *>(h->va + offset);
    attributes->allocationFlags = h->flags;
    return hipSuccess;
}

hipError_t ptr_info(void *ptr, size_t *size) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!ptr || !size) return hipErrorInvalidValue;
    std::lock_guard lock(rt->mu);
    const uint64_t p = addr(ptr);
    const AllocTable<Allocation>::Entry *e = rt->table.find(p);
    const AllocTable<HostAlloc>::Entry *h = nullptr;
    if (!e && !(h = rt->host.by_cpu.find(p))) h = rt->host.by_va.find(p);
    if (!e && !h) return hipErrorInvalidValue;
    *size = e ? e->size : h->size; // the whole allocation's size, as ROCm
    return hipSuccess;
}

} // namespace

extern "C" {
hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr) {
    return keep_error(pointer_attributes(attributes, ptr));
}
hipError_t hipMemPtrGetInfo(void *ptr, size_t *size) {
    return keep_error(ptr_info(ptr, size));
}
} // extern "C"
