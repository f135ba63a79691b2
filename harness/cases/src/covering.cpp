#include "cases/covering.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace harness::cases {

namespace {

bool ok(const CoveringProblem &p, int i, int vi, int j, int vj) {
    if (!p.compatible) return true;
    return i < j ? p.compatible(i, vi, j, vj) : p.compatible(j, vj, i, vi);
}

// covered[i][j] holds one flag per (vi, vj) for axes i < j.
class PairTable {
  public:
    explicit PairTable(const CoveringProblem &p) : p_(p), k_(static_cast<int>(p.sizes.size())) {
        flags_.resize(static_cast<size_t>(k_ * k_));
        for (int i = 0; i < k_; ++i) {
            for (int j = i + 1; j < k_; ++j) {
                auto &f = cell(i, j);
                f.assign(static_cast<size_t>(p.sizes[static_cast<size_t>(i)] *
                                             p.sizes[static_cast<size_t>(j)]),
                         1);
                for (int vi = 0; vi < size(i); ++vi)
                    for (int vj = 0; vj < size(j); ++vj)
                        if (ok(p, i, vi, j, vj)) {
                            f[idx(j, vi, vj)] = 0;
                            ++remaining_;
                        }
            }
        }
    }
    int remaining() const { return remaining_; }
    bool covered(int i, int vi, int j, int vj) const {
        if (i > j) return covered(j, vj, i, vi);
        return cell(i, j)[idx(j, vi, vj)] != 0;
    }
    void mark(int i, int vi, int j, int vj) {
        if (i > j) return mark(j, vj, i, vi);
        auto &c = cell(i, j)[idx(j, vi, vj)];
        if (!c) {
            c = 1;
            --remaining_;
        }
    }
    // First uncovered pair in (i, j, vi, vj) order.
    bool first_uncovered(int &i, int &vi, int &j, int &vj) const {
        for (i = 0; i < k_; ++i)
            for (j = i + 1; j < k_; ++j)
                for (vi = 0; vi < size(i); ++vi)
                    for (vj = 0; vj < size(j); ++vj)
                        if (!covered(i, vi, j, vj)) return true;
        return false;
    }

  private:
    const CoveringProblem &p_;
    int k_;
    int remaining_ = 0;
    std::vector<std::vector<char>> flags_;

    int size(int axis) const { return p_.sizes[static_cast<size_t>(axis)]; }
    size_t idx(int j, int vi, int vj) const { return static_cast<size_t>(vi * size(j) + vj); }
    std::vector<char> &cell(int i, int j) { return flags_[static_cast<size_t>(i * k_ + j)]; }
    const std::vector<char> &cell(int i, int j) const {
        return flags_[static_cast<size_t>(i * k_ + j)];
    }
};

} // namespace

std::vector<Row> pairwise(const CoveringProblem &p, uint64_t seed) {
    const int k = static_cast<int>(p.sizes.size());
    std::vector<Row> rows;
    if (k == 0) return {Row{}};
    if (k == 1) {
        for (int v = 0; v < p.sizes[0]; ++v)
            rows.push_back(Row{v});
        return rows;
    }
    PairTable table(p);
    std::mt19937_64 rng(seed); // the engine's sequence is fixed by the standard
    while (table.remaining() > 0) {
        int i, vi, j, vj;
        if (!table.first_uncovered(i, vi, j, vj)) break;
        Row row(static_cast<size_t>(k), -1);
        row[static_cast<size_t>(i)] = vi;
        row[static_cast<size_t>(j)] = vj;
        std::vector<int> order;
        for (int m = 0; m < k; ++m)
            if (m != i && m != j) order.push_back(m);
        // Fisher-Yates by hand: std::shuffle's use of the engine is left to
        // the library, and rows must not change with the standard library.
        for (size_t x = order.size(); x > 1; --x)
            std::swap(order[x - 1], order[static_cast<size_t>(rng() % x)]);
        bool complete = true;
        for (int m : order) {
            const int n = p.sizes[static_cast<size_t>(m)];
            const int start = static_cast<int>(rng() % static_cast<uint64_t>(n));
            int best = -1, best_gain = -1;
            for (int step = 0; step < n; ++step) {
                int v = (start + step) % n;
                bool fits = true;
                int gain = 0;
                for (int f = 0; f < k && fits; ++f) {
                    int fv = row[static_cast<size_t>(f)];
                    if (f == m || fv < 0) continue;
                    if (!ok(p, f, fv, m, v))
                        fits = false;
                    else if (!table.covered(f, fv, m, v))
                        ++gain;
                }
                if (fits && gain > best_gain) {
                    best = v;
                    best_gain = gain;
                }
            }
            if (best < 0) {
                complete = false;
                break;
            }
            row[static_cast<size_t>(m)] = best;
        }
        if (!complete) {
            // No compatible completion exists for this pair: it can never be
            // covered, so stop asking for it (the caller reports values that
            // appear in no row).
            table.mark(i, vi, j, vj);
            continue;
        }
        for (int a = 0; a < k; ++a)
            for (int b = a + 1; b < k; ++b)
                table.mark(a, row[static_cast<size_t>(a)], b, row[static_cast<size_t>(b)]);
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<Row> cross_product(const CoveringProblem &p) {
    const size_t k = p.sizes.size();
    std::vector<Row> rows;
    for (int s : p.sizes)
        if (s <= 0) return rows;
    Row row(k, 0);
    while (true) {
        bool fits = true;
        for (size_t a = 0; a < k && fits; ++a)
            for (size_t b = a + 1; b < k && fits; ++b)
                fits = ok(p, static_cast<int>(a), row[a], static_cast<int>(b), row[b]);
        if (fits) rows.push_back(row);
        size_t d = k;
        while (d > 0) {
            --d;
            if (++row[d] < p.sizes[d]) break;
            row[d] = 0;
            if (d == 0) return rows;
        }
        if (k == 0) return rows;
    }
}

bool covers_all_pairs(const CoveringProblem &p, const std::vector<Row> &rows) {
    const int k = static_cast<int>(p.sizes.size());
    for (int i = 0; i < k; ++i)
        for (int j = i + 1; j < k; ++j)
            for (int vi = 0; vi < p.sizes[static_cast<size_t>(i)]; ++vi)
                for (int vj = 0; vj < p.sizes[static_cast<size_t>(j)]; ++vj) {
                    if (!ok(p, i, vi, j, vj)) continue;
                    bool found = false;
                    for (const auto &r : rows)
                        found = found || (r[static_cast<size_t>(i)] == vi &&
                                          r[static_cast<size_t>(j)] == vj);
                    if (!found) return false;
                }
    return true;
}

} // namespace harness::cases
