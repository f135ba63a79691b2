// results.csv in deqp-runner's shape (name,status,duration), sorted by name
// so runs diff cleanly and a failures list can become a baseline (DR-3).
// Fields are quoted when they need it, so any name round-trips.
#pragma once

#include "report/record.hpp"

#include <string>
#include <vector>

namespace harness::report {

// deqp-runner's status words: Pass, Fail, Skip, Crash, Timeout (and
// Incomplete for an instance the runner died in).
const char *csv_status(Status s);
std::string render_csv(const std::vector<InstanceRecord> &records);

// bandwidth.csv: one row per measured copy, kept out of results.csv so that
// file stays in deqp-runner's three columns. Header line first; sorted by
// name then step. pct_peak is empty where the link's peak is unknown.
// name,step,src,dst,bytes,ns,gbps,clock,link,peak_gbps,pct_peak,simulated
std::string render_bandwidth_csv(const std::vector<InstanceRecord> &records);

} // namespace harness::report
