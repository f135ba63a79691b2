// SDMA packet encoders for the generations the harness drives (v4, v5, v6, v7).
//
// Pure functions: they append dwords to a vector and touch nothing else, so
// golden tests can pin every dword. Field positions are taken from the
// kernel's vega10_sdma_pkt_open.h (v4), navi10_sdma_pkt_open.h (v5) and
// sdma_v6_0_0_pkt_open.h (v6, and v7, whose sdma_v7_0.c includes the same
// header), and the packets match what sdma_vN_*.c emits
// (fixtures/amdgpu-sim/KERNEL-MODEL.md §3). Counts are N-1 on every generation here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace sdma {

enum class Generation { v4 = 4, v5 = 5, v6 = 6, v7 = 7 };

// The generation whose packet format an SDMA IP version speaks, picked the way
// amdgpu_discovery_set_sdma_ip_blocks() picks sdma_vN_*.c by major version.
// Majors below 4 (count = N encodings, SI/CIK/VI) and above 7 are not handled.
std::optional<Generation> generation_for_ip(uint32_t major);

struct Limits {
    uint64_t copy_max_bytes;   // amdgpu_buffer_funcs.copy_max_bytes
    uint64_t fill_max_bytes;   // amdgpu_buffer_funcs.fill_max_bytes
    uint32_t copy_num_dw;      // dwords of one COPY_LINEAR packet
    uint32_t fill_num_dw;      // dwords of one CONSTANT_FILL packet
    uint32_t write_max_dwords; // WRITE_LINEAR count field is 20 bits
    uint32_t count_field_bits; // width of the COPY/FILL count field
};
Limits limits(Generation g);

// The bytes a copy puts in one COPY_LINEAR packet by default on SDMA IP
// major.minor: the kernel's copy_max_bytes from 5.2 on; below 5.2, 256 bytes
// less (Mesa's SDMA_V2_0_COPY_MAX_BYTES, 0x3fff00: what user space stays
// under on that hardware). 0 for an IP version generation_for_ip refuses.
uint64_t default_copy_packet_bytes(uint32_t ip_major, uint32_t ip_minor);

// Why an encoder refused: errors are values, the IB is left unchanged.
enum class Error {
    none = 0,
    zero_count,         // a packet must move at least one byte/dword
    count_too_large,    // above the per-packet maximum
    misaligned_address, // FENCE needs 4-byte, TIMESTAMP 8-byte alignment
    bad_argument,       // a field value outside its bit width
};
const char *error_name(Error e);

// CONSTANT_FILL element size (header bits 30-31). The kernel uses byte (0).
enum class FillSize : uint32_t { byte = 0, dword = 2 };

// One COPY_LINEAR packet of 1..copy_max_bytes bytes.
[[nodiscard]] Error copy_linear(std::vector<uint32_t> &ib, Generation g, uint64_t src, uint64_t dst,
                                uint64_t bytes);
// As many COPY_LINEAR packets as needed, each at most `max_per_packet` bytes
// (0 = the generation's copy_max_bytes; a smaller value is how a caller stays
// clear of a hardware limit below the kernel's). bytes == 0 emits nothing.
[[nodiscard]] Error copy_linear_split(std::vector<uint32_t> &ib, Generation g, uint64_t src,
                                      uint64_t dst, uint64_t bytes, uint64_t max_per_packet = 0);
// Dwords copy_linear_split would append.
uint64_t copy_linear_split_dwords(Generation g, uint64_t bytes, uint64_t max_per_packet = 0);

// One CONSTANT_FILL packet of 1..fill_max_bytes bytes.
[[nodiscard]] Error constant_fill(std::vector<uint32_t> &ib, Generation g, uint64_t dst,
                                  uint32_t data, uint64_t bytes, FillSize size = FillSize::byte);
[[nodiscard]] Error constant_fill_split(std::vector<uint32_t> &ib, Generation g, uint64_t dst,
                                        uint32_t data, uint64_t bytes,
                                        FillSize size = FillSize::byte);

// WRITE_LINEAR (WRITE_UNTILED) of 1..2^20 dwords of inline data.
[[nodiscard]] Error write_linear(std::vector<uint32_t> &ib, Generation g, uint64_t dst,
                                 std::span<const uint32_t> data);

// FENCE: write a 32-bit value to a 4-byte aligned address (v5+: mtype UC,
// as sdma_v5_*_ring_emit_fence does).
[[nodiscard]] Error fence(std::vector<uint32_t> &ib, Generation g, uint64_t addr, uint32_t value);

// TRAP: raise the engine's interrupt with a 28-bit context (the KFD event
// id a user queue's waiter sleeps on; sdma_vN_ring_emit_fence writes it with
// context 0). Two dwords on every generation.
[[nodiscard]] Error trap(std::vector<uint32_t> &ib, Generation g, uint32_t int_context);

// NOP of `dwords` total dwords (>= 1) as one burst NOP: header COUNT =
// dwords-1 following dwords to skip (the engine needs firmware feature
// version >= 20 for burst NOP; see nop_single for older firmware).
[[nodiscard]] Error nop(std::vector<uint32_t> &ib, Generation g, uint32_t dwords);
// `dwords` single-dword NOPs.
void nop_single(std::vector<uint32_t> &ib, Generation g, uint32_t dwords);

// POLL_REGMEM on memory: wait until (*addr & mask) func ref. func 3 = equal.
[[nodiscard]] Error poll_regmem_mem(std::vector<uint32_t> &ib, Generation g, uint64_t addr,
                                    uint32_t ref, uint32_t mask, uint32_t func = 3,
                                    uint32_t interval = 10, uint32_t retry_count = 0xfff);

// TIMESTAMP_GET_GLOBAL: 64-bit GPU timestamp to an 8-byte aligned address.
[[nodiscard]] Error timestamp(std::vector<uint32_t> &ib, Generation g, uint64_t addr);

// Pads `ib` with NOPs to a multiple of `multiple_dw` dwords, as
// sdma_vN_ring_pad_ib does (burst NOP first when `burst`).
void pad(std::vector<uint32_t> &ib, Generation g, uint32_t multiple_dw, bool burst = true);

} // namespace sdma
