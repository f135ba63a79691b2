#include "kmd/va_allocator.hpp"

namespace kmd {
namespace {
uint64_t align_up(uint64_t v, uint64_t a) {
    return (v + a - 1) & ~(a - 1);
}
bool is_pow2(uint64_t v) {
    return v && !(v & (v - 1));
}
} // namespace

VaAllocator::VaAllocator(uint64_t base, uint64_t limit, uint64_t granule)
    : base_(align_up(base, granule)), limit_(limit & ~(granule - 1)), granule_(granule) {
    if (limit_ > base_) free_[base_] = limit_ - base_;
}

std::optional<uint64_t> VaAllocator::allocate(uint64_t size, uint64_t alignment) {
    if (size == 0 || size > limit_ - base_) return std::nullopt;
    if (alignment < granule_) alignment = granule_;
    if (!is_pow2(alignment)) return std::nullopt;
    size = align_up(size, granule_);
    std::lock_guard lock(mu_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        const uint64_t start = it->first, len = it->second;
        const uint64_t at = align_up(start, alignment);
        if (at < start || at - start >= len || len - (at - start) < size) continue;
        // Split the hole into [start, at) and [at + size, start + len).
        free_.erase(it);
        if (at > start) free_[start] = at - start;
        if (start + len > at + size) free_[at + size] = start + len - (at + size);
        used_[at] = size;
        used_bytes_ += size;
        return at;
    }
    return std::nullopt;
}

bool VaAllocator::release(uint64_t addr) {
    std::lock_guard lock(mu_);
    auto u = used_.find(addr);
    if (u == used_.end()) return false;
    uint64_t start = addr, len = u->second;
    used_bytes_ -= len;
    used_.erase(u);
    // Coalesce with the neighbouring holes so large ranges come back.
    auto next = free_.lower_bound(start);
    if (next != free_.end() && next->first == start + len) {
        len += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == start) {
            start = prev->first;
            len += prev->second;
            free_.erase(prev);
        }
    }
    free_[start] = len;
    return true;
}

uint64_t VaAllocator::reserved_size(uint64_t addr) const {
    std::lock_guard lock(mu_);
    auto u = used_.find(addr);
    return u == used_.end() ? 0 : u->second;
}

uint64_t VaAllocator::reserved_bytes() const {
    std::lock_guard lock(mu_);
    return used_bytes_;
}

} // namespace kmd
