// Recognising code-object images: the clang offload bundle layout (magic
// "__CLANG_OFFLOAD_BUNDLE__", a 64-bit entry count, then per entry its
// offset, size and id length as 64-bit values followed by the id) and the
// ELF header fields that mark an AMDGPU code object (64-bit class,
// e_machine EM_AMDGPU = 224). Facts from clang's offload bundler format and
// the ELF specification; nothing is executed or relocated.
#include "code_objects.hpp"

#include <cstdio>
#include <cstring>

namespace peer {

namespace {

constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kMagicBytes = sizeof kBundleMagic - 1; // 24
constexpr uint64_t kMaxEntries = 1024;                  // a sanity bound, not a format limit
constexpr uint64_t kMaxIdBytes = 4096;
constexpr uint16_t kEmAmdgpu = 224;

uint64_t read64(const uint8_t *p) {
    uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Bounded reader: `size` is SIZE_MAX for an image of unknown size.
struct Reader {
    const uint8_t *data;
    size_t size;
    bool has(size_t off, size_t n) const { return off <= size && n <= size - off; }
};

CodeObjectImage read_bundle(const Reader &r) {
    CodeObjectImage img;
    if (!r.has(kMagicBytes, 8)) {
        img.problem = "offload bundle header cut short";
        return img;
    }
    const uint64_t count = read64(r.data + kMagicBytes);
    if (count == 0 || count > kMaxEntries) {
        img.problem = "offload bundle with " + std::to_string(count) + " entries";
        return img;
    }
    size_t off = kMagicBytes + 8;
    for (uint64_t i = 0; i < count; ++i) {
        if (!r.has(off, 24)) {
            img.problem = "offload bundle entry " + std::to_string(i) + " cut short";
            return img;
        }
        const uint64_t id_bytes = read64(r.data + off + 16);
        if (id_bytes == 0 || id_bytes > kMaxIdBytes || !r.has(off + 24, size_t(id_bytes))) {
            img.problem = "offload bundle entry " + std::to_string(i) + " has a bad id length";
            return img;
        }
        img.entries.emplace_back(reinterpret_cast<const char *>(r.data + off + 24),
                                 size_t(id_bytes));
        off += 24 + size_t(id_bytes);
    }
    img.kind = CodeObjectImage::Kind::bundle;
    return img;
}

CodeObjectImage read_elf(const Reader &r) {
    CodeObjectImage img;
    // e_ident[EI_CLASS] at 4 (2 = 64-bit), e_machine at 18, e_flags at 48.
    if (!r.has(0, 52) || r.data[4] != 2) {
        img.problem = "an ELF file that is not a 64-bit code object";
        return img;
    }
    uint16_t machine;
    std::memcpy(&machine, r.data + 18, sizeof machine);
    if (machine != kEmAmdgpu) {
        img.problem = "an ELF file for machine " + std::to_string(machine) + ", not AMDGPU (224)";
        return img;
    }
    std::memcpy(&img.elf_flags, r.data + 48, sizeof img.elf_flags);
    img.kind = CodeObjectImage::Kind::amdgpu_elf;
    return img;
}

CodeObjectImage inspect(const Reader &r) {
    if (r.has(0, kMagicBytes) && std::memcmp(r.data, kBundleMagic, kMagicBytes) == 0)
        return read_bundle(r);
    if (r.has(0, 4) && std::memcmp(r.data,
                                   "\x7f"
                                   "ELF",
                                   4) == 0)
        return read_elf(r);
    CodeObjectImage img;
    img.problem = "neither a clang offload bundle nor an AMDGPU ELF code object";
    return img;
}

} // namespace

CodeObjectImage inspect_code_object(const uint8_t *data, size_t size) {
    return inspect(Reader{data, size});
}

CodeObjectImage inspect_code_object(const void *image) {
    return inspect(Reader{static_cast<const uint8_t *>(image), SIZE_MAX});
}

std::vector<std::string> gpu_targets(const CodeObjectImage &img) {
    std::vector<std::string> out;
    for (const std::string &id : img.entries) {
        const size_t at = id.find("amdhsa-");
        if (id.rfind("host-", 0) == 0 || at == std::string::npos) continue;
        std::string target = id.substr(at + 7);
        target.erase(0, target.find_first_not_of('-'));
        out.push_back(target);
    }
    return out;
}

std::string describe_code_object(const CodeObjectImage &img, const std::string &gfx) {
    if (img.kind == CodeObjectImage::Kind::amdgpu_elf) {
        char mach[8];
        std::snprintf(mach, sizeof mach, "%02x", img.elf_flags & 0xffu);
        return std::string("it is an AMDGPU ELF code object (EF_AMDGPU_MACH 0x") + mach + ")";
    }
    if (img.kind == CodeObjectImage::Kind::invalid) return img.problem;
    const std::vector<std::string> targets = gpu_targets(img);
    if (targets.empty()) return "its code objects are for no GPU (a host-only build)";
    std::string s = "its code objects are for";
    bool this_device = false;
    for (size_t i = 0; i < targets.size(); ++i) {
        s += (i ? ", " : " ") + targets[i];
        const std::string base = targets[i].substr(0, targets[i].find(':'));
        this_device = this_device || base == gfx;
    }
    return s + (this_device ? ", including this device's" : ", none for this device");
}

} // namespace peer
