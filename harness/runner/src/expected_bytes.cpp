#include "expected_bytes.hpp"

#include <sys/mman.h>

namespace harness::runner::detail {

namespace {

// Under AddressSanitizer every expectation comes from operator new, so an
// overrun of a large one still hits a redzone (mmap'd memory has none).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kHugeMappings = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kHugeMappings = false;
#else
constexpr bool kHugeMappings = true;
#endif
#else
constexpr bool kHugeMappings = true;
#endif

bool huge(size_t bytes) {
    return kHugeMappings && bytes >= kHugeExpectation;
}

size_t huge_round(size_t bytes) {
    return (bytes + kHugeExpectation - 1) & ~(kHugeExpectation - 1);
}

} // namespace

void *expectation_allocate(size_t bytes) {
    if (!huge(bytes)) return ::operator new(bytes);
    const size_t len = huge_round(bytes);
    // mmap gives 4 KiB alignment; over-allocate by one huge page and trim so
    // the range starts on a 2 MiB boundary (a huge page maps only there).
    const size_t span = len + kHugeExpectation;
    void *raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = huge_round(start);
    if (aligned > start) munmap(raw, aligned - start);
    if (const uintptr_t tail = start + span - (aligned + len); tail > 0)
        munmap(reinterpret_cast<void *>(aligned + len), tail);
    void *p = reinterpret_cast<void *>(aligned);
    // Advice only: with THP disabled the range stays in 4 KiB pages.
    (void)madvise(p, len, MADV_HUGEPAGE);
    return p;
}

void expectation_deallocate(void *p, size_t bytes) noexcept {
    if (!p) return;
    if (!huge(bytes)) {
        ::operator delete(p);
        return;
    }
    munmap(p, huge_round(bytes));
}

} // namespace harness::runner::detail
