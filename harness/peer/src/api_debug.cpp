// Harness extensions (peer_debug.h).
#include "api_common.hpp"
#include "copy_paths.hpp"

#include "kmd/fdinfo.hpp"

#include <amdgpu.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <optional>

using namespace peer;

namespace {
hipError_t raw(int device, uint64_t va, void *host, size_t bytes, bool write,
               peerRawAccessResult *result) {
    if (result) *result = peerRawAccessResult{};
    Runtime *rt = nullptr;
    hipError_t e = prologue(rt);
    if (e == hipSuccess && !rt->valid(device)) e = hipErrorInvalidDevice;
    if (e == hipSuccess && !host && bytes) e = hipErrorInvalidValue;
    if (e == hipSuccess && bytes) e = raw_access(*rt, device, va, host, bytes, write, result);
    if (result) result->status = e;
    return e;
}
} // namespace

extern "C" hipError_t peerRawSdmaRead(int device, const void *deviceVa, void *hostDst, size_t bytes,
                                      peerRawAccessResult *result) {
    return raw(device, addr(deviceVa), hostDst, bytes, false, result);
}

extern "C" hipError_t peerRawSdmaWrite(int device, void *deviceVa, const void *hostSrc,
                                       size_t bytes, peerRawAccessResult *result) {
    return raw(device, addr(deviceVa), const_cast<void *>(hostSrc), bytes, true, result);
}

extern "C" hipError_t peerRawSdmaSubmit(int device, const uint32_t *dwords, size_t count,
                                        peerRawAccessResult *result) {
    if (result) *result = peerRawAccessResult{};
    Runtime *rt = nullptr;
    hipError_t e = prologue(rt);
    if (e == hipSuccess && !rt->valid(device)) e = hipErrorInvalidDevice;
    if (e == hipSuccess && (!dwords || count == 0 || count > PEER_RAW_SDMA_MAX_DWORDS))
        e = hipErrorInvalidValue;
    if (e == hipSuccess) {
        PeerDevice &d = rt->device(device);
        // The staging buffer is the one BO a caller's packets may target
        // besides what is mapped; holding its lock keeps API transfers out.
        std::lock_guard lock(d.staging->mu);
        const uint32_t bos[] = {d.staging->bo->kms_handle()};
        const JobOutcome o = rt->run_job(d, std::span<const uint32_t>(dwords, count), bos);
        report_outcome(o, result);
        e = o.status;
    }
    if (result) result->status = e;
    return e;
}

extern "C" const char *peerLastKernelError(void) {
    return thread_state().last_text.c_str();
}

extern "C" int peerLastKernelErrno(const char **call) {
    if (call) *call = thread_state().last_call;
    return thread_state().last_errno;
}

extern "C" void peerClearLastKernelError(void) {
    ThreadState &t = thread_state();
    t.last_errno = 0;
    t.last_call = nullptr;
    t.last_text.clear();
}

extern "C" peerCopyPath peerLastCopyPath(void) {
    return thread_state().last_path;
}

extern "C" int peerLastCopyEngineDevice(void) {
    return thread_state().last_engine;
}

extern "C" hipError_t peerLastCopyTiming(peerCopyTiming *timing) {
    if (!timing) return hipErrorInvalidValue;
    *timing = thread_state().last_timing;
    return hipSuccess;
}

extern "C" const char *peerCopyPathName(peerCopyPath path) {
    switch (path) {
    case peerCopyPathNone:
        return "none";
    case peerCopyPathSameDevice:
        return "same-device";
    case peerCopyPathDirect:
        return "direct";
    case peerCopyPathStaged:
        return "staged";
    }
    return "unknown";
}

extern "C" hipError_t peerGetDeviceInfo(int device, peerDeviceInfo *info) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!info) return hipErrorInvalidValue;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    const PeerDevice &d = rt->device(device);
    const kmd::DeviceInfo &i = d.dev->info();
    peerDeviceInfo out{};
    out.kfd_node = static_cast<int>(d.node.node);
    out.unique_id = d.node.unique_id;
    out.render_minor = d.node.render_minor;
    out.pci_domain = d.node.domain;
    out.pci_bus = (d.node.location_id >> 8) & 0xff;
    out.pci_device = (d.node.location_id >> 3) & 0x1f;
    out.pci_function = d.node.location_id & 7;
    out.pci_device_id = i.device_id;
    out.family = i.family;
    out.sdma_major = i.sdma_major;
    out.sdma_minor = i.sdma_minor;
    out.hive_id = d.node.hive_id;
    out.vram_bytes = i.vram_bytes;
    out.visible_vram_bytes = i.visible_vram_bytes;
    std::snprintf(out.name, sizeof out.name, "%s", d.node.name.c_str());
    out.sdma_engines = static_cast<uint32_t>(std::popcount(i.sdma_rings));
    *info = out;
    return hipSuccess;
}

extern "C" hipError_t peerIsPeerAccessEnabled(int device, int peer, int *enabled) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!enabled) return hipErrorInvalidValue;
    if (!rt->valid(device) || !rt->valid(peer)) return hipErrorInvalidDevice;
    std::lock_guard lock(rt->mu);
    *enabled = rt->enabled[size_t(device)][size_t(peer)] ? 1 : 0;
    return hipSuccess;
}

extern "C" int peerOwnerDevice(const void *ptr) {
    Runtime &rt = Runtime::get();
    std::lock_guard lock(rt.mu);
    const auto *e = rt.table.find(addr(ptr));
    return e ? e->owner : -1;
}

extern "C" hipError_t peerSetCopyPacketMax(int device, size_t bytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    PeerDevice &d = rt->device(device);
    if (bytes == 0) {
        d.packet_max = default_packet_max(d.dev->info().sdma_major, d.dev->info().sdma_minor);
        return hipSuccess;
    }
    if (bytes > sdma::limits(d.gen).copy_max_bytes) return hipErrorInvalidValue;
    d.packet_max = bytes;
    return hipSuccess;
}

extern "C" hipError_t peerGetCopyPacketMax(int device, size_t *bytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!bytes) return hipErrorInvalidValue;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    *bytes = rt->device(device).packet_max.load();
    return hipSuccess;
}

namespace {

// Calls `use(at)` with the CPU address of [va, va + bytes) in its
// allocation's CPU mapping, under the runtime lock (a racing hipFree must not
// unmap it): the BO's on the DRM path (mapped on demand), libhsakmt's on the
// KFD path. nullopt when the allocation has none (KFD path, small-BAR owner:
// the caller moves the bytes with the owner's engine instead, CONTRACT.md §7);
// hipErrorInvalidValue for a range no live allocation holds.
template <class Use>
std::optional<hipError_t> with_cpu_mapping(Runtime &rt, uint64_t va, size_t bytes, Use use) {
    std::lock_guard lock(rt.mu);
    const auto *entry = rt.table.find_range(va, bytes);
    if (!entry) return hipErrorInvalidValue;
    void *cpu = nullptr;
    if (const auto &k = entry->data->kmem) {
        cpu = k->cpu();
        if (!cpu) return std::nullopt;
    } else if (kmd::Status s = entry->data->bo->cpu_map(&cpu); !s) {
        record_kernel_error(s);
        return hipErrorUnknown;
    }
    use(static_cast<uint8_t *>(cpu) + (va - entry->base));
    return hipSuccess;
}

// peerCpuRead: the CPU mapping of the allocation; where it has none the
// owner's engine moves the bytes to host memory. cpu_write is the other
// direction.
hipError_t cpu_read(const void *device_ptr, void *host, size_t bytes) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!host || !device_ptr) return hipErrorInvalidValue;
    if (bytes == 0) return hipSuccess;
    const uint64_t va = addr(device_ptr);
    if (auto e =
            with_cpu_mapping(*rt, va, bytes, [&](uint8_t *at) { std::memcpy(host, at, bytes); }))
        return *e;
    return host_transfer(*rt, va, host, bytes, Direction::to_host);
}

// A single host buffer as pieces; a NULL one as an invalid list, so it is
// refused after the prologue's own codes, as every other argument is.
HostSpans one_span(const peerHostSpan &s) {
    return s.bytes ? HostSpans(&s, 1) : HostSpans(nullptr, 1);
}

// peerCpuEqual(Spans): the same route as peerCpuRead, compared where the
// bytes are (the CPU mapping, or else the staging buffer) instead
// of copied out first: a verification of a 64 MiB buffer is one pass over it
// and one over the expected bytes.
hipError_t cpu_compare(const void *device_ptr, const HostSpans &expected, int *equal) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!device_ptr || !equal || !expected.valid()) return hipErrorInvalidValue;
    *equal = 1;
    const size_t bytes = expected.total();
    if (bytes == 0) return hipSuccess;
    const uint64_t va = addr(device_ptr);
    bool same = false;
    std::optional<hipError_t> e =
        with_cpu_mapping(*rt, va, bytes, [&](uint8_t *at) { same = expected.equal(0, at, bytes); });
    if (!e) e = host_compare(*rt, va, expected, same);
    if (*e == hipSuccess) *equal = same ? 1 : 0;
    return *e;
}

hipError_t cpu_write(void *device_ptr, const HostSpans &from) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!device_ptr || !from.valid()) return hipErrorInvalidValue;
    const size_t bytes = from.total();
    if (bytes == 0) return hipSuccess;
    const uint64_t va = addr(device_ptr);
    if (auto e = with_cpu_mapping(*rt, va, bytes, [&](uint8_t *at) { from.copy_to(0, at, bytes); }))
        return *e;
    return host_write(*rt, va, from);
}

} // namespace

extern "C" hipError_t peerCpuEqual(const void *devicePtr, const void *expected, size_t bytes,
                                   int *equal) {
    const peerHostSpan one{expected, bytes};
    return cpu_compare(devicePtr, one_span(one), equal);
}

extern "C" hipError_t peerCpuEqualSpans(const void *devicePtr, const peerHostSpan *spans,
                                        size_t count, int *equal) {
    return cpu_compare(devicePtr, HostSpans(spans, count), equal);
}

extern "C" hipError_t peerCpuWriteSpans(void *devicePtr, const peerHostSpan *spans, size_t count) {
    return cpu_write(devicePtr, HostSpans(spans, count));
}

extern "C" hipError_t peerCpuRead(const void *devicePtr, void *hostDst, size_t bytes) {
    return cpu_read(devicePtr, hostDst, bytes);
}

extern "C" hipError_t peerCpuWrite(void *devicePtr, const void *hostSrc, size_t bytes) {
    const peerHostSpan one{hostSrc, bytes};
    return cpu_write(devicePtr, one_span(one));
}

extern "C" hipError_t peerPoisonStaging(int a, int b, size_t bytes, unsigned char byte) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(a) || !rt->valid(b)) return hipErrorInvalidDevice;
    rt->poison_staging(a, b, bytes, byte);
    return hipSuccess;
}

extern "C" hipError_t peerGetDeviceMemoryUsage(int device, uint64_t *vram, uint64_t *gtt) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    kmd::MemoryUsage u;
    // libdrm's own fd of the device: the DRM file its BOs were created on.
    const int fd = amdgpu_device_get_fd(rt->device(device).dev->handle());
    if (kmd::Status s = kmd::fdinfo_memory(fd, u); !s) {
        record_kernel_error(s);
        return hipErrorNotFound;
    }
    if (vram) *vram = u.vram_bytes;
    if (gtt) *gtt = u.gtt_bytes;
    return hipSuccess;
}

extern "C" hipError_t peerGetContextResetState(int device, uint64_t *flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!flags) return hipErrorInvalidValue;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    if (kmd::Status s = rt->device(device).queue->reset_state(*flags); !s) {
        record_kernel_error(s);
        return Runtime::map_kernel_error(s);
    }
    return hipSuccess;
}

extern "C" const char *peerKernelPath(void) {
    Runtime &rt = Runtime::get();
    if (rt.init_status() != hipSuccess && rt.init_kernel_status().call &&
        std::strncmp(rt.init_kernel_status().call, "PEER_HARNESS_PATH", 17) == 0)
        return nullptr;
    return rt.kfd() ? "kfd" : "drm";
}

extern "C" const char *peerLastGpuCodeRefusal(void) {
    return thread_state().last_refusal.c_str();
}
