#include "kmd/raw.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <libdrm/amdgpu_drm.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

namespace kmd {

namespace {

uint64_t abs_timeout(uint64_t rel_ns) {
    if (static_cast<int64_t>(rel_ns) < 0) return ~0ull >> 1; // "infinite"
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return uint64_t(now.tv_sec) * 1000000000ull + uint64_t(now.tv_nsec) + rel_ns;
}

uint64_t ptr(const void *p) {
    return reinterpret_cast<uint64_t>(p);
}

} // namespace

Status RawFile::ioctl(unsigned long request, void *arg, const char *call) {
    // drmIoctl restarts on EINTR/EAGAIN, as every libdrm caller does.
    if (drmIoctl(fd_, request, arg) != 0) return Status::fail(errno, call);
    return Status::success();
}

Status RawFile::open(int render_minor, std::unique_ptr<RawFile> &out) {
    std::unique_ptr<RawFile> f(new RawFile());
    char path[64];
    std::snprintf(path, sizeof path, "/dev/dri/renderD%d", render_minor);
    f->fd_ = ::open(path, O_RDWR | O_CLOEXEC);
    if (f->fd_ < 0) return Status::fail(errno, "open(renderD)");
    drm_amdgpu_info_device di{};
    drm_amdgpu_info req{};
    req.return_pointer = ptr(&di);
    req.return_size = sizeof di;
    req.query = AMDGPU_INFO_DEV_INFO;
    if (Status s = f->ioctl(DRM_IOCTL_AMDGPU_INFO, &req, "AMDGPU_INFO_DEV_INFO"); !s) return s;
    f->info_.va_offset = di.virtual_address_offset;
    f->info_.va_max = di.virtual_address_max;
    drm_amdgpu_info_hw_ip ip{};
    req = {};
    req.return_pointer = ptr(&ip);
    req.return_size = sizeof ip;
    req.query = AMDGPU_INFO_HW_IP_INFO;
    req.query_hw_ip.type = AMDGPU_HW_IP_DMA;
    if (Status s = f->ioctl(DRM_IOCTL_AMDGPU_INFO, &req, "AMDGPU_INFO_HW_IP_INFO"); !s) return s;
    f->info_.sdma_major = ip.hw_ip_version_major;
    out = std::move(f);
    return Status::success();
}

RawFile::~RawFile() {
    for (auto &[p, n] : maps_)
        munmap(p, n);
    if (fd_ >= 0) ::close(fd_);
}

Status RawFile::gem_create(uint64_t bytes, uint64_t domains, uint64_t flags, uint32_t &handle) {
    drm_amdgpu_gem_create c{};
    c.in.bo_size = bytes;
    c.in.alignment = 4096;
    c.in.domains = domains;
    c.in.domain_flags = flags;
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_GEM_CREATE, &c, "AMDGPU_GEM_CREATE"); !s) return s;
    handle = c.out.handle;
    return Status::success();
}

Status RawFile::gem_close(uint32_t handle) {
    drm_gem_close c{};
    c.handle = handle;
    return ioctl(DRM_IOCTL_GEM_CLOSE, &c, "GEM_CLOSE");
}

Status RawFile::cpu_map(uint32_t handle, uint64_t bytes, void **out) {
    drm_amdgpu_gem_mmap m{};
    m.in.handle = handle;
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_GEM_MMAP, &m, "AMDGPU_GEM_MMAP"); !s) return s;
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                   static_cast<off_t>(m.out.addr_ptr));
    if (p == MAP_FAILED) return Status::fail(errno, "mmap(GEM)");
    maps_.emplace_back(p, bytes);
    *out = p;
    return Status::success();
}

Status RawFile::gem_va(uint32_t handle, uint32_t op, uint64_t va, uint64_t offset, uint64_t bytes,
                       uint32_t flags) {
    drm_amdgpu_gem_va v{};
    v.handle = handle;
    v.operation = op;
    v.flags = flags;
    v.va_address = va;
    v.offset_in_bo = offset;
    v.map_size = bytes;
    return ioctl(DRM_IOCTL_AMDGPU_GEM_VA, &v, "AMDGPU_GEM_VA");
}

Status RawFile::ctx_alloc(uint32_t &ctx_id) {
    drm_amdgpu_ctx c{};
    c.in.op = AMDGPU_CTX_OP_ALLOC_CTX;
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_CTX, &c, "AMDGPU_CTX(ALLOC)"); !s) return s;
    ctx_id = c.out.alloc.ctx_id;
    return Status::success();
}

Status RawFile::bo_list_create(std::span<const uint32_t> handles, uint32_t &list) {
    std::vector<drm_amdgpu_bo_list_entry> entries;
    for (uint32_t h : handles)
        entries.push_back({h, 0});
    drm_amdgpu_bo_list b{};
    b.in.operation = AMDGPU_BO_LIST_OP_CREATE;
    b.in.bo_number = static_cast<uint32_t>(entries.size());
    b.in.bo_info_size = sizeof(drm_amdgpu_bo_list_entry);
    b.in.bo_info_ptr = ptr(entries.data());
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_BO_LIST, &b, "AMDGPU_BO_LIST(CREATE)"); !s) return s;
    list = b.out.list_handle;
    return Status::success();
}

Status RawFile::cs(uint32_t ctx_id, uint32_t bo_list, std::span<const RawChunk> chunks,
                   uint64_t &seq) {
    std::vector<drm_amdgpu_cs_chunk> headers;
    for (const auto &c : chunks)
        headers.push_back({c.id, c.length_dw, ptr(c.data.data())});
    std::vector<uint64_t> ptrs;
    for (const auto &h : headers)
        ptrs.push_back(ptr(&h));
    drm_amdgpu_cs cs{};
    cs.in.ctx_id = ctx_id;
    cs.in.bo_list_handle = bo_list;
    cs.in.num_chunks = static_cast<uint32_t>(ptrs.size());
    cs.in.chunks = ptr(ptrs.data());
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_CS, &cs, "AMDGPU_CS"); !s) return s;
    seq = cs.out.handle;
    return Status::success();
}

Status RawFile::wait_cs(uint32_t ctx_id, uint64_t seq, uint64_t timeout_ns_rel, bool &busy,
                        uint32_t ring) {
    drm_amdgpu_wait_cs w{};
    w.in.handle = seq;
    w.in.ip_type = AMDGPU_HW_IP_DMA;
    w.in.ring = ring;
    w.in.ctx_id = ctx_id;
    w.in.timeout = abs_timeout(timeout_ns_rel);
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_WAIT_CS, &w, "AMDGPU_WAIT_CS"); !s) return s;
    busy = w.out.status != 0;
    return Status::success();
}

Status RawFile::wait_fences(std::span<const std::pair<uint32_t, uint64_t>> fences, bool wait_all,
                            uint64_t timeout_ns_rel, bool &busy, uint32_t &first_signaled) {
    std::vector<drm_amdgpu_fence> f;
    for (const auto &[ctx, seq] : fences) {
        drm_amdgpu_fence x{};
        x.ctx_id = ctx;
        x.ip_type = AMDGPU_HW_IP_DMA;
        x.seq_no = seq;
        f.push_back(x);
    }
    drm_amdgpu_wait_fences w{};
    w.in.fences = ptr(f.data());
    w.in.fence_count = static_cast<uint32_t>(f.size());
    w.in.wait_all = wait_all;
    w.in.timeout_ns = abs_timeout(timeout_ns_rel);
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_WAIT_FENCES, &w, "AMDGPU_WAIT_FENCES"); !s) return s;
    busy = w.out.status == 0; // WAIT_FENCES: status 1 means signalled
    first_signaled = w.out.first_signaled;
    return Status::success();
}

Status RawFile::syncobj_create(bool signaled, uint32_t &handle) {
    drm_syncobj_create c{};
    c.flags = signaled ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
    if (Status s = ioctl(DRM_IOCTL_SYNCOBJ_CREATE, &c, "SYNCOBJ_CREATE"); !s) return s;
    handle = c.handle;
    return Status::success();
}

Status RawFile::syncobj_wait(uint32_t handle, uint64_t timeout_ns_rel, uint32_t flags) {
    drm_syncobj_wait w{};
    w.handles = ptr(&handle);
    w.count_handles = 1;
    w.flags = flags;
    w.timeout_nsec = static_cast<int64_t>(abs_timeout(timeout_ns_rel));
    return ioctl(DRM_IOCTL_SYNCOBJ_WAIT, &w, "SYNCOBJ_WAIT");
}

Status RawFile::syncobj_signal(uint32_t handle) {
    drm_syncobj_array a{};
    a.handles = ptr(&handle);
    a.count_handles = 1;
    return ioctl(DRM_IOCTL_SYNCOBJ_SIGNAL, &a, "SYNCOBJ_SIGNAL");
}

Status RawFile::syncobj_reset(uint32_t handle) {
    drm_syncobj_array a{};
    a.handles = ptr(&handle);
    a.count_handles = 1;
    return ioctl(DRM_IOCTL_SYNCOBJ_RESET, &a, "SYNCOBJ_RESET");
}

Status RawFile::syncobj_to_fd(uint32_t handle, int &fd) {
    drm_syncobj_handle h{};
    h.handle = handle;
    if (Status s = ioctl(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h, "SYNCOBJ_HANDLE_TO_FD"); !s) return s;
    fd = h.fd;
    return Status::success();
}

Status RawFile::syncobj_from_fd(int fd, uint32_t &handle) {
    drm_syncobj_handle h{};
    h.fd = fd;
    if (Status s = ioctl(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, "SYNCOBJ_FD_TO_HANDLE"); !s) return s;
    handle = h.handle;
    return Status::success();
}

Status RawFile::fence_to_syncobj(uint32_t ctx_id, uint64_t seq, uint32_t &handle, uint32_t ring) {
    drm_amdgpu_fence_to_handle f{};
    f.in.fence.ctx_id = ctx_id;
    f.in.fence.ip_type = AMDGPU_HW_IP_DMA;
    f.in.fence.ring = ring;
    f.in.fence.seq_no = seq;
    f.in.what = AMDGPU_FENCE_TO_HANDLE_GET_SYNCOBJ;
    if (Status s = ioctl(DRM_IOCTL_AMDGPU_FENCE_TO_HANDLE, &f, "AMDGPU_FENCE_TO_HANDLE"); !s)
        return s;
    handle = f.out.handle;
    return Status::success();
}

Status RawFile::prime_export(uint32_t handle, int &dmabuf_fd) {
    drm_prime_handle p{};
    p.handle = handle;
    p.flags = DRM_CLOEXEC | DRM_RDWR;
    if (Status s = ioctl(DRM_IOCTL_PRIME_HANDLE_TO_FD, &p, "PRIME_HANDLE_TO_FD"); !s) return s;
    dmabuf_fd = p.fd;
    return Status::success();
}

Status RawFile::prime_import(int dmabuf_fd, uint32_t &handle) {
    drm_prime_handle p{};
    p.fd = dmabuf_fd;
    if (Status s = ioctl(DRM_IOCTL_PRIME_FD_TO_HANDLE, &p, "PRIME_FD_TO_HANDLE"); !s) return s;
    handle = p.handle;
    return Status::success();
}

Status RawFile::memory(FdMemory &out) const {
    std::ifstream in("/proc/self/fdinfo/" + std::to_string(fd_));
    if (!in) return Status::fail(errno ? errno : ENOENT, "open(fdinfo)");
    out = {};
    std::string key;
    uint64_t v = 0;
    std::string line;
    while (std::getline(in, line)) {
        char k[64] = {};
        unsigned long long n = 0;
        if (std::sscanf(line.c_str(), "%63s %llu", k, &n) != 2) continue;
        key = k;
        v = n;
        if (key == "drm-memory-vram:") out.vram_kib = v;
        if (key == "drm-memory-gtt:") out.gtt_kib = v;
        if (key == "drm-memory-cpu:") out.cpu_kib = v;
    }
    return Status::success();
}

RawChunk ib_chunk(uint64_t ib_va, uint32_t ib_bytes, uint32_t ring) {
    drm_amdgpu_cs_chunk_ib ib{};
    ib.va_start = ib_va;
    ib.ib_bytes = ib_bytes;
    ib.ip_type = AMDGPU_HW_IP_DMA;
    ib.ring = ring;
    RawChunk c;
    c.id = AMDGPU_CHUNK_ID_IB;
    c.data.resize(sizeof ib / 4);
    std::memcpy(c.data.data(), &ib, sizeof ib);
    c.length_dw = static_cast<uint32_t>(c.data.size());
    return c;
}

RawChunk syncobj_in_chunk(uint32_t handle) {
    drm_amdgpu_cs_chunk_sem s{};
    s.handle = handle;
    RawChunk c;
    c.id = AMDGPU_CHUNK_ID_SYNCOBJ_IN;
    c.data.resize((sizeof s + 3) / 4);
    std::memcpy(c.data.data(), &s, sizeof s);
    c.length_dw = static_cast<uint32_t>(c.data.size());
    return c;
}

} // namespace kmd
