// Expectations in deqp-runner / drm-ci form and the
// verdicts they turn raw results into:
//
//   <type>-fails.txt   `name,Status` lines (Status as in results.csv: Fail, Crash, Timeout, ...)
//   <type>-flakes.txt  one regex per line; a failing instance that matches is a Flake
//   <type>-skips.txt   one regex per line; matching instances are not run
//
// `#` starts a comment line; blank lines are ignored. Regexes are ECMAScript
// and must match the whole instance name (deqp-runner anchors them the same way).
// <type> is the machine type (simulated machine name, or --machine-type).
#pragma once

#include "report/record.hpp"

#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace harness::lab {

struct Pattern {
    std::string text;  // as written
    std::string where; // file:line
    std::regex re;
};

struct Expectations {
    std::map<std::string, std::string> fails; // name -> status word
    std::map<std::string, std::string> fails_where;
    std::vector<Pattern> flakes, skips;
    std::vector<std::string> files; // the files that were found and read
};

// `file:line:col: what was expected` diagnostics; empty when all is well.
struct LoadedExpectations {
    Expectations exp;
    std::vector<std::string> errors;
};

// Reads DIR/<type>-{fails,flakes,skips}.txt; a missing file is an empty list.
// A missing DIR is an error.
LoadedExpectations load_expectations(const std::string &dir, const std::string &machine_type);
// One file's text (tests and the loader share it). `kind`: fails|flakes|skips.
void parse_expectation_text(const std::string &text, const std::string &file,
                            const std::string &kind, LoadedExpectations &into);

// The first skip/flake pattern matching `name`, or nullptr.
const Pattern *match(const std::vector<Pattern> &ps, const std::string &name);

// The lab's verdict on one instance once expectations and retries are applied.
enum class Verdict { pass, skip, expected_fail, unexpected_pass, flake, regression };
const char *verdict_name(Verdict v); // Pass, Skip, ExpectedFail, UnexpectedPass, Flake, Regression
bool gates(Verdict v);               // only regressions fail the run

struct Judged {
    std::string name;
    report::Status status;   // the first run's status
    std::string status_word; // its results.csv word
    Verdict verdict;
    std::string why;                     // expectation line, flake regex, or retry outcome
    std::vector<report::Status> retries; // statuses of the re-runs, in order
};

// Re-runs the named instances once and returns their statuses (an instance
// missing from the answer counts as not passing). The real one re-executes
// the runner; tests script it.
using RetryExecutor =
    std::function<std::map<std::string, report::Status>(const std::vector<std::string> &, int)>;

// Applies expectations to a run, retrying instances that fail unexpectedly
// up to `retries` times (a pass on any retry makes them a Flake, as
// deqp-runner does). Result in run order.
std::vector<Judged> judge(const std::vector<report::InstanceRecord> &records,
                          const Expectations &exp, int retries, const RetryExecutor &rerun);

// deqp-runner's status word for a raw status, and back (every status, so
// words added with new statuses are accepted in fails files).
std::string status_word(report::Status s);
bool known_status_word(const std::string &w);

// A fails file from a run: every instance that did not succeed and was not a
// Flake, `name,Status`, sorted, with a comment header.
std::string render_fails_file(const std::vector<report::InstanceRecord> &records,
                              const std::vector<Judged> *judged, const std::string &header);

// deqp-runner-style outputs of a judged run.
std::string render_judged_csv(const std::vector<Judged> &j);     // name,Verdict-or-Status
std::string render_judged_summary(const std::vector<Judged> &j); // counts + regressions
int regressions(const std::vector<Judged> &j);

} // namespace harness::lab
