#include "kmd/device.hpp"

#include <amdgpu_drm.h>

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace kmd {
namespace {
// Not in libdrm 2.4.114's header; the id is the kernel's (amdgpu_drm.h,
// AMDGPU_INFO_GPUVM_FAULT, present from K6.7).
constexpr unsigned kInfoGpuvmFault = 0x23;
} // namespace

Status Device::open(int render_minor, std::unique_ptr<Device> &out) {
    std::unique_ptr<Device> d(new Device());
    char path[64];
    std::snprintf(path, sizeof path, "/dev/dri/renderD%d", render_minor);
    d->fd_ = ::open(path, O_RDWR | O_CLOEXEC);
    if (d->fd_ < 0) return Status::fail(errno, "open(renderD)");
    uint32_t major = 0, minor = 0;
    if (Status s = Status::from_ret(amdgpu_device_initialize(d->fd_, &major, &minor, &d->dev_),
                                    "amdgpu_device_initialize");
        !s)
        return s;
    DeviceInfo &i = d->info_;
    i.render_minor = render_minor;

    amdgpu_gpu_info gi{};
    if (Status s = Status::from_ret(amdgpu_query_gpu_info(d->dev_, &gi), "AMDGPU_INFO_DEV_INFO");
        !s)
        return s;
    i.family = gi.family_id;
    i.device_id = gi.asic_id;
    i.external_rev = gi.chip_external_rev;

    drm_amdgpu_info_device di{};
    if (Status s =
            Status::from_ret(amdgpu_query_info(d->dev_, AMDGPU_INFO_DEV_INFO, sizeof di, &di),
                             "AMDGPU_INFO_DEV_INFO");
        !s)
        return s;
    i.va_offset = di.virtual_address_offset;
    i.va_max = di.virtual_address_max;
    i.va_alignment = di.virtual_address_alignment ? di.virtual_address_alignment : 4096;
    i.gpu_counter_freq_khz = di.gpu_counter_freq;

    drm_amdgpu_info_hw_ip ip{};
    if (Status s = Status::from_ret(amdgpu_query_hw_ip_info(d->dev_, AMDGPU_HW_IP_DMA, 0, &ip),
                                    "AMDGPU_INFO_HW_IP_INFO");
        !s)
        return s;
    i.sdma_major = ip.hw_ip_version_major;
    i.sdma_minor = ip.hw_ip_version_minor;
    i.sdma_rings = ip.available_rings;
    i.ib_start_alignment = ip.ib_start_alignment;
    i.ib_size_alignment = ip.ib_size_alignment;

    drm_amdgpu_info_vram_gtt vg{};
    if (Status s =
            Status::from_ret(amdgpu_query_info(d->dev_, AMDGPU_INFO_VRAM_GTT, sizeof vg, &vg),
                             "AMDGPU_INFO_VRAM_GTT");
        !s)
        return s;
    i.vram_bytes = vg.vram_size;
    i.visible_vram_bytes = vg.vram_cpu_accessible_size;
    i.gtt_bytes = vg.gtt_size;
    out = std::move(d);
    return Status::success();
}

Device::~Device() {
    if (dev_) amdgpu_device_deinitialize(dev_);
    if (fd_ >= 0) ::close(fd_);
}

Status Device::query_vm_fault(VmFaultInfo &out) const {
    struct {
        uint64_t addr;
        uint32_t status;
        uint32_t vmhub;
    } raw{};
    Status s = Status::from_ret(amdgpu_query_info(dev_, kInfoGpuvmFault, sizeof raw, &raw),
                                "AMDGPU_INFO_GPUVM_FAULT");
    if (s) out = VmFaultInfo{raw.addr, raw.status, raw.vmhub};
    return s;
}

Status Device::vram_heap(uint64_t &size, uint64_t &used) const {
    amdgpu_heap_info h{};
    if (Status s = Status::from_ret(amdgpu_query_heap_info(dev_, AMDGPU_GEM_DOMAIN_VRAM, 0, &h),
                                    "AMDGPU_INFO(VRAM_GTT/VRAM_USAGE)");
        !s)
        return s;
    size = h.heap_size;
    used = h.heap_usage;
    return Status::success();
}

} // namespace kmd
