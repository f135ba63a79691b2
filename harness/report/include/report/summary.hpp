// Summaries derived from records: counts per case family (suite/case) and in
// total, and the text block printed at the end of a run.
#pragma once

#include "report/record.hpp"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace harness::report {

inline constexpr size_t kStatusCount = 8;

struct Counts {
    std::array<int, kStatusCount> by_status{}; // indexed by Status
    int total() const;
    int of(Status s) const { return by_status[static_cast<size_t>(s)]; }
    int failures() const; // everything that is neither pass nor skip
};

struct Summary {
    std::map<std::string, Counts> families; // "suite/case"
    Counts total;
    std::vector<const InstanceRecord *> failed; // in run order
    std::map<std::string, int> skip_reasons;    // reason -> count
};

Summary summarise(const std::vector<InstanceRecord> &records);

// The end-of-run text: one line per family, totals, failing instances with
// their first failure, and skip reasons. `wall_s` < 0 omits the time.
std::string render_summary(const Summary &s, double wall_s);

} // namespace harness::report
