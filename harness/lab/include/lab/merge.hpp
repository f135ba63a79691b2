// Shard results joined into one run: the shards of one
// run (same settings, cases and topology, shard I/N for every I) become one
// results directory equal to the unsharded run's, so every report and
// `compare` work on it unchanged.
#pragma once

#include "lab/results.hpp"

#include <string>
#include <vector>

namespace harness::lab {

// Checks the shards belong together; error texts (empty: they do).
std::vector<std::string> check_shards(const std::vector<RunResults> &shards);

// Writes the merged run into `out` (created; must not hold a journal).
// Error text, empty on success.
std::string write_merged(const std::vector<RunResults> &shards, const std::string &out);

// What differs between two runs' verdicts, instance by instance (status,
// reason, failures, kernel errors; not durations or log paths). Empty: the
// same results.
std::vector<std::string> record_differences(const std::vector<report::InstanceRecord> &a,
                                            const std::vector<report::InstanceRecord> &b);

} // namespace harness::lab
