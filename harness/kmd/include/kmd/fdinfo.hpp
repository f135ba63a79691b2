// Where a DRM client's buffers live, as the kernel accounts them per open
// file: the drm-memory-<region> lines of /proc/self/fdinfo/<fd>
// (drm_show_memory_stats / amdgpu_show_fdinfo). Read-only; no ioctl.
#pragma once

#include "kmd/status.hpp"

#include <cstdint>
#include <string>

namespace kmd {

struct MemoryUsage {
    uint64_t vram_bytes = 0;
    uint64_t gtt_bytes = 0;
};

// Parses fdinfo text ("drm-memory-vram:\t1024 KiB"). ENODATA when it has no
// drm-memory-vram line (not a DRM fd, or a kernel without the stats).
Status parse_fdinfo_memory(const std::string &text, MemoryUsage &out);

// Reads /proc/self/fdinfo/<fd> and parses it.
Status fdinfo_memory(int fd, MemoryUsage &out);

} // namespace kmd
