// kernel_packet: one CONSTANT_FILL or COPY_LINEAR packet of a given byte count
// on a given SDMA ring of the instance's own DRM file (kmd/raw.hpp), into a
// GTT BO the CPU reads back. The API's copies and fills go through ring 0 and
// split below the engine's per-packet maximum, so a ring or a packet size they
// never reach (a chunk at the 2^22-byte limit, R01/R02) is reached here. The
// kernel rule is amdgpu_cs_ioctl -> amdgpu_job_run on the ring the IB chunk
// names (drm_amdgpu_cs_chunk_ib.ring): every byte the packet covers is written
// and nothing after it.
#include "executor_impl.hpp"
#include "executor_kernel.hpp"

#include "cases/step_table.hpp"

#include <libdrm/amdgpu_drm.h>

#include <fmt/format.h>

#include <cstring>

namespace harness::runner::detail {

namespace {

constexpr uint64_t kWaitNs = 10ull * 1000 * 1000 * 1000;
constexpr uint64_t kGuard = 4096;   // bytes after the packet's range that must stay
constexpr uint8_t kFillByte = 0xa7; // odd: never the poison
constexpr uint8_t kPoison = 0x5a;   // even: never a source pattern byte

// GEM_VA maps whole pages.
uint64_t pages(uint64_t bytes) {
    return (bytes + 4095) & ~uint64_t(4095);
}

uint8_t source_byte(uint64_t i) {
    return uint8_t((i * 131 + (i >> 8)) | 1);
}

struct PacketBos {
    uint64_t head = 0; // the destination starts this far into its BO
    uint32_t dst = 0, src = 0;
    uint8_t *dst_cpu = nullptr, *src_cpu = nullptr;
    uint64_t dst_va = 0, src_va = 0;
};

// A poisoned destination of bytes + guard starting 4 KiB + `shift` bytes into
// its BO, and for a copy a patterned source.
PacketBos packet_bos(KernelSteps &k, KernelFile &f, bool copy, uint64_t bytes, uint64_t shift) {
    PacketBos b;
    b.head = 4096 + shift;
    const uint64_t dst_size = pages(b.head + bytes + kGuard);
    require(f.file->gem_create(dst_size, AMDGPU_GEM_DOMAIN_GTT, 0, b.dst), "GEM_CREATE(dst)");
    void *cpu = nullptr;
    require(f.file->cpu_map(b.dst, dst_size, &cpu), "mapping dst");
    b.dst_cpu = static_cast<uint8_t *>(cpu);
    std::memset(b.dst_cpu, kPoison, dst_size);
    b.dst_va = k.map_new(f, b.dst, dst_size);
    if (!copy) return b;
    require(f.file->gem_create(pages(bytes), AMDGPU_GEM_DOMAIN_GTT, 0, b.src), "GEM_CREATE(src)");
    require(f.file->cpu_map(b.src, pages(bytes), &cpu), "mapping src");
    b.src_cpu = static_cast<uint8_t *>(cpu);
    for (uint64_t i = 0; i < bytes; ++i)
        b.src_cpu[i] = source_byte(i);
    b.src_va = k.map_new(f, b.src, pages(bytes));
    return b;
}

// "" when [headroom, headroom + bytes) holds what the packet wrote and the
// headroom and guard still hold the poison.
std::string check_bytes(const PacketBos &b, bool copy, uint64_t bytes, uint32_t ring) {
    for (uint64_t i = 0; i < b.head + bytes + kGuard; ++i) {
        const bool inside = i >= b.head && i < b.head + bytes;
        const uint8_t want = !inside ? kPoison : copy ? source_byte(i - b.head) : kFillByte;
        if (b.dst_cpu[i] == want) continue;
        if (!inside)
            return fmt::format("one {} packet of {} bytes on SDMA ring {} wrote byte {} {} its "
                               "range",
                               copy ? "COPY_LINEAR" : "CONSTANT_FILL", bytes, ring,
                               i < b.head ? b.head - i : i - b.head - bytes + 1,
                               i < b.head ? "before" : "after");
        return fmt::format("one {} packet of {} bytes on SDMA ring {}: byte {} read 0x{:02x}, "
                           "expected 0x{:02x}{}",
                           copy ? "COPY_LINEAR" : "CONSTANT_FILL", bytes, ring, i - b.head,
                           b.dst_cpu[i], want, b.dst_cpu[i] == kPoison ? " (never written)" : "");
    }
    return {};
}

} // namespace

std::string Interpreter::kernel_packet(const Step &s) {
    KernelSteps k(kernel_state());
    KernelFile &f = k.file(int(num(s, "device", 0)));
    const uint32_t ring = uint32_t(num(s, "ring", 0));
    const bool copy = word(s, "op", "fill") == "copy";
    const uint64_t bytes = uint64_t(num(s, "bytes", 4096));
    const PacketBos b = packet_bos(k, f, copy, bytes, uint64_t(num(s, "shift", 0)));
    std::vector<uint32_t> ib;
    const sdma::Generation g = generation(*f.file);
    const uint64_t dst = b.dst_va + b.head;
    const sdma::Error e = copy ? sdma::copy_linear(ib, g, b.src_va, dst, bytes)
                               : sdma::constant_fill(ib, g, dst, 0x01010101u * kFillByte, bytes);
    if (e != sdma::Error::none)
        return fmt::format("cannot encode one {} packet of {} bytes for this engine",
                           copy ? "COPY_LINEAR" : "CONSTANT_FILL", bytes);
    const uint32_t ib_bytes = uint32_t(((ib.size() + 7) / 8) * 8 * 4);
    const uint64_t ib_va = k.place_ib(f, ib);
    std::vector<uint32_t> bos{f.ib_bo, b.dst};
    if (copy) bos.push_back(b.src);
    uint32_t list = 0;
    require(f.file->bo_list_create(bos, list), "AMDGPU_BO_LIST");
    const kmd::RawChunk chunks[] = {kmd::ib_chunk(ib_va, ib_bytes, ring)};
    uint64_t seq = 0;
    require(f.file->cs(f.ctx, list, chunks, seq), fmt::format("AMDGPU_CS on SDMA ring {}", ring));
    bool busy = false;
    kmd::Status st = f.file->wait_cs(f.ctx, seq, kWaitNs, busy, ring);
    if (!st.ok()) return fmt::format("WAIT_CS on SDMA ring {}: {}", ring, st.describe());
    if (busy) return fmt::format("the packet on SDMA ring {} did not finish within 10 s", ring);
    return check_bytes(b, copy, bytes, ring);
}

} // namespace harness::runner::detail
