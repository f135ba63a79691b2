// Pinned host memory (hipHostMalloc, hipHostRegister): host pages every
// device's VM maps at one GPU virtual address, so SDMA reads and writes them
// directly and an async copy needs no staging.
//   hipHostMalloc  -> a GTT BO on the current device, CPU-mapped, exported
//                     as dma-buf and imported by every other device;
//   hipHostRegister -> the caller's pages as a userptr BO on every device
//                     (the kernel does not export userptr BOs as dma-buf).
// The device pointer (hipHostGetDevicePointer) is that GPU VA, not the host
// address: this library does not mirror the CPU address space in the GPU VM.
#pragma once

#include "alloc_table.hpp"
#include "kmd/bo.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace peer {

struct HostAlloc {
    uint64_t cpu = 0, size = 0; // the caller's range [cpu, cpu + size)
    uint64_t va = 0;            // GPU VA of `cpu`
    uint64_t span_cpu = 0;      // page-aligned range the BOs cover
    uint64_t span_bytes = 0;
    uint64_t va_reserved = 0; // base of the VA reservation (span + guard page)
    unsigned int flags = 0;
    int device = 0;          // current device when it was made (hipPointerGetAttributes)
    bool registered = false; // hipHostRegister (userptr) or hipHostMalloc (GTT)
    struct PerDevice {
        std::unique_ptr<kmd::Bo> bo; // GTT/userptr BO or dma-buf import on this device
        std::unique_ptr<kmd::VaMapping> map;
    };
    std::vector<PerDevice> dev; // index = device
    ~HostAlloc() {
        // Mappings go before the BOs they map.
        for (auto &d : dev)
            d.map.reset();
    }
};

// Both lookups of pinned memory, guarded by Runtime::mu.
struct HostTable {
    AllocTable<HostAlloc> by_cpu; // keyed by host address
    AllocTable<HostAlloc> by_va;  // keyed by GPU VA
};

} // namespace peer
