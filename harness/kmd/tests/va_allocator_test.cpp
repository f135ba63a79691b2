#include "kmd/va_allocator.hpp"

#include <catch2/catch.hpp>

#include <set>

using kmd::VaAllocator;

TEST_CASE("VA allocator hands out aligned, disjoint ranges", "[kmd][va]") {
    VaAllocator va(0x100000000ull, 0x100100000ull); // 1 MiB
    auto a = va.allocate(1);
    auto b = va.allocate(4096);
    auto c = va.allocate(8192, 64 * 1024);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(c);
    CHECK(*a == 0x100000000ull);
    CHECK(*b == 0x100001000ull);
    CHECK(*c % (64 * 1024) == 0);
    CHECK(*c >= *b + 4096);
    CHECK(va.reserved_size(*a) == 4096);
    CHECK(va.reserved_bytes() == 4096 + 4096 + 8192);
}

TEST_CASE("VA allocator refuses what does not fit and bad arguments", "[kmd][va]") {
    VaAllocator va(0x10000, 0x20000); // 64 KiB
    CHECK_FALSE(va.allocate(0));
    CHECK_FALSE(va.allocate(0x10001));
    CHECK_FALSE(va.allocate(4096, 3 * 4096)); // not a power of two
    auto all = va.allocate(0x10000);
    REQUIRE(all);
    CHECK_FALSE(va.allocate(1));
    CHECK_FALSE(va.release(*all + 4096)); // not a start
    CHECK(va.release(*all));
    CHECK_FALSE(va.release(*all)); // twice
    CHECK(va.allocate(0x10000));
}

TEST_CASE("VA allocator coalesces freed ranges", "[kmd][va]") {
    VaAllocator va(0x10000, 0x10000 + 16 * 4096);
    std::vector<uint64_t> got;
    for (int i = 0; i < 16; ++i) {
        auto r = va.allocate(4096);
        REQUIRE(r);
        got.push_back(*r);
    }
    CHECK_FALSE(va.allocate(4096));
    // Free in an order that needs merges on both sides.
    for (int i : {1, 3, 2, 0, 15, 14, 5, 4, 6, 7, 8, 9, 10, 12, 11, 13})
        CHECK(va.release(got[i]));
    CHECK(va.reserved_bytes() == 0);
    auto whole = va.allocate(16 * 4096);
    REQUIRE(whole);
    CHECK(*whole == 0x10000);
}
