// Large byte buffers of the step interpreter: the kept fill patterns
// (PatternCache), the parts of expected contents gathered for a write or a
// verify (ExpectedContents::gather), and verify's read-back. Private to the
// step interpreter. A buffer's expected contents are extents, not such a
// buffer (expected_contents.hpp).
//
// Full depth makes tens of thousands of 64 MiB buffers, so two things
// matter: resize() leaves new bytes uninitialised (every user fills its
// whole range itself; value-initialising first was one more pass over
// 64 MiB), and large buffers live in transparent huge pages. Every fresh
// 4 KiB page costs a fault, and on virtualised CI hosts with shadow page
// tables a fault costs about 18 µs: first touch of 64 MiB measured 250-300 ms
// in 4 KiB pages and 6 ms in 2 MiB pages on the stop-21 host. Where THP is
// off (`never`) the advice is ignored and nothing changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace harness::runner::detail {

// Expectations of at least this size are mapped 2 MiB-aligned and advised
// MADV_HUGEPAGE; smaller ones, and all of them under ASan, come from
// operator new.
inline constexpr size_t kHugeExpectation = size_t{2} << 20;

// Under AddressSanitizer every expectation comes from operator new, so an
// overrun of a large one still hits a redzone (mmap'd memory has none), and
// the pool keeps nothing.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kHugeMappings = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kHugeMappings = false;
#else
inline constexpr bool kHugeMappings = true;
#endif
#else
inline constexpr bool kHugeMappings = true;
#endif

// `bytes` rounded up to whole huge pages (kHugeExpectation).
inline size_t huge_round(size_t bytes) {
    return (bytes + kHugeExpectation - 1) & ~(kHugeExpectation - 1);
}

void *expectation_allocate(size_t bytes); // throws std::bad_alloc
void expectation_deallocate(void *p, size_t bytes) noexcept;

// Large expectations a process has freed, kept mapped for its next instance.
// A batch child runs dozens of instances of the same sizes one after the
// other; each new 64 MiB expectation cost a fresh mapping whose 32 huge pages
// the kernel zeroes on first touch, and the bytes are overwritten anyway.
// Ranges are reused only for the same rounded size; at most kPoolBudget
// bytes are kept (oldest unmapped first). Under ASan nothing is kept (every
// expectation comes from operator new, see expected_bytes.cpp). One thread:
// the step interpreter allocates from the thread that runs the instance.
class ExpectationPool {
  public:
    static constexpr size_t kPoolBudget = size_t{512} << 20;
    ExpectationPool() = default;
    ~ExpectationPool();
    ExpectationPool(const ExpectationPool &) = delete;
    ExpectationPool &operator=(const ExpectationPool &) = delete;

    void *allocate(size_t bytes); // throws std::bad_alloc
    void deallocate(void *p, size_t bytes) noexcept;
    size_t kept_bytes() const { return kept_; }

  private:
    struct Range {
        void *p;
        size_t len;
    };
    std::vector<Range> free_; // oldest first
    size_t kept_ = 0;
};

// Allocates from `pool` when it has one (the instance's workspace), else
// straight from expectation_allocate.
template <class T> struct ExpectationAllocator {
    using value_type = T;
    // Buffers move between maps and vectors with their pool.
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    ExpectationPool *pool = nullptr;
    ExpectationAllocator() = default;
    explicit ExpectationAllocator(ExpectationPool *p) noexcept : pool(p) {}
    template <class U>
    ExpectationAllocator(const ExpectationAllocator<U> &o) noexcept : pool(o.pool) {}
    T *allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        return static_cast<T *>(pool ? pool->allocate(bytes) : expectation_allocate(bytes));
    }
    void deallocate(T *p, size_t n) noexcept {
        const size_t bytes = n * sizeof(T);
        if (pool)
            pool->deallocate(p, bytes);
        else
            expectation_deallocate(p, bytes);
    }
    // Default-initialise (leave bytes as they are) instead of zeroing.
    template <class U> void construct(U *p) { ::new (static_cast<void *>(p)) U; }
    template <class U, class... A> void construct(U *p, A &&...a) {
        ::new (static_cast<void *>(p)) U(std::forward<A>(a)...);
    }
    template <class U> bool operator==(const ExpectationAllocator<U> &o) const noexcept {
        return pool == o.pool;
    }
    template <class U> bool operator!=(const ExpectationAllocator<U> &o) const noexcept {
        return pool != o.pool;
    }
};

using ExpectedBytes = std::vector<uint8_t, ExpectationAllocator<uint8_t>>;

} // namespace harness::runner::detail
