// `peer-harness detect`: how many injected kernel faults the suite catches.
// Runs the suite once on the faithful simulator and once per fault scenario,
// each as a child `peer-harness run --machine M [--faults F]`, and reads the
// verdicts back from each run's journal.
#pragma once

#include "runner/settings.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace harness::runner {

// Every file under /sys/class/kfd/kfd/topology, path and contents, in path
// order (what `peer-harness kfd-topology-dump` prints). Returns 0, or 1 when
// there is no KFD topology.
int kfd_topology_dump(std::ostream &out);

struct DetectRow {
    std::string scenario; // "(faithful)" or the scenario file's stem
    int exit_code = 0;
    int failed = 0;            // instances neither passed nor skipped
    bool stopped = false;      // the run stopped at --max-failures: `failed` is a lower bound
    std::string first_failure; // name of the first failing instance, or a run-level reason
    double seconds = 0;
    // The scenario only changes what KFD publishes in sysfs (K10-K13 kinds)
    // and, on this machine, the published topology is the faithful one: no
    // test can see it here. Not counted as missed (nor as detected).
    bool inert = false;
    bool detected() const { return exit_code != 0; }
};

// "N of M scenarios detected, K false failures" and the table above it.
std::string render_detect(const DetectRow &faithful, const std::vector<DetectRow> &rows);

// A scenario run stops once this many instances failed (`run --max-failures`):
// detection needs one, the count shows how broad the damage is, and a fault
// that breaks everything does not cost a whole suite run. The faithful run
// never stops early (every false failure is counted).
inline constexpr int kDetectMaxFailures = 10;

// `faults_dir`: *.yaml scenarios (each run by this executable in a child). Returns the exit
// code: 0 every scenario detected and the faithful run clean, 1 otherwise, 2
// on bad arguments.
int detect_command(const RunSettings &s, const std::string &faults_dir);

} // namespace harness::runner
