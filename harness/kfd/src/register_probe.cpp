#include "kfd/register_probe.hpp"

#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

namespace kfd {

namespace {

// A GPU VA of the fresh VM, above amdgpu's reserved bottom and far from
// anything a process that only ran this probe could have mapped.
// UNVERIFIED on hardware: that a VA outside libhsakmt's apertures is
// accepted by ALLOC_MEMORY_OF_GPU (amdgpu_vm_bo_map checks only the VM's
// range and overlaps).
constexpr uint64_t kProbeVa = 0x1000000000ull; // 64 GiB
constexpr uint64_t kPage = 4096;

class Fd {
  public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return fd_; }

  private:
    int fd_;
};

// gpu_id of the KFD node whose drm_render_minor is `minor` (0: none).
uint32_t gpu_id_of(int minor) {
    for (int n = 0; n < 256; ++n) {
        const std::string dir = "/sys/class/kfd/kfd/topology/nodes/" + std::to_string(n);
        std::ifstream props(dir + "/properties");
        if (!props) break;
        std::string key;
        long long value = 0, found = -1;
        while (props >> key >> value)
            if (key == "drm_render_minor") found = value;
        if (found != minor) continue;
        std::ifstream id(dir + "/gpu_id");
        uint32_t gpu_id = 0;
        id >> gpu_id;
        return gpu_id;
    }
    return 0;
}

int xioctl(int fd, unsigned long req, void *arg) {
    int r;
    do {
        r = ::ioctl(fd, req, arg);
    } while (r < 0 && (errno == EINTR || errno == EAGAIN));
    return r < 0 ? errno : 0;
}

} // namespace

kmd::Status probe_mmio_peer_map(int owner_minor, int mapper_minor) {
    const uint32_t owner_id = gpu_id_of(owner_minor), mapper_id = gpu_id_of(mapper_minor);
    if (!owner_id || !mapper_id) return kmd::Status::fail(ENODEV, "KFD topology (gpu_id)");
    Fd kfd(::open("/dev/kfd", O_RDWR | O_CLOEXEC));
    if (kfd.get() < 0) return kmd::Status::fail(errno, "open(/dev/kfd)");
    const std::string owner_node = "/dev/dri/renderD" + std::to_string(owner_minor);
    const std::string mapper_node = "/dev/dri/renderD" + std::to_string(mapper_minor);
    Fd owner_drm(::open(owner_node.c_str(), O_RDWR | O_CLOEXEC));
    Fd mapper_drm(::open(mapper_node.c_str(), O_RDWR | O_CLOEXEC));
    if (owner_drm.get() < 0 || mapper_drm.get() < 0)
        return kmd::Status::fail(errno, "open(render node)");
    for (auto [drm, id] : {std::pair{owner_drm.get(), owner_id}, {mapper_drm.get(), mapper_id}}) {
        kfd_ioctl_acquire_vm_args a{};
        a.drm_fd = uint32_t(drm);
        a.gpu_id = id;
        if (int e = xioctl(kfd.get(), AMDKFD_IOC_ACQUIRE_VM, &a))
            return kmd::Status::fail(e, "AMDKFD_IOC_ACQUIRE_VM");
    }
    // kfd_ioctl_alloc_memory_of_gpu: an MMIO remap BO is exactly one page.
    kfd_ioctl_alloc_memory_of_gpu_args alloc{};
    alloc.va_addr = kProbeVa;
    alloc.size = kPage;
    alloc.gpu_id = owner_id;
    alloc.flags = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
                  KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;
    if (int e = xioctl(kfd.get(), AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &alloc))
        return kmd::Status::fail(e, "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU(MMIO_REMAP)");
    uint32_t ids[] = {mapper_id};
    kfd_ioctl_map_memory_to_gpu_args map{};
    map.handle = alloc.handle;
    map.device_ids_array_ptr = reinterpret_cast<uintptr_t>(ids);
    map.n_devices = 1;
    const int e = xioctl(kfd.get(), AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map);
    // Everything goes with the process (kfd_process_wq_release frees its BOs).
    return e ? kmd::Status::fail(e, "AMDKFD_IOC_MAP_MEMORY_TO_GPU(peer MMIO)")
             : kmd::Status::success();
}

} // namespace kfd
