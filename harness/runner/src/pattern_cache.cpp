#include "pattern_cache.hpp"

#include <algorithm>
#include <cstring>

namespace harness::runner::detail {

size_t PatternCache::kept_bytes() const {
    size_t total = 0;
    for (const Entry &e : entries_)
        total += e.bytes.size();
    return total;
}

PatternCache::Entry &PatternCache::entry_for(cases::PatternKind kind, uint64_t seed,
                                             size_t needed) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry &e) { return e.kind == kind && e.seed == seed; });
    if (it == entries_.end()) {
        entries_.push_back({kind, seed, {}, 0});
        it = entries_.end() - 1;
    }
    if (it->bytes.size() < needed) {
        // Grown in whole huge pages, the new tail generated once.
        const size_t had = it->bytes.size(), len = huge_round(needed);
        it->bytes.resize(len);
        cases::fill_pattern(kind, seed, had, it->bytes.data() + had, len - had);
    }
    it->last_use = ++clock_;
    // Over budget: drop the least recently used others (the one in hand
    // stays, and fits: fill() only asks for needed <= kBudget).
    size_t keep = static_cast<size_t>(it - entries_.begin());
    for (size_t total = kept_bytes(); total > kBudget && entries_.size() > 1;) {
        size_t victim = keep == 0 ? 1 : 0;
        for (size_t i = 0; i < entries_.size(); ++i)
            if (i != keep && entries_[i].last_use < entries_[victim].last_use) victim = i;
        total -= entries_[victim].bytes.size();
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(victim));
        if (victim < keep) --keep;
    }
    return entries_[keep];
}

void PatternCache::fill(cases::PatternKind kind, uint64_t seed, uint64_t first, uint8_t *out,
                        size_t n) {
    if (!worth_keeping(first, n)) {
        cases::fill_pattern(kind, seed, first, out, n);
        return;
    }
    const Entry &e = entry_for(kind, seed, static_cast<size_t>(first) + n);
    std::memcpy(out, e.bytes.data() + first, n);
}

void PatternCache::keep(cases::PatternKind kind, uint64_t seed, uint64_t first, size_t n) {
    if (worth_keeping(first, n)) entry_for(kind, seed, static_cast<size_t>(first) + n);
}

const uint8_t *PatternCache::kept(cases::PatternKind kind, uint64_t seed, uint64_t first,
                                  size_t n) const {
    for (const Entry &e : entries_)
        if (e.kind == kind && e.seed == seed && first <= e.bytes.size() &&
            n <= e.bytes.size() - first)
            return e.bytes.data() + first;
    return nullptr;
}

} // namespace harness::runner::detail
