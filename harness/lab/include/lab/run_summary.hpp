// One run boiled down to what a person opens a report for: per ordered
// device pair the worst outcome of every instance that touched it (all case
// families together), per pair the fastest copy, per family the counts, and
// the lab's verdicts when a baseline judged the run. Pure function of a
// results directory; report.html and `peer-harness trend` both draw from it.
#pragma once

#include "lab/results.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness::lab {

// How one instance counts, from harmless to worst: skipped, passed, passed
// with kernel warnings, failed as the baseline expects, failed and passed on
// a retry (flaky), failed.
enum class Outcome { skip, pass, warn, expected, flaky, fail };
const char *outcome_name(Outcome o); // skip pass warn expected-fail flaky fail
// `verdict` is the lab's (lab.json: Flake, ExpectedFail, ...), "" if unjudged.
Outcome outcome_of(report::Status s, const std::string &verdict);

struct Tally {
    int skip = 0, pass = 0, warn = 0, expected = 0, flaky = 0, fail = 0;
    Outcome worst = Outcome::skip;
    // The worst status among the instances of the worst outcome ("crash"
    // outranks "fail"): what the matrix cell says.
    std::optional<report::Status> worst_status;
    void add(Outcome o, report::Status s);
    int count() const { return skip + pass + warn + expected + flaky + fail; }
    int ran() const { return count() - skip; }
    int failing() const { return fail + flaky + expected; }
};

using DevicePair = std::pair<int, int>;

// The devices an instance is about: pair=a>b -> (a, b); triple=a>b+c (a
// third device watching a's mapping of b) -> (a, b); device=d -> (d, d).
std::optional<DevicePair> devices_of(const report::InstanceRecord &r);

struct RunSummary {
    int devices = 0;
    Tally total;
    std::map<DevicePair, Tally> pairs;
    Tally unpaired; // instances about the machine as a whole
    std::map<std::string, Tally> families;
    std::map<DevicePair, report::CopyFigure> best_copy; // fastest copy, by (src, dst)
    std::map<std::string, std::string> verdicts;        // lab.json: name -> verdict
    bool judged = false;                                // a baseline judged the run
    int regressions = 0;
    Outcome outcome(const report::InstanceRecord &r) const;
};

// `run.dir`'s lab.json, if any, supplies the verdicts.
RunSummary summarize(const RunResults &run);

// The worst status first (crash, timeout, dmesg-fail, fail, incomplete,
// dmesg-warn, pass, skip): a larger rank is worse.
int status_rank(report::Status s);

} // namespace harness::lab
