// A results directory read back as the lab layer needs it: metadata (with
// the fingerprint), the records of the journal, and the lab's own outputs.
#pragma once

#include "report/record.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

namespace harness::lab {

struct RunResults {
    std::string dir;
    nlohmann::json metadata; // metadata.json (null when missing)
    std::vector<report::InstanceRecord> records;
    std::vector<std::string> problems; // unreadable journal lines
};

// Error text when DIR has no journal.
std::variant<RunResults, std::string> read_run(const std::string &dir);

// The file names the lab layer adds to a results directory.
// A Catch2 test spec that selects exactly the instance `name` (its special
// characters escaped).
std::string exact_spec(const std::string &name);

namespace files {
inline constexpr const char *kLabJson = "lab.json";                 // verdicts + retries
inline constexpr const char *kBaselineCsv = "baseline-results.csv"; // name,Verdict
inline constexpr const char *kFailuresCsv = "failures.csv";         // regressions, deqp-style
inline constexpr const char *kBaselineSummary = "baseline-summary.txt";
inline constexpr const char *kRetriesDir = "retries";
inline constexpr const char *kHtml = "report.html";
} // namespace files

} // namespace harness::lab
