// hipGetDeviceProperties / hipDeviceGetAttribute / hipDeviceGetPCIBusId and
// the version queries: what the KFD topology node and amdgpu's device info
// say about a device. Fields neither provides stay 0 (CONTRACT.md).
#include "api_common.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdio>
#include <cstring>

using namespace peer;

namespace {

// "gfx90a", "gfx1100", "gfx942": major in decimal, minor and stepping as
// one hex digit each, the form of KFD's gfx_target_version and ROCm's ISA
// names. ROCm appends target features (":sramecc+:xnack-"); KFD's topology
// does not say them, so they are left off.
void arch_name(const kmd::GpuNode &n, char (&out)[256]) {
    std::snprintf(out, sizeof out, "gfx%u%x%x", n.gfx_major, n.gfx_minor & 0xf,
                  n.gfx_stepping & 0xf);
}

// What the library offers on the path it runs, not what the hardware could:
// the KFD path answers hipHostMalloc and hipHostRegister with
// hipErrorNotSupported (CONTRACT.md §7), so code that asks first skips them.
int pinned_offered() {
    return Runtime::get().kfd() ? 0 : 1;
}

// SDMA rings the kernel exposes to this process (HW_IP_INFO(DMA)).
int async_engines(PeerDevice &d) {
    return std::popcount(d.dev->info().sdma_rings);
}

// ROCm 5.2.3's hipDeviceProp_t layout: fields this library has no source
// for (hipDeviceProp_t has no asyncEngineCount or hostRegisterSupported in
// 5.2.3; hipDeviceGetAttribute answers those) stay 0.
void fill(PeerDevice &d, hipDeviceProp_t &p) {
    p = hipDeviceProp_t{};
    const kmd::GpuNode &n = d.node;
    const kmd::DeviceInfo &info = d.dev->info();
    arch_name(n, p.gcnArchName);
    // HIP's deprecated number of the same name: major * 100 + minor * 10 +
    // stepping (gfx90a: 910, gfx1100: 1100).
    p.gcnArch = int(n.gfx_major * 100 + n.gfx_minor * 10 + n.gfx_stepping);
    std::snprintf(p.name, sizeof p.name, "%s", n.name.empty() ? p.gcnArchName : n.name.c_str());
    p.totalGlobalMem = n.local_mem_bytes ? n.local_mem_bytes : info.vram_bytes;
    p.pciDomainID = int(n.domain);
    p.pciBusID = int((n.location_id >> 8) & 0xff);
    p.pciDeviceID = int((n.location_id >> 3) & 0x1f);
    p.multiProcessorCount = n.simd_per_cu ? int(n.simd_count / n.simd_per_cu) : 0;
    p.warpSize = int(n.wave_size);
    p.maxThreadsPerMultiProcessor = int(n.max_waves_per_simd * n.simd_per_cu * n.wave_size);
    p.sharedMemPerBlock = size_t(n.lds_kb) * 1024;
    p.maxSharedMemoryPerMultiProcessor = p.sharedMemPerBlock;
    p.clockRate = int(n.max_clock_mhz) * 1000; // kHz, as HIP reports it
    p.major = int(n.gfx_major);
    p.minor = int(n.gfx_minor);
    p.isLargeBar = info.vram_bytes && info.visible_vram_bytes == info.vram_bytes ? 1 : 0;
    p.canMapHostMemory = pinned_offered();
}

// PCIe atomics between the GPU and the host: its KFD link to a node that is
// not one of the visible GPUs (the CPU) carries neither NoAtomics32 nor
// NoAtomics64 (HSA_LINKPROPERTY bits 2 and 3).
bool host_atomics(PeerDevice &d) {
    for (const kmd::Link &l : d.node.links)
        if (l.type == 2 /* PCIe */ && l.to_node != d.node.node) {
            bool to_gpu = false;
            for (int i = 0; i < Runtime::get().count(); ++i)
                to_gpu = to_gpu || Runtime::get().device(i).node.node == l.to_node;
            if (!to_gpu) return (l.flags & 0xc) == 0;
        }
    return false;
}

} // namespace

std::string peer::gfx_target(const kmd::GpuNode &n) {
    char name[256];
    arch_name(n, name);
    return name;
}

// hipInit: HIP documents flags as reserved and 0; ROCm's runtime refuses
// others with hipErrorInvalidValue. With no device the common rule of
// CONTRACT.md §5 applies (hipErrorNoDevice), as for every other call.
hipError_t api::hipInit(unsigned int flags) {
    if (flags != 0) return hipErrorInvalidValue;
    Runtime *rt = nullptr;
    return prologue(rt);
}

hipError_t api::hipDeviceGet(hipDevice_t *device, int ordinal) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!device) return hipErrorInvalidValue;
    if (!rt->valid(ordinal)) return hipErrorInvalidDevice;
    *device = ordinal; // a hipDevice_t is the device's id here, as in ROCm
    return hipSuccess;
}

// The name hipGetDeviceProperties reports, cut to len - 1 bytes and always
// terminated (ROCm copies at most len bytes of the name the same way).
hipError_t api::hipDeviceGetName(char *name, int len, hipDevice_t device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!name || len <= 0) return hipErrorInvalidValue;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    hipDeviceProp_t p{};
    fill(rt->device(device), p);
    const size_t n = std::min(std::strlen(p.name), size_t(len) - 1);
    std::memcpy(name, p.name, n);
    name[n] = '\0';
    return hipSuccess;
}

hipError_t api::hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!prop) return hipErrorInvalidValue;
    if (!rt->valid(deviceId)) return hipErrorInvalidDevice;
    fill(rt->device(deviceId), *prop);
    return hipSuccess;
}

hipError_t api::hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int deviceId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!pi) return hipErrorInvalidValue;
    if (!rt->valid(deviceId)) return hipErrorInvalidDevice;
    hipDeviceProp_t p;
    fill(rt->device(deviceId), p);
    long long v = 0;
    switch (attr) {
    case hipDeviceAttributeMultiprocessorCount:
        v = p.multiProcessorCount;
        break;
    case hipDeviceAttributePciBusId:
        v = p.pciBusID;
        break;
    case hipDeviceAttributePciDeviceId:
        v = p.pciDeviceID;
        break;
    case hipDeviceAttributePciDomainID:
        v = p.pciDomainID;
        break;
    case hipDeviceAttributeTotalGlobalMem:
        v = static_cast<long long>(p.totalGlobalMem);
        break;
    case hipDeviceAttributeWarpSize:
        v = p.warpSize;
        break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor:
        v = p.maxThreadsPerMultiProcessor;
        break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
        v = static_cast<long long>(p.sharedMemPerBlock);
        break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
        v = static_cast<long long>(p.maxSharedMemoryPerMultiProcessor);
        break;
    case hipDeviceAttributeClockRate:
        v = p.clockRate;
        break;
    case hipDeviceAttributeComputeCapabilityMajor:
        v = p.major;
        break;
    case hipDeviceAttributeComputeCapabilityMinor:
        v = p.minor;
        break;
    case hipDeviceAttributeIsLargeBar:
        v = p.isLargeBar;
        break;
    case hipDeviceAttributeAsyncEngineCount:
        v = async_engines(rt->device(deviceId));
        break;
    case hipDeviceAttributeCanMapHostMemory:
        v = p.canMapHostMemory;
        break;
    case hipDeviceAttributeHostRegisterSupported:
        v = pinned_offered();
        break;
    case hipDeviceAttributeUnifiedAddressing:
        v = 0; // pinned memory has a device address of its own
        break;
    case hipDeviceAttributeGcnArch:
        v = p.gcnArch;
        break;
    case hipDeviceAttributeWallClockRate:
        // DEV_INFO gpu_counter_freq (kHz): the constant counter SDMA TIMESTAMP
        // reads (amdgpu: the asic's xclk). That ROCm's wall clock rate is the
        // same number is UNVERIFIED; 0 when the kernel gives none.
        v = static_cast<long long>(rt->device(deviceId).dev->info().gpu_counter_freq_khz);
        break;
    case hipDeviceAttributeCanUseStreamWaitValue:
        // SDMA POLL_REGMEM on the DRM path; hipErrorNotSupported on the KFD
        // path (CONTRACT.md §7), so 0 there.
        v = rt->kfd() ? 0 : 1;
        break;
    case hipDeviceAttributeHostNativeAtomicSupported:
        v = host_atomics(rt->device(deviceId)) ? 1 : 0;
        break;
    // Features this library does not offer (no kernels, no managed or
    // virtual memory, no images, no pools): 0, so code that asks first can
    // skip honestly.
    case hipDeviceAttributeManagedMemory:
    case hipDeviceAttributeConcurrentManagedAccess:
    case hipDeviceAttributePageableMemoryAccess:
    case hipDeviceAttributeImageSupport:
    case hipDeviceAttributeConcurrentKernels:
    case hipDeviceAttributeCooperativeLaunch:
    case hipDeviceAttributeCooperativeMultiDeviceLaunch:
    case hipDeviceAttributeMemoryPoolsSupported:
    case hipDeviceAttributeVirtualMemoryManagementSupported:
        v = 0;
        break;
    default:
        return hipErrorInvalidValue; // an attribute this library does not know
    }
    // A value an int cannot hold (totalGlobalMem >= 2 GiB) is refused rather
    // than truncated.
    if (v > INT_MAX) return hipErrorInvalidValue;
    *pi = int(v);
    return hipSuccess;
}

hipError_t api::hipDeviceGetPCIBusId(char *pciBusId, int len, int device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!pciBusId || len <= 0) return hipErrorInvalidValue;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    const std::string &slot = rt->device(device).pci_slot; // "0000:0c:00.0"
    if (slot.size() + 1 > size_t(len)) return hipErrorInvalidValue;
    std::memcpy(pciBusId, slot.c_str(), slot.size() + 1);
    return hipSuccess;
}
