// Everything a run is asked to do, filled by the CLI's parser and nothing
// else (IGT-2), serialised into the results directory before anything runs so
// `--resume` rebuilds the same run from that directory alone (IGT-3).
#pragma once

#include "cases/expand.hpp"
#include "runner/runtime_kind.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace harness::runner {

struct RunSettings {
    std::vector<std::string> case_paths; // files or directories
    std::string results_dir;             // empty: no journal (list/check only)
    cases::Depth depth = cases::Depth::quick;
    uint64_t seed = 1;
    double timeout_s = 60; // per instance
    int jobs = 1;          // instances running at once (1 on real hardware unless asked)
    // How instances are isolated: "batch" runs up to batch_size instances in
    // one child (restarting after a crash or hang), "process" one child each.
    // 256: a child's start (fork, opening every device, queues and staging
    // buffers, cold caches) costs ~50 ms on mi300x-8; pair 0>1 of full depth
    // (6,762 instances, --jobs 2) took 29.9 s in batches of 64 and 25.2 s in
    // batches of 256. deqp-runner's groups are of the same order.
    std::string isolation = "batch";
    int batch_size = 256;
    // Stop starting instances once this many have failed (0: never). What
    // was already running ends and is recorded; the rest is not run and not
    // journaled, so `--resume` runs it later.
    int max_failures = 0;
    bool resume = false;
    bool overwrite = false;
    bool allow_disruptive = false; // real hardware: run cases that fault/hang/reset on purpose
    bool on_simulator = false;     // set when running under amdgpu-sim
    std::string machine;           // simulator machine name or file, for the record
    // Machine manifest (machine-file schema) the expectations come from;
    // under --machine the machine file itself. Empty: the KFD topology.
    std::string manifest;
    std::string faults;                  // simulator fault scenario (--faults), for the record
    bool sync = false;                   // fdatasync each journal line
    std::vector<std::string> catch_args; // passed to Catch2's session untouched
    // The HIP runtime the instances call (runtime.hpp): the harness's own, or
    // ROCm's libamdhip64 (a differential run's second half); and whether
    // each result records every step's answer (differential.hpp).
    RuntimeKind runtime = RuntimeKind::harness;
    bool record_answers = false;
    // Run on these GPUs only (KFD / manifest indexes, in this order, numbered
    // from 0 as a runtime listing only them would): a differential run's
    // GPUs that ROCm's runtime knows. Empty: every GPU.
    std::vector<int> devices;
    // Lab workflow (harness/lab): instances whose name fully matches one of
    // these ECMAScript regexes are skipped with the paired reason (baseline
    // skips files); shard I of N keeps every N-th selected instance starting
    // at the I-th (1-based), as drm-ci shards its test list.
    std::vector<std::pair<std::string, std::string>> skip_patterns; // regex, reason
    int shard_index = 1, shard_count = 1;
    nlohmann::json fingerprint; // written into metadata.json when not null
};

// Whether the instance at `position` (0-based, in Catch2's run order) belongs
// to shard `index` (1-based) of `count`. Pure.
bool in_shard(size_t position, int index, int count);

nlohmann::json settings_to_json(const RunSettings &s);
// Error text on a malformed or foreign metadata file.
std::optional<RunSettings> settings_from_json(const nlohmann::json &j, std::string &error);

// The file only the simulated kernel serves (amdgpu-sim's sysfs names its
// machine there); read through the same libc calls as every device path.
inline constexpr const char *kSimulatorIdentification = "/sys/module/amdgpu_sim/machine";

// True when this process talks to the simulated driver, decided by what the
// kernel interface answers (kSimulatorIdentification), not by environment
// variables: no variable makes a lab machine count as simulated.
bool running_on_simulator();

} // namespace harness::runner
