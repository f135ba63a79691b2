#include "kmd/bo.hpp"

#include <unistd.h>

namespace kmd {

UniqueFd &UniqueFd::operator=(UniqueFd &&o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

UniqueFd::~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
}

Status Bo::alloc(Device &dev, uint64_t size, Domain domain, uint64_t flags,
                 std::unique_ptr<Bo> &out) {
    std::unique_ptr<Bo> b(new Bo());
    b->dev_ = &dev;
    amdgpu_bo_alloc_request req{};
    req.alloc_size = size;
    req.phys_alignment = 4096;
    req.preferred_heap = static_cast<uint32_t>(domain);
    req.flags = flags;
    if (Status s =
            Status::from_ret(amdgpu_bo_alloc(dev.handle(), &req, &b->bo_), "AMDGPU_GEM_CREATE");
        !s)
        return s;
    b->size_ = size;
    if (Status s = b->finish_init(); !s) return s;
    out = std::move(b);
    return Status::success();
}

Status Bo::from_user(Device &dev, void *cpu, uint64_t size, std::unique_ptr<Bo> &out) {
    std::unique_ptr<Bo> b(new Bo());
    b->dev_ = &dev;
    if (Status s = Status::from_ret(
            amdgpu_create_bo_from_user_mem(dev.handle(), cpu, size, &b->bo_), "AMDGPU_GEM_USERPTR");
        !s)
        return s;
    b->size_ = size;
    if (Status s = b->finish_init(); !s) return s;
    out = std::move(b);
    return Status::success();
}

Status Bo::import_dmabuf(Device &dev, int dmabuf_fd, std::unique_ptr<Bo> &out) {
    std::unique_ptr<Bo> b(new Bo());
    b->dev_ = &dev;
    amdgpu_bo_import_result res{};
    if (Status s = Status::from_ret(amdgpu_bo_import(dev.handle(), amdgpu_bo_handle_type_dma_buf_fd,
                                                     static_cast<uint32_t>(dmabuf_fd), &res),
                                    "DRM_IOCTL_PRIME_FD_TO_HANDLE");
        !s)
        return s;
    b->bo_ = res.buf_handle;
    b->size_ = res.alloc_size;
    if (Status s = b->finish_init(); !s) return s;
    out = std::move(b);
    return Status::success();
}

Status Bo::finish_init() {
    // The KMS handle is what BO_HANDLES chunks name; no ioctl is involved.
    return Status::from_ret(amdgpu_bo_export(bo_, amdgpu_bo_handle_type_kms, &kms_),
                            "amdgpu_bo_export(kms)");
}

Bo::~Bo() {
    if (bo_) {
        if (cpu_) amdgpu_bo_cpu_unmap(bo_);
        amdgpu_bo_free(bo_);
    }
}

Status Bo::export_dmabuf(UniqueFd &out) const {
    uint32_t fd = 0;
    Status s = Status::from_ret(amdgpu_bo_export(bo_, amdgpu_bo_handle_type_dma_buf_fd, &fd),
                                "DRM_IOCTL_PRIME_HANDLE_TO_FD");
    if (s) out = UniqueFd(static_cast<int>(fd));
    return s;
}

Status Bo::cpu_map(void **ptr) {
    if (!cpu_) {
        if (Status s = Status::from_ret(amdgpu_bo_cpu_map(bo_, &cpu_), "AMDGPU_GEM_MMAP"); !s) {
            cpu_ = nullptr;
            return s;
        }
    }
    *ptr = cpu_;
    return Status::success();
}

Status VaMapping::map(Bo &bo, uint64_t va, uint64_t size, uint64_t flags,
                      std::unique_ptr<VaMapping> &out) {
    std::unique_ptr<VaMapping> m(new VaMapping());
    m->bo_ = &bo;
    m->va_ = va;
    m->size_ = size;
    m->flags_ = flags;
    if (Status s = Status::from_ret(amdgpu_bo_va_op_raw(bo.device().handle(), bo.handle(), 0, size,
                                                        va, flags, AMDGPU_VA_OP_MAP),
                                    "AMDGPU_GEM_VA(MAP)");
        !s)
        return s;
    m->mapped_ = true;
    out = std::move(m);
    return Status::success();
}

Status VaMapping::unmap() {
    if (!mapped_) return Status::success();
    mapped_ = false;
    return Status::from_ret(amdgpu_bo_va_op_raw(bo_->device().handle(), bo_->handle(), 0, size_,
                                                va_, flags_, AMDGPU_VA_OP_UNMAP),
                            "AMDGPU_GEM_VA(UNMAP)");
}

VaMapping::~VaMapping() {
    // A destructor cannot report; callers that care call unmap() first.
    (void)unmap();
}

Status va_clear(Device &dev, uint64_t va, uint64_t size) {
    return Status::from_ret(
        amdgpu_bo_va_op_raw(dev.handle(), nullptr, 0, size, va, 0, AMDGPU_VA_OP_CLEAR),
        "AMDGPU_GEM_VA(CLEAR)");
}

} // namespace kmd
