// The results directory's inputs: metadata.json (settings + the topology the
// run was expanded over) and instances.txt, written before any instance runs.
#pragma once

#include "cases/expand.hpp"
#include "cases/topology.hpp"
#include "runner/settings.hpp"

#include <string>
#include <vector>

namespace harness::runner {

// Fresh run: creates the directory (refusing one that already holds a journal
// unless `overwrite`), writes metadata and the instance list. Returns an
// error text, empty on success.
std::string start_results_dir(const RunSettings &s, const cases::Topology &t,
                              const std::vector<cases::Instance> &instances);

struct SavedRun {
    RunSettings settings;
    cases::Topology topology;
    std::vector<std::string> instance_names;
};
// For --resume: what the interrupted run was.
std::variant<SavedRun, std::string> read_results_dir(const std::string &dir);

} // namespace harness::runner
