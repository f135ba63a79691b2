// Which allocation a device pointer belongs to. Pure bookkeeping keyed by
// base address, so interior pointers resolve with one ordered lookup; the
// payload is generic so the table can be tested without a kernel.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <vector>

namespace peer {

template <class T> class AllocTable {
  public:
    struct Entry {
        uint64_t base = 0;
        uint64_t size = 0; // bytes asked for; [base, base + size) is the allocation
        int owner = -1;
        std::shared_ptr<T> data;
    };

    // False when the range would overlap a live entry (a VA allocator bug).
    bool insert(Entry e) {
        if (e.size == 0) return false;
        auto next = map_.lower_bound(e.base);
        if (next != map_.end() && next->first < e.base + e.size) return false;
        if (next != map_.begin()) {
            auto prev = std::prev(next);
            if (prev->second.base + prev->second.size > e.base) return false;
        }
        map_.emplace(e.base, std::move(e));
        return true;
    }
    // Entry whose [base, base + size) contains p, or nullptr.
    const Entry *find(uint64_t p) const {
        auto it = map_.upper_bound(p);
        if (it == map_.begin()) return nullptr;
        --it;
        return p - it->second.base < it->second.size ? &it->second : nullptr;
    }
    // Entry containing the whole range [p, p + n) (n >= 1), or nullptr.
    const Entry *find_range(uint64_t p, uint64_t n) const {
        const Entry *e = find(p);
        if (!e || n == 0) return e;
        if (n - 1 > e->base + e->size - 1 - p) return nullptr; // no overflow on p + n
        return e;
    }
    const Entry *find_base(uint64_t base) const {
        auto it = map_.find(base);
        return it == map_.end() ? nullptr : &it->second;
    }
    bool erase(uint64_t base) { return map_.erase(base) == 1; }
    std::vector<Entry> owned_by(int owner) const {
        std::vector<Entry> out;
        for (const auto &[b, e] : map_)
            if (e.owner == owner) out.push_back(e);
        return out;
    }
    std::vector<Entry> all() const {
        std::vector<Entry> out;
        for (const auto &[b, e] : map_)
            out.push_back(e);
        return out;
    }
    size_t size() const { return map_.size(); }

  private:
    std::map<uint64_t, Entry> map_;
};

} // namespace peer
