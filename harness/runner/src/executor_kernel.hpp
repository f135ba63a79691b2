// Private to the step interpreter: what the kernel_* steps of one instance
// hold. Every device gets a DRM file of its own (kmd::RawFile), so a contract
// case sees exactly the kernel's behaviour for a fresh file, whatever the peer
// API holds in the same process; everything closes with the instance.
#pragma once

#include "kmd/raw.hpp"
#include "kmd/topology.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

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
    std::vector<int> render_minor; // by harness device number
    std::map<int, KernelFile> files;
    std::map<std::string, KernelBo> bos;
    std::map<std::string, KernelJob> jobs;
};

} // namespace harness::runner::detail
