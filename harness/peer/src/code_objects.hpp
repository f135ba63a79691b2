// What a code-object image is, as far as this library must say it before
// refusing to run it (CONTRACT.md §5.6): a clang offload bundle (the format
// of a HIP fat binary and of hipcc's .hsaco/.co output) with its entries'
// ids, a bare AMDGPU ELF, or neither. No code object is ever loaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace peer {

struct CodeObjectImage {
    enum class Kind { bundle, amdgpu_elf, invalid };
    Kind kind = Kind::invalid;
    // Bundle entry ids ("hipv4-amdgcn-amd-amdhsa--gfx90a", "host-x86_64-...").
    std::vector<std::string> entries;
    uint32_t elf_flags = 0; // e_flags of a bare ELF (its EF_AMDGPU_MACH byte)
    std::string problem;    // why an image is invalid
};

// An image of `size` bytes (a file's contents). Reads nothing beyond it.
CodeObjectImage inspect_code_object(const uint8_t *data, size_t size);
// An image whose size the caller does not say (hipModuleLoadData, a fat
// binary's bundle): the headers are read as they declare themselves, with
// bounds on the entry count and id lengths, as ROCm reads them.
CodeObjectImage inspect_code_object(const void *image);

// The GPU targets of a bundle's entries ("gfx90a", "gfx90a:xnack-"), the
// host entry left out: what follows "amdhsa-" in an id such as
// "hipv4-amdgcn-amd-amdhsa--gfx90a".
std::vector<std::string> gpu_targets(const CodeObjectImage &img);
// What the image holds, said for a device of target `gfx` ("gfx90a"): "its
// code objects are for gfx908, gfx90a, including this device's", "... for
// no GPU (a host-only build)", "it is an AMDGPU ELF code object (...)".
std::string describe_code_object(const CodeObjectImage &img, const std::string &gfx);

} // namespace peer
