// Nightly results side by side: per ordered pair the outcome and the fastest
// copy of every night, per family the counts, and the change points between
// consecutive nights (a family or pair that started failing, a pair whose
// measured GB/s fell beyond the compare threshold), each with the
// fingerprint fields that differ between the two nights. `peer-harness
// trend` renders it as trend.html (inline SVG, no network) and CSV.
#pragma once

#include "lab/run_summary.hpp"
#include "report/compare.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace harness::lab {

struct Night {
    std::string label; // the results directory's name
    std::string dir;
    RunSummary summary;
    nlohmann::json fingerprint;
    std::string faults;  // simulator fault scenario ("" = faithful or hardware)
    std::string machine; // simulated machine ("" on hardware)
};

struct FieldChange {
    std::string field, before, after; // "" = absent on that side
};

struct ChangePoint {
    enum class Kind { family_failing, pair_failing, slower, recovered };
    Kind kind = Kind::family_failing;
    size_t night = 0;    // index of the night the change shows in (>= 1)
    std::string subject; // family name, or "A>B"
    std::string detail;  // "0 -> 3 failing", "30.00 -> 20.00 GB/s (-33%)"
};
const char *change_kind_name(ChangePoint::Kind k); // family-failing pair-failing slower recovered

struct Trend {
    std::vector<Night> nights;
    std::vector<ChangePoint> changes;
    // Per night i >= 1: fingerprint (and run setting) fields that differ from night i - 1.
    std::vector<std::vector<FieldChange>> differs;
    double threshold_pct = report::kDefaultBandwidthThresholdPct;
    int devices = 0;
};

// Each argument is a results directory (a night) or a directory whose
// subdirectories are (nights in name order: nightly-YYYY-MM-DD, or
// peer-results/<UTC time>). Error text when an argument holds no night.
std::variant<std::vector<std::string>, std::string>
night_dirs(const std::vector<std::string> &args);

// Fingerprint leaves (flatten_fingerprint) plus the run's simulator settings
// ("simulator.machine", "simulator.faults") that differ.
std::vector<FieldChange> night_differences(const Night &before, const Night &after);

// Change points between consecutive nights. A slowdown counts only where
// both nights measured the pair on hardware with the same clock: amdgpu-sim's
// GB/s is the host's memcpy speed and says nothing about a link.
std::vector<ChangePoint> find_change_points(const std::vector<Night> &nights, double threshold_pct);

std::variant<Trend, std::string> load_trend(const std::vector<std::string> &args,
                                            double threshold_pct);

std::string render_trend_html(const Trend &t);
// trend.csv: one row per night and ordered pair.
std::string render_trend_csv(const Trend &t);
// trend-families.csv: one row per night and case family.
std::string render_trend_families_csv(const Trend &t);
// trend-changes.csv: one row per change point with the differing fields.
std::string render_trend_changes_csv(const Trend &t);

struct TrendOptions {
    std::vector<std::string> inputs;
    std::string out_dir = ".";
    double threshold_pct = report::kDefaultBandwidthThresholdPct;
};
// `peer-harness trend`: writes OUT/trend.html and the three CSV files.
// 0, or 2 on bad input.
int trend_command(const TrendOptions &o);

} // namespace harness::lab
