// Two runs side by side (architecture §7 `compare`): what newly fails, what
// was fixed, what appeared or disappeared. Pure function over records, so it
// is table-tested; the CLI prints it and exits 1 when something regressed.
#pragma once

#include "report/record.hpp"

#include <string>
#include <vector>

namespace harness::report {

struct Change {
    std::string name;
    Status before, after;
};

struct Comparison {
    std::vector<Change> regressions; // success before, not now
    std::vector<Change> fixes;       // not a success before, success now
    std::vector<Change> new_skips;   // ran before, skipped now: coverage lost
    std::vector<Change> unskipped;   // skipped before, runs now and succeeds
    std::vector<Change> other;       // status changed within one side (e.g. fail -> crash)
    std::vector<std::string> only_before, only_after;
    bool regressed() const { return !regressions.empty(); }
    // The one gating answer: something newly fails, is newly skipped, or
    // is no longer in the run at all.
    bool gates() const {
        return !regressions.empty() || !new_skips.empty() || !only_before.empty();
    }
};

Comparison compare_runs(const std::vector<InstanceRecord> &before,
                        const std::vector<InstanceRecord> &after);
std::string render_comparison(const Comparison &c);

} // namespace harness::report
