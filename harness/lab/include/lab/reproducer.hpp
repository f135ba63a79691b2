// The command that re-runs exactly one instance of a results directory as it
// ran: the same simulated machine and fault scenario (or the real GPUs and
// their manifest), case files, depth and seed, and a test spec that selects
// only that instance.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace harness::lab {

// `metadata` is the run's metadata.json; a shell command line.
std::string reproducer_command(const nlohmann::json &metadata, const std::string &instance);

} // namespace harness::lab
