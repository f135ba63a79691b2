// The runner's commands as library functions (thin mains, IGT-1): the CLI
// parses options into RunSettings and calls one of these. Exit codes:
// 0 every selected instance passed or was skipped with a reason, 1 at least
// one failed/crashed/timed out, 2 bad input (case file, options, results dir).
#pragma once

#include "report/compare.hpp"

#include "runner/settings.hpp"

#include <ostream>

namespace harness::runner {

int run_command(RunSettings settings);               // run or --resume
int list_command(const RunSettings &s);              // resolved instances, with skip reasons
int check_command(const RunSettings &s);             // load + expand only
int summary_command(const std::string &results_dir); // re-derive summary + junit
// Two results directories: new failures and fixes; 1 if anything regressed.
// Exit 1 when the comparison gates (report::Comparison::gates), 2 bad input.
int compare_command(const std::string &before_dir, const std::string &after_dir,
                    double bandwidth_threshold_pct = report::kDefaultBandwidthThresholdPct);
// Where a results directory's time went (report::render_timing), steps named
// from the run's own case files (metadata.json), or from s.case_paths when
// `cases_given`; `by` splits each family by one parameter. 2 bad input.
int timing_command(const RunSettings &s, const std::string &results_dir, const std::string &by,
                   size_t top, bool cases_given);
// Documented function/code pairs asserted on this machine; 1 if any is not.
int coverage_command(const RunSettings &s);
// `peer-harness kfd-map-probe OWNER MAPPER`, the child process of a kernel_kfd
// step of kind mmio (raw KFD ioctls need a process whose KFD state libhsakmt
// does not own): prints "mapped" or "<errno> <call>" on `out`, returns 0.
int kfd_map_probe_command(int owner_render_minor, int mapper_render_minor, std::ostream &out);

} // namespace harness::runner
