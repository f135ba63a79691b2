#include "alloc_table.hpp"

#include <catch2/catch.hpp>

using Table = peer::AllocTable<int>;

TEST_CASE("allocation table resolves interior pointers, not one past the end", "[peer][table]") {
    Table t;
    REQUIRE(t.insert({0x10000, 100, 0, nullptr}));
    REQUIRE(t.insert({0x20000, 4096, 1, nullptr}));
    CHECK(t.find(0x10000)->base == 0x10000);
    CHECK(t.find(0x10063)->base == 0x10000);
    CHECK(t.find(0x10064) == nullptr); // one past the requested size
    CHECK(t.find(0xffff) == nullptr);
    CHECK(t.find(0x20fff)->owner == 1);
    CHECK(t.find(0) == nullptr);
}

TEST_CASE("allocation table range lookup needs the whole range inside", "[peer][table]") {
    Table t;
    REQUIRE(t.insert({0x10000, 100, 0, nullptr}));
    CHECK(t.find_range(0x10000, 100) != nullptr);
    CHECK(t.find_range(0x10001, 99) != nullptr);
    CHECK(t.find_range(0x10001, 100) == nullptr);
    CHECK(t.find_range(0x10063, 1) != nullptr);
    CHECK(t.find_range(0x10063, 2) == nullptr);
    CHECK(t.find_range(0x10000, ~0ull) == nullptr); // no wrap-around
}

TEST_CASE("allocation table refuses overlaps and forgets erased entries", "[peer][table]") {
    Table t;
    REQUIRE(t.insert({0x10000, 0x1000, 0, nullptr}));
    CHECK_FALSE(t.insert({0x10fff, 1, 0, nullptr}));
    CHECK_FALSE(t.insert({0xf000, 0x1001, 0, nullptr}));
    CHECK_FALSE(t.insert({0x12000, 0, 0, nullptr}));
    CHECK(t.insert({0x11000, 1, 2, nullptr}));
    CHECK(t.owned_by(2).size() == 1);
    CHECK(t.erase(0x10000));
    CHECK_FALSE(t.erase(0x10000));
    CHECK(t.find(0x10000) == nullptr);
    CHECK(t.find_base(0x11000) != nullptr);
    CHECK(t.size() == 1);
}
