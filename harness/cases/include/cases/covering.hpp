// Choosing rows of a test matrix. Pure functions over axis sizes and a binary
// compatibility rule, so they are tested without any case file or machine.
//
// pairwise(): a 2-way covering array: every compatible pair of values of any
// two axes appears together in at least one row, and every row is compatible
// throughout. Greedy (one row at a time, each axis given the value that covers
// the most still-uncovered pairs), deterministic for a given seed.
// cross_product(): every compatible row (the nightly depth).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace harness::cases {

struct CoveringProblem {
    std::vector<int> sizes; // number of values per axis (each >= 1)
    // May value `vi` of axis `i` share a row with value `vj` of axis `j`?
    // (i < j). Empty means every combination is allowed.
    std::function<bool(int i, int vi, int j, int vj)> compatible;
};

using Row = std::vector<int>; // one value index per axis

std::vector<Row> pairwise(const CoveringProblem &p, uint64_t seed);
std::vector<Row> cross_product(const CoveringProblem &p);

// True if every compatible pair of values is covered by `rows` (used by tests
// and as a self-check).
bool covers_all_pairs(const CoveringProblem &p, const std::vector<Row> &rows);

} // namespace harness::cases
