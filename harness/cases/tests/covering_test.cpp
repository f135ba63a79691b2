#include "cases/covering.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace harness::cases;

TEST_CASE("pairwise covers every pair of values with few rows", "[covering]") {
    CoveringProblem p{{16, 23, 7, 7, 3}, {}};
    auto rows = pairwise(p, 42);
    CHECK(covers_all_pairs(p, rows));
    CHECK(rows.size() >= 16 * 23);
    CHECK(rows.size() < 16 * 23 * 2);
    CHECK(cross_product(p).size() == size_t{16} * 23 * 7 * 7 * 3);
}

TEST_CASE("pairwise is deterministic for a seed and differs across seeds", "[covering]") {
    CoveringProblem p{{5, 4, 3, 3}, {}};
    CHECK(pairwise(p, 7) == pairwise(p, 7));
    CHECK(pairwise(p, 7) != pairwise(p, 8));
}

TEST_CASE("constraints are respected and compatible pairs still covered", "[covering]") {
    // Axis 0 = 4 "pairs", axis 2 = 3 "modes": mode 0 only with even pairs.
    CoveringProblem p{{4, 5, 3}, [](int i, int vi, int j, int vj) {
                          if (i == 0 && j == 2 && vj == 0) return vi % 2 == 0;
                          return true;
                      }};
    for (auto rows : {pairwise(p, 1), cross_product(p)}) {
        CHECK(covers_all_pairs(p, rows));
        for (const auto &r : rows)
            if (r[2] == 0) CHECK(r[0] % 2 == 0);
    }
}

TEST_CASE("degenerate shapes", "[covering]") {
    CHECK(pairwise({{}, {}}, 1).size() == 1);
    CHECK(pairwise({{5}, {}}, 1).size() == 5);
    CHECK(cross_product({{2, 3}, {}}).size() == 6);
    // A value compatible with nothing never appears; no row breaks the rule.
    CoveringProblem p{{2, 2}, [](int, int vi, int, int) { return vi == 0; }};
    auto rows = pairwise(p, 3);
    CHECK(rows.size() == 2);
    for (const auto &r : rows)
        CHECK(r[0] == 0);
}
