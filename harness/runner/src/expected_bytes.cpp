#include "expected_bytes.hpp"

#include <sys/mman.h>

#include <iterator>

namespace harness::runner::detail {

namespace {

bool huge(size_t bytes) {
    return kHugeMappings && bytes >= kHugeExpectation;
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

ExpectationPool::~ExpectationPool() {
    for (const Range &r : free_)
        munmap(r.p, r.len);
}

void *ExpectationPool::allocate(size_t bytes) {
    if (huge(bytes)) {
        const size_t len = huge_round(bytes);
        for (auto it = free_.rbegin(); it != free_.rend(); ++it)
            if (it->len == len) {
                void *p = it->p;
                free_.erase(std::next(it).base());
                kept_ -= len;
                return p;
            }
    }
    return expectation_allocate(bytes);
}

void ExpectationPool::deallocate(void *p, size_t bytes) noexcept {
    if (!p || !huge(bytes)) {
        expectation_deallocate(p, bytes);
        return;
    }
    const size_t len = huge_round(bytes);
    if (len > kPoolBudget) {
        munmap(p, len);
        return;
    }
    while (kept_ + len > kPoolBudget && !free_.empty()) {
        munmap(free_.front().p, free_.front().len);
        kept_ -= free_.front().len;
        free_.erase(free_.begin());
    }
    // push_back may throw; a range that cannot be kept is unmapped instead.
    try {
        free_.push_back({p, len});
        kept_ += len;
    } catch (...) {
        munmap(p, len);
    }
}

} // namespace harness::runner::detail
