// Data patterns for buffers: seeded, position-dependent and never zero, so a
// copy that lands shifted, short, twice, or not at all, or a buffer left at
// zero, always differs from what was expected. Pure functions of
// (kind, seed, absolute position): any byte can be recomputed on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace harness::cases {

enum class PatternKind { lfsr, index };

// nullopt-free: unknown names map to lfsr; the loader has already checked them.
PatternKind pattern_kind(const std::string &name);

uint8_t pattern_byte(PatternKind kind, uint64_t seed, uint64_t position);

// Fills out[0, n) with the bytes at positions [first, first + n).
void fill_pattern(PatternKind kind, uint64_t seed, uint64_t first, uint8_t *out, size_t n);

} // namespace harness::cases
