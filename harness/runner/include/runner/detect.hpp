// `peer-harness detect`: how many injected kernel faults the suite catches,
// and by how much. Runs the suite once on the faithful simulator and once per
// fault scenario that can fire on the machine, each as a child
// `peer-harness run --machine M [--faults F]`, and reads the verdicts back
// from each run's journal.
#pragma once

#include "runner/settings.hpp"

#include <set>
#include <string>
#include <vector>

namespace harness::runner {

struct DetectOptions {
    std::string faults;   // a directory of *.yaml scenarios, or one file
    std::string manifest; // the machine file: which scenarios can fire there
    // A scenario caught by fewer failing instances is weakly detected (a
    // suite gap) and fails the run.
    int min_margin = 2;
};

struct DetectRow {
    std::string scenario; // "(faithful)" or the scenario file's stem
    int exit_code = 0;
    int failed = 0;                 // instances neither passed nor skipped
    std::set<std::string> families; // suite/case of each failing instance
    bool stopped = false;           // the run stopped at --max-failures: `failed` is a lower bound
    std::string first_failure;      // name of the first failing instance, or a run-level reason
    double seconds = 0;
    // Decided before running (applicability.hpp): the fault cannot fire on
    // this machine. Not run, not counted.
    std::string not_applicable;
    bool detected() const { return exit_code != 0; }
    // The run failed before any instance ran (the kernel's topology
    // contradicts the manifest): a check of every run, which no draw of the
    // covering array can leave out.
    bool run_level() const { return detected() && failed == 0; }
    bool weak(int min_margin) const { return detected() && !run_level() && failed < min_margin; }
};

// The table, then "N of M scenarios detected with margin >= K, W weak,
// X not applicable, F false failures".
std::string render_detect(const DetectRow &faithful, const std::vector<DetectRow> &rows,
                          int min_margin);

// 0 when the faithful run is clean and every applicable scenario is detected
// with a margin of at least `min_margin`, else 1.
int detect_verdict(const DetectRow &faithful, const std::vector<DetectRow> &rows, int min_margin);

// A scenario run stops once this many instances failed (`run --max-failures`):
// the margin needs a few, the count shows how broad the damage is, and a
// fault that breaks everything does not cost a whole suite run. The faithful
// run never stops early (every false failure is counted).
inline constexpr int kDetectMaxFailures = 10;

// Returns the exit code: detect_verdict's, or 2 on bad arguments or a
// scenario the simulator rejects.
int detect_command(const RunSettings &s, const DetectOptions &o);

} // namespace harness::runner
