// What a buffer must hold (Buffer::expect), kept as a list of extents rather
// than as bytes. Private to the step interpreter.
//
// An extent says where its bytes come from: a fill pattern from some
// position, one repeated value, or bytes the interpreter wrote (kept,
// immutable and shared, as they were). Full depth fills 64 MiB buffers with
// two patterns thousands of times, copies between them and verifies both.
// As bytes, that was three more passes over 64 MiB per instance: the two
// expectations written at allocation and the copy carried into the
// destination's. As extents, a copy moves a few list entries, and writes and
// verifies read the pattern straight from the workspace's kept copy
// (PatternCache), gathered as pieces (peerCpuWriteSpans, peerCpuEqualSpans).
#pragma once

#include "cases/pattern.hpp"
#include "expected_bytes.hpp"

#include <peer/peer_debug.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace harness::runner::detail {

class PatternCache;

// A range gathered as pieces (peerHostSpan: `size` bytes at `bytes`), the
// form peerCpuWriteSpans and peerCpuEqualSpans take. The pieces point into the pattern cache and
// into `scratch` (for parts made here: short patterns, repeated values): use
// them before the cache is used again.
struct GatheredRange {
    std::vector<peerHostSpan> pieces;
    ExpectedBytes scratch;
};

class ExpectedContents {
  public:
    ExpectedContents() = default;
    explicit ExpectedContents(ExpectationPool *scratch_pool) : pool_(scratch_pool) {}

    size_t size() const { return size_; }
    // `n` bytes, all zero.
    void reset(size_t n);
    // Bytes [at, at + n) become pattern (kind, seed) from position `first`.
    void set_pattern(size_t at, size_t n, cases::PatternKind kind, uint64_t seed, uint64_t first);
    void set_value(size_t at, size_t n, uint8_t value);
    void set_bytes(size_t at, const uint8_t *bytes, size_t n);
    // Bytes [at, at + n) become what `from` holds at [from_at, from_at + n),
    // as memmove would leave them (`from` may be *this, overlapping).
    void copy_from(size_t at, const ExpectedContents &from, size_t from_at, size_t n);

    uint8_t at(size_t i) const;
    // Bytes [at, at + n) written to `out`.
    void read(size_t at, uint8_t *out, size_t n, PatternCache &cache) const;
    // Bytes [at, at + n) as pieces, in order: patterns of PatternCache's
    // kept length come from the cache, written bytes from where they are
    // kept, the rest is made in the scratch.
    GatheredRange gather(size_t at, size_t n, PatternCache &cache) const;
    size_t extent_count() const { return extents_.size(); }

  private:
    enum class Source : uint8_t { pattern, value, bytes };
    struct Extent {
        size_t start = 0, len = 0;
        Source source = Source::value;
        uint8_t value = 0;
        cases::PatternKind kind = cases::PatternKind::lfsr;
        uint64_t seed = 0;
        uint64_t first = 0; // pattern position of the extent's first byte
        std::shared_ptr<const std::vector<uint8_t>> bytes;
        size_t offset = 0; // index in *bytes of the extent's first byte
    };
    // The part [from, from + n) of `e` (inside it), starting at `start`.
    static Extent slice(const Extent &e, size_t from, size_t n, size_t start);
    // Whether `b` continues `a` (same source, next position).
    static bool continues(const Extent &a, const Extent &b);
    // The extents that cover [at, at + n), cut to it, starting at `start`.
    std::vector<Extent> slices(size_t at, size_t n, size_t start) const;
    // Replaces [at, at + total of parts) with `parts` (already placed).
    void replace(size_t at, size_t n, std::vector<Extent> parts);
    size_t index_of(size_t pos) const;              // extent holding byte pos
    void require_inside(size_t at, size_t n) const; // throws std::out_of_range

    std::vector<Extent> extents_; // sorted, covering [0, size_) without gaps
    size_t size_ = 0;
    ExpectationPool *pool_ = nullptr; // for gather()'s scratch
};

} // namespace harness::runner::detail
