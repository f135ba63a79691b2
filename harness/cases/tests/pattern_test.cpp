#include "cases/pattern.hpp"

#include <catch2/catch.hpp>

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
    std::vector<uint8_t> buf(29);
    fill_pattern(PatternKind::lfsr, 3, 4093, buf.data(), buf.size());
    for (size_t i = 0; i < buf.size(); ++i)
        CHECK(buf[i] == pattern_byte(PatternKind::lfsr, 3, 4093 + i));
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
