// Device queries of ROCm 5.2.3's surface beyond hipGetDeviceProperties
// (CONTRACT.md §5.5), with ROCm's order of checks: hipDeviceTotalMem,
// hipDeviceComputeCapability, hipDeviceGetByPCIBusId, and
// hipCreateChannelDesc (a value constructor the library exports).
#include "api_common.hpp"

#include <cstdio>

using namespace peer;

namespace {

hipError_t total_mem(size_t *bytes, hipDevice_t device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(device)) return hipErrorInvalidDevice; // ROCm: the device first
    if (!bytes) return hipErrorInvalidValue;
    hipDeviceProp_t p;
    if (hipError_t e = api::hipGetDeviceProperties(&p, device); e != hipSuccess) return e;
    *bytes = p.totalGlobalMem;
    return hipSuccess;
}

hipError_t compute_capability(int *major, int *minor, hipDevice_t device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    if (!major || !minor) return hipErrorInvalidValue;
    *major = int(rt->device(device).node.gfx_major);
    *minor = int(rt->device(device).node.gfx_minor);
    return hipSuccess;
}

// "dddd:bb:dd" in hex, the function part ignored; an address no device has,
// or text that is not one, is hipErrorInvalidValue (ROCm).
hipError_t by_pci_bus_id(int *device, const char *pciBusId) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!device || !pciBusId) return hipErrorInvalidValue;
    unsigned domain = 0, bus = 0, dev = 0;
    if (std::sscanf(pciBusId, "%04x:%02x:%02x", &domain, &bus, &dev) != 3)
        return hipErrorInvalidValue;
    for (int i = 0; i < rt->count(); ++i) {
        hipDeviceProp_t p;
        if (hipError_t e = api::hipGetDeviceProperties(&p, i); e != hipSuccess) return e;
        if (unsigned(p.pciDomainID) == domain && unsigned(p.pciBusID) == bus &&
            unsigned(p.pciDeviceID) == dev) {
            *device = i;
            return hipSuccess;
        }
    }
    return hipErrorInvalidValue;
}

} // namespace

extern "C" {

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device) {
    return keep_error(total_mem(bytes, device));
}
hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device) {
    return keep_error(compute_capability(major, minor, device));
}
hipError_t hipDeviceGetByPCIBusId(int *device, const char *pciBusId) {
    return keep_error(by_pci_bus_id(device, pciBusId));
}

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, enum hipChannelFormatKind f) {
    hipChannelFormatDesc d;
    d.x = x;
    d.y = y;
    d.z = z;
    d.w = w;
    d.f = f;
    return d;
}

} // extern "C"
