// The lab workflow's commands, called by the CLI: a run with fingerprint,
// baseline and retries; writing a fails file; merging shards. Each returns
// the process exit code (0 ok, 1 regression, 2 bad input).
#pragma once

#include "runner/settings.hpp"

#include <string>
#include <vector>

namespace harness::lab {

struct LabRunOptions {
    std::string baseline_dir; // empty: no expectations
    std::string machine_type; // expectation files' prefix; default: the simulated machine
    int retries = 0;          // re-runs of unexpectedly failing instances
};

int lab_run_command(runner::RunSettings s, const LabRunOptions &o);

// Writes a fails file (`name,Status`) from a results directory to `out`
// ("-" = stdout).
int baseline_command(const std::string &results_dir, const std::string &out);

// Joins shard results directories into `out`: one journal, metadata without
// the shard, logs, derived reports. Refuses shards of different runs.
int merge_command(const std::string &out, const std::vector<std::string> &shards);

// The machine type an expectation file is named after: the simulated
// machine's name (file stem when given as a path).
std::string machine_type_of(const runner::RunSettings &s);

} // namespace harness::lab
