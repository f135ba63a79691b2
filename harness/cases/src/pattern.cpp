#include "cases/pattern.hpp"

#include <bit>
#include <cstring>

namespace harness::cases {

namespace {

// splitmix64: a fast, well-mixed hash, so each 8-byte word of the pattern is
// independent of its neighbours and of other seeds.
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint8_t nonzero(uint8_t b, uint64_t position) {
    // Zero is what fresh or cleared memory holds; never expect it.
    return b != 0 ? b : static_cast<uint8_t>(1 + position % 255);
}

} // namespace

PatternKind pattern_kind(const std::string &name) {
    return name == "index" ? PatternKind::index : PatternKind::lfsr;
}

uint8_t pattern_byte(PatternKind kind, uint64_t seed, uint64_t position) {
    if (kind == PatternKind::index) return static_cast<uint8_t>((position * 7 + seed) % 251 + 1);
    uint64_t word = mix(mix(seed) ^ (position >> 3));
    return nonzero(static_cast<uint8_t>(word >> ((position & 7) * 8)), position);
}

void fill_pattern(PatternKind kind, uint64_t seed, uint64_t first, uint8_t *out, size_t n) {
    if (kind == PatternKind::index) {
        for (size_t i = 0; i < n; ++i)
            out[i] = pattern_byte(kind, seed, first + i);
        return;
    }
    // One hash per 8 bytes. Full-depth runs fill and verify thousands of
    // 64 MiB buffers, so whole words are stored at once: byte k of a word is
    // bits 8k..8k+7, which is the word's little-endian layout, and only the
    // rare word holding a zero byte (about 1 in 32) takes the bytewise path.
    const uint64_t s = mix(seed);
    size_t i = 0;
    auto bytewise = [&](uint64_t word, uint64_t pos) {
        for (uint64_t k = pos & 7; k < 8 && i < n; ++k, ++i)
            out[i] = nonzero(static_cast<uint8_t>(word >> (k * 8)), first + i);
    };
    while (i < n) {
        const uint64_t pos = first + i;
        const uint64_t word = mix(s ^ (pos >> 3));
        const bool whole = (pos & 7) == 0 && n - i >= 8;
        const bool has_zero_byte =
            ((word - 0x0101010101010101ull) & ~word & 0x8080808080808080ull) != 0;
        if constexpr (std::endian::native == std::endian::little) {
            if (whole && !has_zero_byte) {
                std::memcpy(out + i, &word, 8);
                i += 8;
                continue;
            }
        }
        bytewise(word, pos);
    }
}

} // namespace harness::cases
