#include "expected_contents.hpp"

#include "pattern_cache.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace harness::runner::detail {

ExpectedContents::Extent ExpectedContents::slice(const Extent &e, size_t from, size_t n,
                                                 size_t start) {
    Extent s = e;
    s.start = start;
    s.len = n;
    const size_t skip = from - e.start;
    if (e.source == Source::pattern) s.first += skip;
    if (e.source == Source::bytes) s.offset += skip;
    return s;
}

bool ExpectedContents::continues(const Extent &a, const Extent &b) {
    if (a.source != b.source || a.start + a.len != b.start) return false;
    switch (a.source) {
    case Source::value:
        return a.value == b.value;
    case Source::pattern:
        return a.kind == b.kind && a.seed == b.seed && a.first + a.len == b.first;
    case Source::bytes:
        return a.bytes == b.bytes && a.offset + a.len == b.offset;
    }
    return false;
}

void ExpectedContents::require_inside(size_t at, size_t n) const {
    // Every caller checks its range against the buffer first; one that did
    // not would read past the list or corrupt it, so it fails loudly instead.
    if (at > size_ || n > size_ - at) throw std::out_of_range("expected contents: range outside");
}

size_t ExpectedContents::index_of(size_t pos) const {
    auto it = std::upper_bound(extents_.begin(), extents_.end(), pos,
                               [](size_t p, const Extent &e) { return p < e.start; });
    return static_cast<size_t>(std::distance(extents_.begin(), it)) - 1;
}

std::vector<ExpectedContents::Extent> ExpectedContents::slices(size_t at, size_t n,
                                                               size_t start) const {
    std::vector<Extent> out;
    require_inside(at, n);
    if (n == 0) return out;
    for (size_t i = index_of(at); i < extents_.size() && n > 0; ++i) {
        const Extent &e = extents_[i];
        const size_t from = std::max(at, e.start);
        const size_t len = std::min(e.start + e.len - from, n);
        out.push_back(slice(e, from, len, start));
        start += len;
        at += len;
        n -= len;
    }
    return out;
}

void ExpectedContents::replace(size_t at, size_t n, std::vector<Extent> parts) {
    require_inside(at, n);
    if (n == 0) return;
    const size_t end = at + n;
    // What survives on either side: the head of the first extent touched,
    // the tail of the last.
    const size_t first = index_of(at), last = index_of(end - 1);
    std::vector<Extent> joined;
    joined.reserve(parts.size() + 2);
    const Extent &f = extents_[first];
    if (f.start < at) joined.push_back(slice(f, f.start, at - f.start, f.start));
    for (Extent &p : parts)
        joined.push_back(std::move(p));
    const Extent &l = extents_[last];
    if (l.start + l.len > end) joined.push_back(slice(l, end, l.start + l.len - end, end));
    // Neighbours that continue each other become one extent, so a list that
    // is copied whole or refilled does not grow.
    std::vector<Extent> merged;
    merged.reserve(joined.size() + 2);
    const size_t lo = first > 0 ? first - 1 : first;
    const size_t hi = last + 1 < extents_.size() ? last + 2 : last + 1;
    if (lo < first) merged.push_back(extents_[lo]);
    for (Extent &e : joined) {
        if (!merged.empty() && continues(merged.back(), e))
            merged.back().len += e.len;
        else
            merged.push_back(std::move(e));
    }
    if (hi > last + 1) {
        if (continues(merged.back(), extents_[last + 1]))
            merged.back().len += extents_[last + 1].len;
        else
            merged.push_back(extents_[last + 1]);
    }
    const auto b = extents_.begin();
    extents_.erase(b + static_cast<std::ptrdiff_t>(lo), b + static_cast<std::ptrdiff_t>(hi));
    extents_.insert(extents_.begin() + static_cast<std::ptrdiff_t>(lo),
                    std::make_move_iterator(merged.begin()), std::make_move_iterator(merged.end()));
}

void ExpectedContents::reset(size_t n) {
    extents_.clear();
    size_ = n;
    if (n == 0) return;
    Extent e;
    e.len = n;
    extents_.push_back(std::move(e));
}

void ExpectedContents::set_pattern(size_t at, size_t n, cases::PatternKind kind, uint64_t seed,
                                   uint64_t first) {
    Extent e;
    e.start = at;
    e.len = n;
    e.source = Source::pattern;
    e.kind = kind;
    e.seed = seed;
    e.first = first;
    replace(at, n, {std::move(e)});
}

void ExpectedContents::set_value(size_t at, size_t n, uint8_t value) {
    Extent e;
    e.start = at;
    e.len = n;
    e.value = value;
    replace(at, n, {std::move(e)});
}

void ExpectedContents::set_bytes(size_t at, const uint8_t *bytes, size_t n) {
    if (n == 0) return;
    Extent e;
    e.start = at;
    e.len = n;
    e.source = Source::bytes;
    e.bytes = std::make_shared<const std::vector<uint8_t>>(bytes, bytes + n);
    replace(at, n, {std::move(e)});
}

void ExpectedContents::copy_from(size_t at, const ExpectedContents &from, size_t from_at,
                                 size_t n) {
    // Taken before anything changes: memmove's answer when from is *this.
    replace(at, n, from.slices(from_at, n, at));
}

uint8_t ExpectedContents::at(size_t i) const {
    if (i >= size_) throw std::out_of_range("expected contents: byte outside");
    const Extent &e = extents_[index_of(i)];
    const size_t k = i - e.start;
    switch (e.source) {
    case Source::value:
        return e.value;
    case Source::pattern:
        return cases::pattern_byte(e.kind, e.seed, e.first + k);
    case Source::bytes:
        return (*e.bytes)[e.offset + k];
    }
    return 0;
}

void ExpectedContents::read(size_t at, uint8_t *out, size_t n, PatternCache &cache) const {
    for (const Extent &e : slices(at, n, 0)) {
        uint8_t *to = out + e.start;
        switch (e.source) {
        case Source::value:
            std::memset(to, e.value, e.len);
            break;
        case Source::pattern:
            cache.fill(e.kind, e.seed, e.first, to, e.len);
            break;
        case Source::bytes:
            std::memcpy(to, e.bytes->data() + e.offset, e.len);
            break;
        }
    }
}

GatheredRange ExpectedContents::gather(size_t at, size_t n, PatternCache &cache) const {
    GatheredRange g{{}, ExpectedBytes(ExpectationAllocator<uint8_t>(pool_))};
    const std::vector<Extent> parts = slices(at, n, 0);
    // First every pattern the cache may keep is made long enough; only then
    // are pointers taken (a later growth could move an earlier one).
    for (const Extent &e : parts)
        if (e.source == Source::pattern) cache.keep(e.kind, e.seed, e.first, e.len);
    std::vector<const uint8_t *> where(parts.size(), nullptr);
    size_t scratch = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        const Extent &e = parts[i];
        if (e.source == Source::pattern) where[i] = cache.kept(e.kind, e.seed, e.first, e.len);
        if (e.source == Source::bytes) where[i] = e.bytes->data() + e.offset;
        if (!where[i]) scratch += e.len;
    }
    g.scratch.resize(scratch);
    size_t used = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        const Extent &e = parts[i];
        if (!where[i]) {
            uint8_t *to = g.scratch.data() + used;
            // Generated directly, not through cache.fill: that could grow or
            // evict a kept pattern another piece already points into.
            if (e.source == Source::value)
                std::memset(to, e.value, e.len);
            else
                cases::fill_pattern(e.kind, e.seed, e.first, to, e.len);
            where[i] = to;
            used += e.len;
        }
        // Parts made here one after the other are one piece.
        const bool adjacent =
            !g.pieces.empty() &&
            static_cast<const uint8_t *>(g.pieces.back().bytes) + g.pieces.back().size == where[i];
        if (adjacent)
            g.pieces.back().size += e.len;
        else
            g.pieces.push_back({where[i], e.len});
    }
    return g;
}

} // namespace harness::runner::detail
