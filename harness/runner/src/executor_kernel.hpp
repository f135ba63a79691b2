// Private to the step interpreter: what the kernel_* steps of one instance
// hold. Every device gets a DRM file of its own (kmd::RawFile), so a contract
// case sees exactly the kernel's behaviour for a fresh file, whatever the peer
// API holds in the same process; everything closes with the instance.
#pragma once

#include "kmd/raw.hpp"
#include "kmd/topology.hpp"
#include "sdma/packets.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace harness::runner::detail {

struct KernelBo {
    int device = -1;
    uint32_t handle = 0;
    uint64_t bytes = 0;
};

struct KernelJob {
    int device = -1;
    uint32_t ctx = 0;
    uint64_t seq = 0;
};

// One device's DRM file, its context and a GTT BO of IB slots mapped in its VM.
struct KernelFile {
    std::unique_ptr<kmd::RawFile> file;
    uint32_t ctx = 0;
    uint32_t ib_bo = 0;
    uint32_t *ib_cpu = nullptr;
    uint64_t ib_va = 0;
    uint32_t ib_next = 0; // next free byte in the IB BO (256-byte steps)
    uint64_t next_va = 0; // bump allocator for the step's own mappings
};

struct KernelState {
    bool have_topology = false;
    std::vector<int> render_minor;  // by harness device number
    std::vector<uint32_t> kfd_node; // by harness device number
    std::map<int, KernelFile> files;
    std::map<std::string, KernelBo> bos;
    std::map<std::string, KernelJob> jobs;
};

// Throws StepError("what: <errno>") unless `st` is a success: for the calls a
// step needs but does not check.
void require(const kmd::Status &st, const std::string &what);
// The SDMA packet generation of the file's engine (StepError if unsupported).
sdma::Generation generation(const kmd::RawFile &f);
// AMDGPU_CTX(QUERY_STATE2): the context had a job time out (GUILTY flag);
// an ioctl that fails counts as not guilty.
bool ctx_guilty(const kmd::RawFile &f, uint32_t ctx);
// A VRAM BO size of at least `bytes` that also exceeds the device's
// CPU-visible VRAM (AMDGPU_INFO VRAM_GTT) by a page: a BO no peer reaches
// through the BAR. StepError if the query fails.
uint64_t beyond_bar_bytes(const kmd::RawFile &f, uint64_t bytes);

// The kernel steps' helpers over KernelState (executor_kernel.cpp); they throw
// StepError on anything that is not what a step checks.
class KernelSteps {
  public:
    explicit KernelSteps(KernelState &k) : k_(k) {}
    // The device's DRM file of this instance, opened with a context and an
    // IB buffer on first use.
    KernelFile &file(int device);
    // Another DRM file of the device, the caller's alone (closed when dropped).
    KernelFile open(int device);
    // The device's KFD node id (StepError for a device that does not exist).
    uint32_t kfd_node(int device);
    // The device's render minor (StepError for a device that does not exist).
    int render_minor(int device);
    // Maps a whole BO at the next free address of the file's VM.
    uint64_t map_new(KernelFile &f, uint32_t handle, uint64_t bytes);
    // Writes `ib` into the next IB slot; returns its GPU address.
    uint64_t place_ib(KernelFile &f, std::vector<uint32_t> ib);
    std::vector<uint32_t> nop_ib(KernelFile &f);

    KernelState &k_;
};

// kernel_dmabuf must: readable_after_close (executor_kernel_vm.cpp).
std::string dmabuf_after_close(KernelSteps &k, int a, int b, uint64_t bytes);
// kernel_dmabuf must: write_survives_move (executor_kernel_vm.cpp).
std::string dmabuf_move_under_job(KernelSteps &k, int a, int b, uint64_t bytes);

} // namespace harness::runner::detail
