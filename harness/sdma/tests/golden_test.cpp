// Golden dwords for every packet and generation. Expected values are written
// out literally from fixtures/amdgpu-sim/KERNEL-MODEL.md §3 and the kernel headers, never
// computed with the encoder's own helpers, so a wrong shift shows up here.
#include "sdma/packets.hpp"

#include <catch2/catch.hpp>

#include <vector>

using sdma::Error;
using sdma::Generation;
using V = std::vector<uint32_t>;

namespace {
constexpr uint64_t kSrc = 0x0000123456789ab0ull;
constexpr uint64_t kDst = 0x00007fff00001004ull;
constexpr uint64_t k4Mi = 4ull << 20;

const Generation kAll[] = {Generation::v4, Generation::v5, Generation::v6, Generation::v7};

V copy_packet(Generation g, uint32_t count_field, uint64_t src, uint64_t dst) {
    // v7: header CPV (bit 19) and a trailing DCC dword of 0 (sdma_v7_0_emit_copy_buffer).
    if (g == Generation::v7)
        return {0x00080001u,
                count_field,
                0u,
                static_cast<uint32_t>(src),
                static_cast<uint32_t>(src >> 32),
                static_cast<uint32_t>(dst),
                static_cast<uint32_t>(dst >> 32),
                0u};
    return {0x00000001u,
            count_field,
            0u,
            static_cast<uint32_t>(src),
            static_cast<uint32_t>(src >> 32),
            static_cast<uint32_t>(dst),
            static_cast<uint32_t>(dst >> 32)};
}
} // namespace

TEST_CASE("generation_for_ip maps SDMA IP majors 4..7 and refuses others", "[sdma]") {
    CHECK(sdma::generation_for_ip(4) == Generation::v4);
    CHECK(sdma::generation_for_ip(5) == Generation::v5);
    CHECK(sdma::generation_for_ip(6) == Generation::v6);
    CHECK(sdma::generation_for_ip(7) == Generation::v7);
    CHECK_FALSE(sdma::generation_for_ip(3).has_value());
    CHECK_FALSE(sdma::generation_for_ip(8).has_value());
}

TEST_CASE("limits per generation match copy/fill_max_bytes and num_dw", "[sdma]") {
    for (Generation g : kAll) {
        CAPTURE(static_cast<int>(g));
        CHECK(sdma::limits(g).copy_max_bytes == 0x400000u);
        CHECK(sdma::limits(g).fill_max_bytes == 0x400000u);
        CHECK(sdma::limits(g).fill_num_dw == 5u);
    }
    CHECK(sdma::limits(Generation::v4).copy_num_dw == 7u);
    CHECK(sdma::limits(Generation::v6).copy_num_dw == 7u);
    CHECK(sdma::limits(Generation::v7).copy_num_dw == 8u);
    CHECK(sdma::limits(Generation::v5).count_field_bits == 22u);
    CHECK(sdma::limits(Generation::v6).count_field_bits == 30u);
}

TEST_CASE("default copy packet: Mesa's 0x3fff00 below SDMA 5.2, the kernel's 4 MiB from 5.2",
          "[sdma]") {
    CHECK(sdma::default_copy_packet_bytes(4, 4) == 0x3fff00);
    CHECK(sdma::default_copy_packet_bytes(5, 0) == 0x3fff00);
    CHECK(sdma::default_copy_packet_bytes(5, 2) == 0x400000);
    CHECK(sdma::default_copy_packet_bytes(6, 0) == 0x400000);
    CHECK(sdma::default_copy_packet_bytes(7, 0) == 0x400000);
    CHECK(sdma::default_copy_packet_bytes(3, 0) == 0);
}

TEST_CASE("COPY_LINEAR golden dwords at counts 1, 4Mi-1, 4Mi", "[sdma][copy]") {
    for (Generation g : kAll) {
        CAPTURE(static_cast<int>(g));
        V ib;
        REQUIRE(sdma::copy_linear(ib, g, kSrc, kDst, 1) == Error::none);
        CHECK(ib == copy_packet(g, 0x0, kSrc, kDst));
        ib.clear();
        REQUIRE(sdma::copy_linear(ib, g, kSrc, kDst, k4Mi - 1) == Error::none);
        CHECK(ib == copy_packet(g, 0x3ffffe, kSrc, kDst));
        ib.clear();
        REQUIRE(sdma::copy_linear(ib, g, kSrc, kDst, k4Mi) == Error::none);
        CHECK(ib == copy_packet(g, 0x3fffff, kSrc, kDst));
    }
}

TEST_CASE("COPY_LINEAR refuses 0 and 4Mi+1 bytes and leaves the IB alone", "[sdma][copy]") {
    for (Generation g : kAll) {
        V ib{0xdeadbeef};
        CHECK(sdma::copy_linear(ib, g, kSrc, kDst, 0) == Error::zero_count);
        CHECK(sdma::copy_linear(ib, g, kSrc, kDst, k4Mi + 1) == Error::count_too_large);
        CHECK(ib == V{0xdeadbeef});
    }
}

TEST_CASE("COPY_LINEAR split at 4Mi+1 gives 4Mi then 1 byte", "[sdma][copy]") {
    for (Generation g : kAll) {
        CAPTURE(static_cast<int>(g));
        V ib;
        REQUIRE(sdma::copy_linear_split(ib, g, kSrc, kDst, k4Mi + 1) == Error::none);
        V want = copy_packet(g, 0x3fffff, kSrc, kDst);
        V second = copy_packet(g, 0x0, kSrc + k4Mi, kDst + k4Mi);
        want.insert(want.end(), second.begin(), second.end());
        CHECK(ib == want);
        CHECK(sdma::copy_linear_split_dwords(g, k4Mi + 1) == want.size());
    }
}

TEST_CASE("COPY_LINEAR split sizes and carries across the 32-bit boundary", "[sdma][copy]") {
    V ib;
    // 0 bytes emit nothing; exactly 4Mi is one packet; 8Mi+3 is three.
    REQUIRE(sdma::copy_linear_split(ib, Generation::v5, kSrc, kDst, 0) == Error::none);
    CHECK(ib.empty());
    REQUIRE(sdma::copy_linear_split(ib, Generation::v5, kSrc, kDst, k4Mi) == Error::none);
    CHECK(ib.size() == 7u);
    ib.clear();
    REQUIRE(sdma::copy_linear_split(ib, Generation::v5, 0xfffff000u, 0x1ffffff00u, 2 * k4Mi + 3) ==
            Error::none);
    REQUIRE(ib.size() == 21u);
    // Second packet: src 0xfffff000 + 4Mi = 0x1003ff000 -> lo 0x003ff000, hi 1.
    CHECK(ib[7 + 3] == 0x003ff000u);
    CHECK(ib[7 + 4] == 0x1u);
    CHECK(ib[7 + 5] == 0x003fff00u);
    CHECK(ib[7 + 6] == 0x2u);
    CHECK(ib[14 + 1] == 0x2u); // 3 bytes -> count 2
    // A caller-chosen smaller chunk (Mesa's 0x3fff00) splits earlier.
    ib.clear();
    REQUIRE(sdma::copy_linear_split(ib, Generation::v4, 0, 0x1000, k4Mi, 0x3fff00) == Error::none);
    REQUIRE(ib.size() == 14u);
    CHECK(ib[1] == 0x3ffeffu);
    CHECK(ib[8] == 0xffu); // 0x100 bytes left
    CHECK(sdma::copy_linear_split(ib, Generation::v4, 0, 0, 1, k4Mi + 1) == Error::count_too_large);
}

TEST_CASE("CONSTANT_FILL golden dwords", "[sdma][fill]") {
    for (Generation g : kAll) {
        CAPTURE(static_cast<int>(g));
        V ib;
        REQUIRE(sdma::constant_fill(ib, g, kDst, 0xdeadbeaf, 1) == Error::none);
        CHECK(ib == V{0x0000000b, 0x00001004, 0x00007fff, 0xdeadbeaf, 0x0});
        ib.clear();
        REQUIRE(sdma::constant_fill(ib, g, kDst, 0x01010101, k4Mi - 1) == Error::none);
        CHECK(ib == V{0x0000000b, 0x00001004, 0x00007fff, 0x01010101, 0x3ffffe});
        ib.clear();
        // libdrm's const-fill test: fillsize 2 (dword) at bit 30.
        REQUIRE(sdma::constant_fill(ib, g, kDst, 0xdeadbeaf, k4Mi, sdma::FillSize::dword) ==
                Error::none);
        CHECK(ib == V{0x8000000b, 0x00001004, 0x00007fff, 0xdeadbeaf, 0x3fffff});
        ib.clear();
        CHECK(sdma::constant_fill(ib, g, kDst, 0, k4Mi + 1) == Error::count_too_large);
        CHECK(sdma::constant_fill(ib, g, kDst, 0, 0) == Error::zero_count);
        CHECK(ib.empty());
        REQUIRE(sdma::constant_fill_split(ib, g, kDst, 7, k4Mi + 1) == Error::none);
        CHECK(ib == V{0x0000000b, 0x00001004, 0x00007fff, 7, 0x3fffff, 0x0000000b, 0x00401004,
                      0x00007fff, 7, 0x0});
    }
}

TEST_CASE("WRITE_LINEAR golden dwords and limits", "[sdma][write]") {
    for (Generation g : kAll) {
        V ib;
        const uint32_t data[] = {0x11111111, 0x22222222, 0x33333333};
        REQUIRE(sdma::write_linear(ib, g, 0x100000040ull, data) == Error::none);
        CHECK(ib == V{0x00000002, 0x00000040, 0x1, 0x2, 0x11111111, 0x22222222, 0x33333333});
        ib.clear();
        CHECK(sdma::write_linear(ib, g, 0x41, data) == Error::misaligned_address);
        CHECK(sdma::write_linear(ib, g, 0x40, std::span<const uint32_t>{}) == Error::zero_count);
        std::vector<uint32_t> big((1u << 20) + 1, 0);
        CHECK(sdma::write_linear(ib, g, 0x40, big) == Error::count_too_large);
        big.pop_back();
        REQUIRE(sdma::write_linear(ib, g, 0x40, big) == Error::none);
        CHECK(ib[3] == 0xfffffu);
    }
}

TEST_CASE("FENCE golden dwords: v4 plain, v5+ mtype UC", "[sdma][fence]") {
    V ib;
    REQUIRE(sdma::fence(ib, Generation::v4, 0x200000010ull, 42) == Error::none);
    CHECK(ib == V{0x00000005, 0x00000010, 0x2, 42});
    for (Generation g : {Generation::v5, Generation::v6, Generation::v7}) {
        ib.clear();
        REQUIRE(sdma::fence(ib, g, 0x200000010ull, 42) == Error::none);
        CHECK(ib == V{0x00030005, 0x00000010, 0x2, 42});
        CHECK(sdma::fence(ib, g, 0x200000012ull, 1) == Error::misaligned_address);
        CHECK(ib.size() == 4u);
    }
}

TEST_CASE("TRAP golden dwords: opcode 6 and a 28-bit context", "[sdma][trap]") {
    for (Generation g : kAll) {
        V ib;
        REQUIRE(sdma::trap(ib, g, 0x0abcdef) == Error::none);
        CHECK(ib == V{0x00000006, 0x0abcdef});
        CHECK(sdma::trap(ib, g, 0x10000000) == Error::bad_argument);
        CHECK(ib.size() == 2u);
    }
}

TEST_CASE("NOP: burst count and single NOPs", "[sdma][nop]") {
    for (Generation g : kAll) {
        V ib;
        REQUIRE(sdma::nop(ib, g, 1) == Error::none);
        CHECK(ib == V{0x00000000});
        ib.clear();
        REQUIRE(sdma::nop(ib, g, 4) == Error::none);
        CHECK(ib == V{0x00030000, 0, 0, 0});
        ib.clear();
        CHECK(sdma::nop(ib, g, 0) == Error::zero_count);
        CHECK(sdma::nop(ib, g, 0x4001) == Error::count_too_large);
        sdma::nop_single(ib, g, 3);
        CHECK(ib == V{0, 0, 0});
    }
}

TEST_CASE("pad to 8 dwords as sdma_vN_ring_pad_ib", "[sdma][nop]") {
    V ib(7 * 1, 0x1);
    sdma::pad(ib, Generation::v5, 8);
    CHECK(ib.size() == 8u);
    CHECK(ib[7] == 0x00000000u); // pad_count 1 -> COUNT 0
    V ib2(3, 0x1);
    sdma::pad(ib2, Generation::v4, 8);
    CHECK(ib2 == V{1, 1, 1, 0x00040000, 0, 0, 0, 0});
    V ib3(3, 0x1);
    sdma::pad(ib3, Generation::v4, 8, false);
    CHECK(ib3 == V{1, 1, 1, 0, 0, 0, 0, 0});
    V ib4(8, 0x1);
    sdma::pad(ib4, Generation::v6, 8);
    CHECK(ib4.size() == 8u);
}

TEST_CASE("POLL_REGMEM golden dwords (memory, equal)", "[sdma][poll]") {
    for (Generation g : kAll) {
        V ib;
        REQUIRE(sdma::poll_regmem_mem(ib, g, 0x300000008ull, 0xcafe, 0xffffffff) == Error::none);
        CHECK(ib == V{0xb0000008, 0x00000008, 0x3, 0xcafe, 0xffffffff, 0x0fff000a});
        ib.clear();
        CHECK(sdma::poll_regmem_mem(ib, g, 0x8, 0, 0, 8) == Error::bad_argument);
        CHECK(sdma::poll_regmem_mem(ib, g, 0x8, 0, 0, 3, 0x10000) == Error::bad_argument);
        CHECK(sdma::poll_regmem_mem(ib, g, 0x9, 0, 0) == Error::misaligned_address);
        CHECK(ib.empty());
    }
}

TEST_CASE("TIMESTAMP_GET_GLOBAL golden dwords", "[sdma][timestamp]") {
    for (Generation g : kAll) {
        V ib;
        REQUIRE(sdma::timestamp(ib, g, 0x400000018ull) == Error::none);
        CHECK(ib == V{0x0000020d, 0x00000018, 0x4});
        CHECK(sdma::timestamp(ib, g, 0x400000014ull) == Error::misaligned_address);
        CHECK(ib.size() == 3u);
    }
}

TEST_CASE("error names are distinct and stable", "[sdma]") {
    CHECK(std::string(sdma::error_name(Error::count_too_large)) == "count_too_large");
    CHECK(std::string(sdma::error_name(Error::misaligned_address)) == "misaligned_address");
}
