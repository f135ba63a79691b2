// The sections of report.html (html.cpp assembles them in reading order:
// the answer first, the detail folded below). Private to harness/lab.
#pragma once

#include "lab/run_summary.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace harness::lab::html {

// Per device index: the manifest's product name where the fingerprint has
// one, else libdrm's.
std::vector<std::string> device_names(const nlohmann::json &fingerprint, int devices);

// The id failing instances of pair (a, b) are listed under ("pair-A-B");
// instances of no pair are under "pair-machine".
std::string pair_anchor(int a, int b);

// "FAIL: ..." / "REGRESSION: ..." / "PASS: ...": the sentence the page opens with.
std::string verdict_block(const RunSummary &s);
// Worst outcome per ordered pair over every family; failing cells link to
// their instances (#pair-A-B).
std::string status_matrix(const RunSummary &s, const std::vector<std::string> &names);
// Fastest copy per ordered pair: GB/s, % of the link's nominal peak, link type;
// then one line per link type.
std::string bandwidth_matrix(const RunSummary &s, const std::vector<std::string> &names);
// Failing and flaky instances grouped by pair (worst pairs first), each with
// its first failure, first mismatching byte, kernel-log lines and reproducer.
std::string failure_list(const RunResults &run, const RunSummary &s);
// The per-family device x device heat maps, each folded in <details>.
std::string family_tables(const RunResults &run, const RunSummary &s);
std::string fingerprint_section(const nlohmann::json &fp);

} // namespace harness::lab::html
