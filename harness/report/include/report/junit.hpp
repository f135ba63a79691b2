// JUnit XML rendered from the journal after the run (Catch2's own junit
// reporter buffers until the end and knows nothing of skips with reasons or of
// crashed children; this one is derived from what is on disk, IGT-7).
#pragma once

#include "report/record.hpp"

#include <string>
#include <vector>

namespace harness::report {

std::string render_junit(const std::vector<InstanceRecord> &records, const std::string &run_name);

} // namespace harness::report
