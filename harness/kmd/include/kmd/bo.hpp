// Buffer objects, dma-buf export/import and GPU VA mappings, each RAII.
// Every failure keeps the kernel's errno and the ioctl's name.
#pragma once

#include "kmd/device.hpp"
#include "kmd/status.hpp"

#include <amdgpu_drm.h>

#include <cstdint>
#include <memory>

namespace kmd {

// An owned file descriptor (dma-buf fds).
class UniqueFd {
  public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    UniqueFd(UniqueFd &&o) noexcept : fd_(o.release()) {}
    UniqueFd &operator=(UniqueFd &&o) noexcept;
    ~UniqueFd();
    int get() const { return fd_; }
    int release() {
        int f = fd_;
        fd_ = -1;
        return f;
    }

  private:
    int fd_ = -1;
};

enum class Domain : uint32_t { gtt = AMDGPU_GEM_DOMAIN_GTT, vram = AMDGPU_GEM_DOMAIN_VRAM };

class Bo {
  public:
    // GEM_CREATE of `size` bytes (rounded up to pages by the kernel).
    static Status alloc(Device &dev, uint64_t size, Domain domain, uint64_t flags,
                        std::unique_ptr<Bo> &out);
    // GEM_USERPTR of page-aligned process memory [cpu, cpu + size) (libdrm
    // asks for ANONONLY | REGISTER | VALIDATE). The kernel refuses to export
    // such a BO as a dma-buf (amdgpu_gem_prime_export), so each device that
    // needs the pages gets its own userptr BO of them.
    static Status from_user(Device &dev, void *cpu, uint64_t size, std::unique_ptr<Bo> &out);
    // PRIME_FD_TO_HANDLE on `dev` of a dma-buf exported by any device.
    static Status import_dmabuf(Device &dev, int dmabuf_fd, std::unique_ptr<Bo> &out);
    ~Bo();
    Bo(const Bo &) = delete;
    Bo &operator=(const Bo &) = delete;

    // PRIME_HANDLE_TO_FD (CLOEXEC|RDWR).
    Status export_dmabuf(UniqueFd &out) const;
    // GEM_MMAP + mmap, cached for the BO's lifetime.
    Status cpu_map(void **ptr);

    amdgpu_bo_handle handle() const { return bo_; }
    uint32_t kms_handle() const { return kms_; }
    uint64_t size() const { return size_; }
    Device &device() const { return *dev_; }

  private:
    Bo() = default;
    Status finish_init();
    Device *dev_ = nullptr;
    amdgpu_bo_handle bo_ = nullptr;
    uint32_t kms_ = 0;
    uint64_t size_ = 0;
    void *cpu_ = nullptr;
};

// A GEM_VA MAP of a whole BO at `va` in the BO's device's VM; unmapped when
// destroyed (or explicitly, to see the unmap's errno).
class VaMapping {
  public:
    static constexpr uint64_t kReadWrite = AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE;
    static Status map(Bo &bo, uint64_t va, uint64_t size, uint64_t flags,
                      std::unique_ptr<VaMapping> &out);
    ~VaMapping();
    VaMapping(const VaMapping &) = delete;
    VaMapping &operator=(const VaMapping &) = delete;
    Status unmap();
    uint64_t va() const { return va_; }
    uint64_t size() const { return size_; }

  private:
    VaMapping() = default;
    Bo *bo_ = nullptr;
    uint64_t va_ = 0, size_ = 0, flags_ = 0;
    bool mapped_ = false;
};

// GEM_VA CLEAR: removes or splits whatever is mapped in [va, va + size) of
// `dev`'s VM, whichever BO it belongs to (amdgpu_vm_bo_clear_mappings). For
// tests that change a VM behind the API's back.
Status va_clear(Device &dev, uint64_t va, uint64_t size);

} // namespace kmd
