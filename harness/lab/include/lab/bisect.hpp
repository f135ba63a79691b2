// `git bisect run` support. bisect-run runs the suite
// once for the checked-out commit, keeps the step's results under
// STEPS/<commit>/ and exits as git expects:
//
//   0    good: every instance passed (or, with --baseline, no regression)
//   1    bad: something failed, or a GPU the manifest promises is missing
//        while the amdgpu driver is loaded ("GPU vanished")
//   125  cannot judge this commit: the machine promises GPUs (--expect-gpus)
//        but the kernel came up without amdgpu/KFD at all (did not boot to a
//        GPU), so the commit is skipped
//   128  abort the bisection: the harness itself failed (bad input, exit 2)
//
// bisect-report reads `git bisect log` and the step results and writes
// Markdown and HTML: the first bad commit, its failing instances, the
// smallest failing instance found by shrinking (sizes, offsets, pairs, then
// fewer steps: lab/shrink_steps.hpp) and the command that reproduces it.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace harness::lab {

struct BisectRunOptions {
    std::vector<std::string> run_args; // passed to `peer-harness run` (cases, depth, specs...)
    std::string machine;               // simulated machine ("" = real hardware)
    std::string faults;                // simulator fault scenario ("" = none)
    std::string sim;                   // amdgpu-sim launcher
    std::string steps_dir;             // where each step's results go
    int expect_gpus = -1;              // GPUs the machine manifest promises (-1: unchecked)
    std::string repo = ".";            // repository being bisected (for the commit id)
    // On a bad step, also `peer-harness differential` into STEP/differential
    // (the run's cases, depth, seed, manifest and specs): bisect-report then
    // says which runtime each failure belongs to.
    bool differential = false;
};

// What the machine looked like before the run.
struct MachineState {
    bool driver_present = false; // amdgpu loaded / KFD present
    int gpus = 0;                // GPUs the topology shows
};

struct StepVerdict {
    int exit_code = 0;
    std::string reason;
};
// The rule above as a pure function. `run_exit` < 0: the suite was not run.
StepVerdict bisect_verdict(const MachineState &m, int expect_gpus, int run_exit);

int bisect_run_command(const BisectRunOptions &o);

// `git bisect log` parsed.
struct BisectLog {
    std::string first_bad, first_bad_subject;
    std::vector<std::pair<std::string, std::string>> steps; // verdict word, commit
};
BisectLog parse_bisect_log(const std::string &text);

struct BisectReportOptions {
    std::string log_file;   // output of `git bisect log`
    std::string steps_dir;  // as given to bisect-run
    std::string out_prefix; // writes <prefix>.md and <prefix>.html
    std::string repo = "."; // must be at the first bad commit to shrink
    bool shrink = true;
    int confirmations = 3; // re-runs the shrunk instance must fail
};
int bisect_report_command(const BisectReportOptions &o);

// Shrinking order: smaller size, then smaller offsets, then lower pair, from
// an instance name's k=v segments. Pure; exposed for tests.
std::vector<double> shrink_cost(const std::string &instance);

} // namespace harness::lab
