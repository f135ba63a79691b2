// One amdgpu device opened through its render node with libdrm_amdgpu, plus
// what the harness needs to know about it (family, SDMA IP version, IB
// alignment, VA range). RAII: the libdrm handle and the fd close with it.
#pragma once

#include "kmd/status.hpp"

#include <amdgpu.h>

#include <cstdint>
#include <memory>

namespace kmd {

struct DeviceInfo {
    int render_minor = -1;
    uint32_t family = 0;
    uint32_t device_id = 0;
    uint32_t external_rev = 0;
    uint32_t sdma_major = 0, sdma_minor = 0; // HW_IP_INFO(DMA) hw_ip_version_major/minor
    uint32_t sdma_rings = 0;                 // available_rings bit mask
    uint32_t ib_start_alignment = 0;         // bytes
    uint32_t ib_size_alignment = 0;          // bytes
    uint64_t va_offset = 0, va_max = 0;      // DEV_INFO virtual_address_offset/max
    uint64_t va_alignment = 4096;
    uint64_t vram_bytes = 0, visible_vram_bytes = 0, gtt_bytes = 0;
    // DEV_INFO gpu_counter_freq: the rate of the counter SDMA TIMESTAMP
    // (GET_GLOBAL) writes, in kHz; 0 when the kernel reports none.
    uint64_t gpu_counter_freq_khz = 0;
};

class Device {
  public:
    // Opens /dev/dri/renderD<minor>, amdgpu_device_initialize, queries info.
    static Status open(int render_minor, std::unique_ptr<Device> &out);
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    amdgpu_device_handle handle() const { return dev_; }
    const DeviceInfo &info() const { return info_; }

    // INFO GPUVM_FAULT (0x23, K6.7+): last VM fault of this file's VM.
    // EINVAL on kernels without it.
    struct VmFaultInfo {
        uint64_t addr = 0;
        uint32_t status = 0;
        uint32_t vmhub = 0;
        bool operator==(const VmFaultInfo &) const = default;
    };
    Status query_vm_fault(VmFaultInfo &out) const;
    // INFO VRAM_GTT + VRAM_USAGE (amdgpu_query_heap_info): the VRAM heap's
    // size and the bytes in use, process-independent, as the kernel counts.
    Status vram_heap(uint64_t &size, uint64_t &used) const;

  private:
    Device() = default;
    int fd_ = -1;
    amdgpu_device_handle dev_ = nullptr;
    DeviceInfo info_;
};

} // namespace kmd
