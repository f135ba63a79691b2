// Generated fill patterns kept between the instances one process runs.
// Private to the step interpreter (through Workspace).
//
// Full depth fills the same two 64 MiB patterns (seeds 11 and 22 of
// memcpy-peer/copy) into fresh expectations thousands of times. Generating
// one hashes every 8 bytes; copying it from a kept copy is a plain memcpy,
// several times faster. The bytes are the same either way: a pattern byte
// depends only on (kind, seed, position) (cases/pattern.hpp).
#pragma once

#include "cases/pattern.hpp"
#include "expected_bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harness::runner::detail {

class PatternCache {
  public:
    // Shorter fills are generated in place: a kept copy would not pay.
    static constexpr size_t kMinCached = size_t{1} << 20;
    // Patterns kept at once, in bytes; the least recently used goes first.
    static constexpr size_t kBudget = size_t{256} << 20;

    // Writes bytes [first, first + n) of pattern (kind, seed) to `out`,
    // exactly what cases::fill_pattern writes.
    void fill(cases::PatternKind kind, uint64_t seed, uint64_t first, uint8_t *out, size_t n);
    // Bytes [first, first + n) of the pattern kept for kept() to return, when
    // a kept copy pays for them (n >= kMinCached, within the budget).
    void keep(cases::PatternKind kind, uint64_t seed, uint64_t first, size_t n);
    // Those bytes in the kept copy, or nullptr when it does not hold them.
    // Valid until the next fill() or keep().
    const uint8_t *kept(cases::PatternKind kind, uint64_t seed, uint64_t first, size_t n) const;
    size_t kept_bytes() const;

  private:
    static bool worth_keeping(uint64_t first, size_t n) {
        return n >= kMinCached && first <= kBudget && n <= kBudget - first;
    }
    struct Entry {
        cases::PatternKind kind;
        uint64_t seed;
        ExpectedBytes bytes; // positions [0, bytes.size())
        uint64_t last_use;
    };
    Entry &entry_for(cases::PatternKind kind, uint64_t seed, size_t needed);
    std::vector<Entry> entries_;
    uint64_t clock_ = 0;
};

} // namespace harness::runner::detail
