#include "cases/pattern.hpp"
#include <algorithm>

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace harness::cases;

TEST_CASE("patterns never hold a zero byte and depend on position", "[pattern]") {
    for (auto kind : {PatternKind::lfsr, PatternKind::index}) {
        std::vector<uint8_t> a(70000), b(70000);
        fill_pattern(kind, 7, 0, a.data(), a.size());
        fill_pattern(kind, 7, 1, b.data(), b.size());
        size_t zeros = 0, same_as_shifted = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            zeros += a[i] == 0;
            same_as_shifted += a[i] == b[i];
        }
        CHECK(zeros == 0);
        // A copy shifted by one byte must not match the original.
        CHECK(same_as_shifted < a.size() / 16);
    }
}

TEST_CASE("fill_pattern agrees with pattern_byte at any start", "[pattern]") {
    // 64 KiB: thousands of whole words (the word-at-a-time path) and, at about
    // one in 32, words whose hash holds a zero byte (the bytewise path); odd
    // starts and lengths exercise the unaligned head and tail.
    const uint64_t first = GENERATE(0, 1, 4093, 8191);
    const size_t n = GENERATE(size_t(29), size_t(64 * 1024 + 5));
    std::vector<uint8_t> buf(n);
    fill_pattern(PatternKind::lfsr, 3, first, buf.data(), buf.size());
    size_t mismatches = 0;
    for (size_t i = 0; i < buf.size(); ++i)
        mismatches += buf[i] != pattern_byte(PatternKind::lfsr, 3, first + i);
    CHECK(mismatches == 0);
    CHECK(std::count(buf.begin(), buf.end(), 0) == 0);
}

TEST_CASE("different seeds give different bytes", "[pattern]") {
    std::vector<uint8_t> a(4096), b(4096);
    fill_pattern(PatternKind::lfsr, 1, 0, a.data(), a.size());
    fill_pattern(PatternKind::lfsr, 2, 0, b.data(), b.size());
    size_t same = 0;
    for (size_t i = 0; i < a.size(); ++i)
        same += a[i] == b[i];
    CHECK(same < 64);
}
