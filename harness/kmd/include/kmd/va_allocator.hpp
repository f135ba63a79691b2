// Process-wide GPU virtual address allocator.
//
// One allocator hands out addresses for every device: the same range is free
// in every device's VM (each VM is 48-bit with the same layout), so a pointer
// names one allocation everywhere and a peer's BO can be mapped at exactly
// that address in another VM. libdrm's per-device VA managers are not used
// for these ranges, precisely because they would pick different addresses on
// different devices. Pure bookkeeping, no kernel access; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace kmd {

class VaAllocator {
  public:
    // [base, limit) is what may be handed out; both are rounded to `granule`.
    VaAllocator(uint64_t base, uint64_t limit, uint64_t granule = 4096);

    // First fit; size is rounded up to the granule, alignment (a power of two,
    // at least the granule) applies to the start. nullopt when nothing fits
    // or the arguments are invalid.
    std::optional<uint64_t> allocate(uint64_t size, uint64_t alignment = 0);
    // Returns the range starting at addr; false if no range starts there.
    bool release(uint64_t addr);
    // Size reserved at addr (rounded), or 0.
    uint64_t reserved_size(uint64_t addr) const;
    uint64_t reserved_bytes() const;
    uint64_t base() const { return base_; }
    uint64_t limit() const { return limit_; }

  private:
    uint64_t base_, limit_, granule_;
    mutable std::mutex mu_;
    std::map<uint64_t, uint64_t> free_; // start -> size, coalesced
    std::map<uint64_t, uint64_t> used_; // start -> size
    uint64_t used_bytes_ = 0;
};

} // namespace kmd
