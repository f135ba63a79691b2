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

// A copy step whose GB/s moved by more than the threshold. Matched by
// instance, step index and byte count, only when both sides used the same
// clock. `gates` for a slowdown measured on hardware; a speed-up, or a figure
// of the simulator on either side (its speed is the host's), is listed only.
struct BandwidthChange {
    std::string name;
    int step = 0;
    uint64_t bytes = 0;
    double before = 0, after = 0; // GB/s
    double percent = 0;           // (after - before) / before * 100
    bool simulated = false;
    bool gates = false;
};

// Noise threshold for bandwidth changes, in percent of the earlier figure.
// Copy bandwidth of one pair repeats within a few percent from run to run on
// an idle machine; 10 keeps that noise out while a link that drops a PCIe
// generation or an XGMI link (halving) is far beyond it.
inline constexpr double kDefaultBandwidthThresholdPct = 10.0;

struct CompareOptions {
    double bandwidth_threshold_pct = kDefaultBandwidthThresholdPct;
};

struct Comparison {
    std::vector<Change> regressions; // success before, not now
    std::vector<Change> fixes;       // not a success before, success now
    std::vector<Change> new_skips;   // ran before, skipped now: coverage lost
    std::vector<Change> unskipped;   // skipped before, runs now and succeeds
    std::vector<Change> other;       // status changed within one side (e.g. fail -> crash)
    std::vector<std::string> only_before, only_after;
    std::vector<BandwidthChange> bandwidth; // beyond the threshold, either way
    int bandwidth_clock_changed = 0;        // copies not compared: clocks differ
    double bandwidth_threshold_pct = kDefaultBandwidthThresholdPct;
    bool regressed() const { return !regressions.empty(); }
    bool bandwidth_gates() const {
        for (const auto &b : bandwidth)
            if (b.gates) return true;
        return false;
    }
    // The one gating answer: something newly fails, is newly skipped, is no
    // longer in the run at all, or copies slower beyond the noise threshold.
    bool gates() const {
        return !regressions.empty() || !new_skips.empty() || !only_before.empty() ||
               bandwidth_gates();
    }
};

Comparison compare_runs(const std::vector<InstanceRecord> &before,
                        const std::vector<InstanceRecord> &after, const CompareOptions &opt = {});
std::string render_comparison(const Comparison &c);

} // namespace harness::report
