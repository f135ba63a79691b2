#include "sdma/packets.hpp"

namespace sdma {
namespace {

// Opcodes and sub-ops are the same in the vega10, navi10 and sdma_v6_0_0
// packet headers (fixtures/amdgpu-sim/KERNEL-MODEL.md §3.1).
constexpr uint32_t kOpNop = 0;
constexpr uint32_t kOpCopy = 1;
constexpr uint32_t kOpWrite = 2;
constexpr uint32_t kOpFence = 5;
constexpr uint32_t kOpTrap = 6;
constexpr uint32_t kOpPollRegmem = 8;
constexpr uint32_t kOpConstFill = 11;
constexpr uint32_t kOpTimestamp = 13;
constexpr uint32_t kSubCopyLinear = 0;
constexpr uint32_t kSubWriteLinear = 0;
constexpr uint32_t kSubTimestampGetGlobal = 2;

constexpr uint32_t header(uint32_t op, uint32_t sub_op) {
    return (op & 0xff) | (sub_op & 0xff) << 8;
}
constexpr uint32_t lo(uint64_t v) {
    return static_cast<uint32_t>(v);
}
constexpr uint32_t hi(uint64_t v) {
    return static_cast<uint32_t>(v >> 32);
}

// sdma_v7_0_emit_copy_buffer sets SDMA_PKT_COPY_LINEAR_HEADER_CPV(1) (bit 19).
constexpr uint32_t kCopyHeaderCpv = 1u << 19;
// FENCE mtype (bits 16-18) exists from navi10's header on; the v5/v6/v7
// ring_emit_fence functions write 3 (UC). vega10 has no such field.
constexpr uint32_t kFenceMtypeUc = 3u << 16;

} // namespace

std::optional<Generation> generation_for_ip(uint32_t major) {
    switch (major) {
    case 4:
        return Generation::v4;
    case 5:
        return Generation::v5;
    case 6:
        return Generation::v6;
    case 7:
        return Generation::v7;
    default:
        return std::nullopt;
    }
}

Limits limits(Generation g) {
    // copy/fill_max_bytes 0x400000 in sdma_v4_0.c, sdma_v4_4_2.c, sdma_v5_0.c,
    // sdma_v5_2.c, sdma_v6_0.c, sdma_v7_0.c (amdgpu_buffer_funcs); copy_num_dw
    // is 8 only in sdma_v7_0.c. Count fields: 22 bits (vega10/navi10 headers,
    // COPY_LINEAR_COUNT_count_mask 0x3FFFFF), 30 bits (sdma_v6_0_0 header).
    const bool wide = g == Generation::v6 || g == Generation::v7;
    return Limits{
        .copy_max_bytes = 0x400000,
        .fill_max_bytes = 0x400000,
        .copy_num_dw = g == Generation::v7 ? 8u : 7u,
        .fill_num_dw = 5,
        .write_max_dwords = 1u << 20,
        .count_field_bits = wide ? 30u : 22u,
    };
}

uint64_t default_copy_packet_bytes(uint32_t ip_major, uint32_t ip_minor) {
    const std::optional<Generation> g = generation_for_ip(ip_major);
    if (!g) return 0;
    const uint64_t kernel_max = limits(*g).copy_max_bytes;
    const bool v52_or_newer = ip_major > 5 || (ip_major == 5 && ip_minor >= 2);
    return v52_or_newer ? kernel_max : kernel_max - 256;
}

const char *error_name(Error e) {
    switch (e) {
    case Error::none:
        return "none";
    case Error::zero_count:
        return "zero_count";
    case Error::count_too_large:
        return "count_too_large";
    case Error::misaligned_address:
        return "misaligned_address";
    case Error::bad_argument:
        return "bad_argument";
    }
    return "unknown";
}

Error copy_linear(std::vector<uint32_t> &ib, Generation g, uint64_t src, uint64_t dst,
                  uint64_t bytes) {
    if (bytes == 0) return Error::zero_count;
    if (bytes > limits(g).copy_max_bytes) return Error::count_too_large;
    uint32_t h = header(kOpCopy, kSubCopyLinear);
    if (g == Generation::v7) h |= kCopyHeaderCpv;
    // dw1 = byte_count - 1, dw2 = 0 (no endian swap), then src lo/hi, dst lo/hi
    // (sdma_vN_emit_copy_buffer).
    ib.insert(ib.end(),
              {h, static_cast<uint32_t>(bytes - 1), 0u, lo(src), hi(src), lo(dst), hi(dst)});
    // v7 adds a DCC parameter dword; 0 when neither compressed read nor write.
    if (g == Generation::v7) ib.push_back(0);
    return Error::none;
}

Error copy_linear_split(std::vector<uint32_t> &ib, Generation g, uint64_t src, uint64_t dst,
                        uint64_t bytes, uint64_t max_per_packet) {
    const uint64_t cap = limits(g).copy_max_bytes;
    if (max_per_packet > cap) return Error::count_too_large;
    const uint64_t step = max_per_packet == 0 ? cap : max_per_packet;
    ib.reserve(ib.size() + copy_linear_split_dwords(g, bytes, step));
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t n = bytes - done < step ? bytes - done : step;
        if (Error e = copy_linear(ib, g, src + done, dst + done, n); e != Error::none) return e;
        done += n;
    }
    return Error::none;
}

uint64_t copy_linear_split_dwords(Generation g, uint64_t bytes, uint64_t max_per_packet) {
    const Limits l = limits(g);
    const uint64_t step = max_per_packet == 0 ? l.copy_max_bytes : max_per_packet;
    return (bytes + step - 1) / step * l.copy_num_dw;
}

Error constant_fill(std::vector<uint32_t> &ib, Generation g, uint64_t dst, uint32_t data,
                    uint64_t bytes, FillSize size) {
    if (bytes == 0) return Error::zero_count;
    if (bytes > limits(g).fill_max_bytes) return Error::count_too_large;
    // fillsize is header bits 30-31 in all three headers
    // (SDMA_PKT_CONSTANT_FILL_HEADER_fillsize_shift 30); the kernel's
    // sdma_vN_emit_fill_buffer leaves it 0 and writes byte_count - 1.
    // v7: later kernels' sdma_v7_0_emit_fill_buffer also set COMPRESS (bit 16)
    // for their own clears; these fills are plain linear writes with bit 16
    // clear, as sdma_v7_0.c in drm-kmod master (6.11). Whether a v7 engine
    // needs the bit for uncompressed VRAM is UNVERIFIED.
    const uint32_t h = header(kOpConstFill, 0) | static_cast<uint32_t>(size) << 30;
    ib.insert(ib.end(), {h, lo(dst), hi(dst), data, static_cast<uint32_t>(bytes - 1)});
    return Error::none;
}

Error constant_fill_split(std::vector<uint32_t> &ib, Generation g, uint64_t dst, uint32_t data,
                          uint64_t bytes, FillSize size) {
    const uint64_t step = limits(g).fill_max_bytes;
    for (uint64_t done = 0; done < bytes;) {
        const uint64_t n = bytes - done < step ? bytes - done : step;
        if (Error e = constant_fill(ib, g, dst + done, data, n, size); e != Error::none) return e;
        done += n;
    }
    return Error::none;
}

Error write_linear(std::vector<uint32_t> &ib, Generation g, uint64_t dst,
                   std::span<const uint32_t> data) {
    if (data.empty()) return Error::zero_count;
    if (data.size() > limits(g).write_max_dwords) return Error::count_too_large;
    // The engine writes whole dwords; dst low 2 bits must be 0 (libdrm's test
    // masks them, the ring tests use dword-aligned writeback addresses).
    if (dst & 3) return Error::misaligned_address;
    // dw3 = ndw - 1 in bits 0-19 (WRITE_UNTILED_DW_3_count), swap 0
    // (sdma_vN_vm_write_pte).
    ib.insert(ib.end(), {header(kOpWrite, kSubWriteLinear), lo(dst), hi(dst),
                         static_cast<uint32_t>(data.size() - 1)});
    ib.insert(ib.end(), data.begin(), data.end());
    return Error::none;
}

Error fence(std::vector<uint32_t> &ib, Generation g, uint64_t addr, uint32_t value) {
    // sdma_vN_ring_emit_fence: BUG_ON(addr & 0x3).
    if (addr & 3) return Error::misaligned_address;
    uint32_t h = header(kOpFence, 0);
    if (g != Generation::v4) h |= kFenceMtypeUc;
    ib.insert(ib.end(), {h, lo(addr), hi(addr), value});
    return Error::none;
}

Error trap(std::vector<uint32_t> &ib, Generation, uint32_t int_context) {
    // SDMA_PKT_TRAP_INT_CONTEXT: bits 0..27.
    if (int_context > 0x0fffffff) return Error::bad_argument;
    ib.insert(ib.end(), {header(kOpTrap, 0), int_context});
    return Error::none;
}

Error nop(std::vector<uint32_t> &ib, Generation, uint32_t dwords) {
    if (dwords == 0) return Error::zero_count;
    // NOP_HEADER_count is 14 bits at bit 16 in all three headers.
    if (dwords - 1 > 0x3fff) return Error::count_too_large;
    ib.push_back(header(kOpNop, 0) | (dwords - 1) << 16);
    ib.insert(ib.end(), dwords - 1, 0u);
    return Error::none;
}

void nop_single(std::vector<uint32_t> &ib, Generation, uint32_t dwords) {
    ib.insert(ib.end(), dwords, header(kOpNop, 0));
}

Error poll_regmem_mem(std::vector<uint32_t> &ib, Generation, uint64_t addr, uint32_t ref,
                      uint32_t mask, uint32_t func, uint32_t interval, uint32_t retry_count) {
    if (func > 7 || interval > 0xffff || retry_count > 0xfff) return Error::bad_argument;
    if (addr & 3) return Error::misaligned_address;
    // header: func bits 28-30, mem_poll bit 31; dw5: interval 0-15, retry 16-27
    // (SDMA_PKT_POLL_REGMEM_* in all three headers). hdp_flush stays 0.
    const uint32_t h = header(kOpPollRegmem, 0) | func << 28 | 1u << 31;
    ib.insert(ib.end(), {h, lo(addr), hi(addr), ref, mask, interval | retry_count << 16});
    return Error::none;
}

Error timestamp(std::vector<uint32_t> &ib, Generation, uint64_t addr) {
    // write_addr_31_3 starts at bit 3: the address must be 8-byte aligned.
    if (addr & 7) return Error::misaligned_address;
    ib.insert(ib.end(), {header(kOpTimestamp, kSubTimestampGetGlobal), lo(addr), hi(addr)});
    return Error::none;
}

void pad(std::vector<uint32_t> &ib, Generation g, uint32_t multiple_dw, bool burst) {
    if (multiple_dw <= 1) return;
    const uint32_t rem = static_cast<uint32_t>(ib.size() % multiple_dw);
    if (rem == 0) return;
    const uint32_t count = multiple_dw - rem;
    // As sdma_vN_ring_pad_ib: one burst NOP covering the pad, or single NOPs.
    if (burst && count - 1 <= 0x3fff) {
        (void)nop(ib, g, count);
    } else {
        nop_single(ib, g, count);
    }
}

} // namespace sdma
