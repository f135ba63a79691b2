// Raw amdgpu ioctls on a DRM file of its own, for the kernel-contract cases
// (cases/contract/): each call is one ioctl with the arguments as given, so a
// case can check the kernel's errno and effects at the uapi boundary, with
// nothing (libdrm's amdgpu_device dedup, the peer API's state) in between.
// RAII: the file closes with the object, and with it every GEM handle,
// context, BO list and syncobj it holds (drm_release).
#pragma once

#include "kmd/status.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kmd {

struct RawDevInfo {
    uint64_t va_offset = 0, va_max = 0; // DEV_INFO virtual_address_offset / _max
    uint32_t sdma_major = 0;            // HW_IP_INFO(DMA)
};

// drm-memory-* of /proc/self/fdinfo/<fd> (drm_show_memory_stats), in KiB.
struct FdMemory {
    uint64_t vram_kib = 0, gtt_kib = 0, cpu_kib = 0;
};

// A CS chunk as the uapi carries it (drm_amdgpu_cs_chunk); `data` is the
// chunk's payload, `length_dw` what the chunk header claims.
struct RawChunk {
    uint32_t id = 0;
    uint32_t length_dw = 0;
    std::vector<uint32_t> data;
};

class RawFile {
  public:
    // open(/dev/dri/renderD<minor>) + DEV_INFO + HW_IP_INFO(DMA).
    static Status open(int render_minor, std::unique_ptr<RawFile> &out);
    ~RawFile();
    RawFile(const RawFile &) = delete;
    RawFile &operator=(const RawFile &) = delete;

    int fd() const { return fd_; }
    const RawDevInfo &info() const { return info_; }

    Status gem_create(uint64_t bytes, uint64_t domains, uint64_t flags, uint32_t &handle);
    Status gem_close(uint32_t handle);
    // GEM_MMAP + mmap of the whole BO (unmapped when the file closes).
    Status cpu_map(uint32_t handle, uint64_t bytes, void **ptr);
    Status gem_va(uint32_t handle, uint32_t op, uint64_t va, uint64_t offset, uint64_t bytes,
                  uint32_t flags);
    Status ctx_alloc(uint32_t &ctx_id);
    Status bo_list_create(std::span<const uint32_t> handles, uint32_t &list);
    // DRM_AMDGPU_CS with these chunks (in order) and `bo_list` (0: none).
    Status cs(uint32_t ctx_id, uint32_t bo_list, std::span<const RawChunk> chunks, uint64_t &seq);
    // WAIT_CS with an absolute CLOCK_MONOTONIC timeout; `busy` when not done.
    // WAIT_CS on SDMA ring `ring` of the context.
    Status wait_cs(uint32_t ctx_id, uint64_t seq, uint64_t timeout_ns_rel, bool &busy,
                   uint32_t ring = 0);
    // WAIT_FENCES over (ctx, seq) pairs of this file on SDMA ring 0.
    Status wait_fences(std::span<const std::pair<uint32_t, uint64_t>> fences, bool wait_all,
                       uint64_t timeout_ns_rel, bool &busy, uint32_t &first_signaled);
    Status syncobj_create(bool signaled, uint32_t &handle);
    Status syncobj_wait(uint32_t handle, uint64_t timeout_ns_rel, uint32_t flags);
    Status syncobj_signal(uint32_t handle);
    Status syncobj_reset(uint32_t handle);
    Status syncobj_to_fd(uint32_t handle, int &fd);
    Status syncobj_from_fd(int fd, uint32_t &handle);
    // AMDGPU_FENCE_TO_HANDLE (GET_SYNCOBJ): a syncobj holding the job's fence.
    Status fence_to_syncobj(uint32_t ctx_id, uint64_t seq, uint32_t &handle, uint32_t ring = 0);
    Status prime_export(uint32_t handle, int &dmabuf_fd);
    Status prime_import(int dmabuf_fd, uint32_t &handle);
    Status memory(FdMemory &out) const;

  private:
    RawFile() = default;
    int fd_ = -1;
    RawDevInfo info_;
    std::vector<std::pair<void *, size_t>> maps_;
    Status ioctl(unsigned long request, void *arg, const char *call);
};

// The CS chunks of a job: one IB chunk for SDMA ring `ring` (`ib_bytes` long,
// at `ib_va`), plus extra chunks as given.
RawChunk ib_chunk(uint64_t ib_va, uint32_t ib_bytes, uint32_t ring = 0);
RawChunk syncobj_in_chunk(uint32_t handle);

} // namespace kmd
