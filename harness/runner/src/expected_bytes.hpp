// Storage of a buffer's expected bytes (Buffer::expect). Private to the step
// interpreter.
//
// Full depth makes tens of thousands of 64 MiB expectations, so two things
// matter: resize() leaves new bytes uninitialised (every writer of an
// expectation fills its whole range itself; value-initialising first was one
// more pass over 64 MiB), and large expectations live in transparent huge
// pages. Every fresh 4 KiB page costs a fault, and on virtualised CI hosts
// with shadow page tables a fault costs about 18 µs: first touch of 64 MiB
// measured 250-300 ms in 4 KiB pages and 6 ms in 2 MiB pages on the stop-21
// host. Where THP is off (`never`) the advice is ignored and nothing changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace harness::runner::detail {

// Expectations of at least this size are mapped 2 MiB-aligned and advised
// MADV_HUGEPAGE; smaller ones, and all of them under ASan, come from
// operator new.
inline constexpr size_t kHugeExpectation = size_t{2} << 20;

void *expectation_allocate(size_t bytes); // throws std::bad_alloc
void expectation_deallocate(void *p, size_t bytes) noexcept;

template <class T> struct ExpectationAllocator {
    using value_type = T;
    ExpectationAllocator() = default;
    template <class U> ExpectationAllocator(const ExpectationAllocator<U> &) noexcept {}
    T *allocate(size_t n) { return static_cast<T *>(expectation_allocate(n * sizeof(T))); }
    void deallocate(T *p, size_t n) noexcept { expectation_deallocate(p, n * sizeof(T)); }
    // Default-initialise (leave bytes as they are) instead of zeroing.
    template <class U> void construct(U *p) { ::new (static_cast<void *>(p)) U; }
    template <class U, class... A> void construct(U *p, A &&...a) {
        ::new (static_cast<void *>(p)) U(std::forward<A>(a)...);
    }
    template <class U> bool operator==(const ExpectationAllocator<U> &) const noexcept {
        return true;
    }
    template <class U> bool operator!=(const ExpectationAllocator<U> &) const noexcept {
        return false;
    }
};

using ExpectedBytes = std::vector<uint8_t, ExpectationAllocator<uint8_t>>;

} // namespace harness::runner::detail
