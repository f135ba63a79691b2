// Shrinking by fewer steps (bisection, stage 3 of bisect-report's shrink):
// once the smallest failing instance is known, drop the steps of its case
// one at a time, last first, keeping a removal whenever the instance still
// fails the same way. Each try runs a generated case file holding only that
// case (the suite's other top-level keys kept), so the reproducer names a
// file with just the steps that matter.
#pragma once

#include "report/record.hpp"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace harness::lab {

// Where a case lives: the first file among the run's case paths (files or
// directories of *.yaml, as the loader takes them) whose `suite:` and case
// `name:` match.
struct CaseRef {
    std::string file;
    int index = 0;                  // position in the file's `cases:` list
    std::vector<bool> defines_name; // per step: it names a buffer/BO/job (`as:`)
};
std::variant<CaseRef, std::string> find_case(const std::vector<std::string> &case_paths,
                                             const std::string &suite, const std::string &kase);

// Writes `out`: the case's file with only that case, without the 1-based
// steps in `drop`. Error text, or nullopt on success.
std::optional<std::string> write_reduced_case(const CaseRef &ref, const std::set<int> &drop,
                                              const std::string &out);

// `command` (a `peer-harness run` command line, maybe behind the simulator
// launcher) with its `--cases` arguments replaced by the single `file`.
std::vector<std::string> with_cases(const std::vector<std::string> &command,
                                    const std::string &file);

// The same failure: same status and same first failure message (the step
// number, file and line move when steps go, so they are not compared); a
// record without step failures (crash, timeout) compares its reason.
bool same_failure(const report::InstanceRecord &a, const report::InstanceRecord &b);

// Runs one instance with `command` into results directory `dir`; its record
// when the run journaled it.
using InstanceRunner = std::function<std::optional<report::InstanceRecord>(
    const std::vector<std::string> &command, const std::string &dir)>;

struct StepShrink {
    int total = 0;         // steps of the case
    int removed = 0;       // steps dropped, the failure unchanged
    int tried = 0;         // runs made
    std::string case_file; // the reproducer's case file ("" when nothing was removed)
    std::string note;      // why stage 3 did not run, if it did not
};

// Stage 3 for the failing instance `failing` of `command`'s run, whose case
// paths are `case_paths`; case files and results go under `work`. Never
// tries the failing step, nor a step that names something later steps use.
StepShrink shrink_steps(const std::vector<std::string> &command,
                        const std::vector<std::string> &case_paths,
                        const report::InstanceRecord &failing, const std::string &work,
                        const InstanceRunner &run);

} // namespace harness::lab
