// `peer-harness differential`: the HIP-level case files run twice on one
// machine, through the harness's peer API and through ROCm's own HIP
// (libamdhip64, loaded at run time), and compared step by step: every step's
// answer (the code of the call it checked, or whether its check held, which
// for `verify` is every checked byte range). A difference is `documented`
// when harness/peer/CONTRACT.md §4 lists it as a deliberate divergence from
// ROCm (differential_rules.cpp), else `unexplained`; steps ROCm's runtime
// cannot take on the simulator (runner/src/rocm_steps.cpp) are `not
// comparable`, with the reason, and counted.
#pragma once

#include "cases/topology.hpp"
#include "report/record.hpp"
#include "runner/settings.hpp"

#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace harness::runner {

// What a rule may ask besides the answers: the machine (the harness run's
// topology, over the GPUs both runtimes list) and the instance.
struct DiffContext {
    const cases::Topology *topology = nullptr; // nullptr: unknown
    const report::InstanceRecord *instance = nullptr;
};

// A CONTRACT.md §4 row as the differential recognises it in two answers.
struct DocumentedDifference {
    const char *step_kind;    // the case language's step name ("" any)
    const char *harness;      // the harness's answer ("" any)
    const char *rocm;         // ROCm's answer; "crash" for a crash during the step
    const char *case_pattern; // substring of "suite/case" ("" any)
    const char *contract;     // the row's first cell in CONTRACT.md §4, verbatim
    bool (*applies)(const DiffContext &) = nullptr; // a condition on the machine, or none
};
std::span<const DocumentedDifference> documented_differences();

// What a step is, for rules and the table.
struct StepInfo {
    std::string kind;  // step name ("memcpy_peer")
    std::string where; // file:line
};
// (suite, case, 1-based step) -> StepInfo; nullopt-like empty kind when unknown.
using StepLookup =
    std::function<StepInfo(const std::string &suite, const std::string &kase, int step)>;

struct DiffRow {
    bool documented = false;
    std::string instance; // the harness's instance
    int step = 0;
    StepInfo info;
    std::string harness, rocm; // the two answers
    std::string contract;      // documented: the §4 row
};

struct DiffSummary {
    size_t compared = 0;       // steps with an answer from both runtimes, compared
    size_t both_failed = 0;    // of those, steps that failed on both (a fault both see)
    size_t not_comparable = 0; // steps of the case files not compared
    std::map<std::string, size_t> not_comparable_reasons;
    std::vector<DiffRow> rows; // every difference, documented or not
    std::vector<std::string> both_failed_instances;
    size_t documented() const;
    size_t unexplained() const;
};

// What a process that died mid-instance had answered: the answers its log
// traced and the step it died in (0: none).
struct Trace {
    std::vector<report::StepAnswer> answers;
    int crashed_in = 0;
};
// In a record-answers run each process writes "step N" before a step and
// "answer N: A" after it to its output (the instance's log).
Trace trace_of(const std::string &log_text);

// Compares the harness's records with ROCm's (matched by name without the
// `path` parameter: ROCm's runtime runs only the path=kfd twin, where there
// is one). `trace` gives, for a crashed or timed-out record, what its log
// traced.
DiffSummary compare_runs(const std::vector<report::InstanceRecord> &harness,
                         const std::vector<report::InstanceRecord> &rocm, const StepLookup &steps,
                         const std::function<Trace(const report::InstanceRecord &)> &trace,
                         const cases::Topology *topology = nullptr,
                         std::span<const DocumentedDifference> rules = documented_differences());

// The table and the closing line "N steps compared, D documented
// differences, U unexplained, X not comparable".
std::string render_differential(const DiffSummary &d);

// The instance's name without its `path=...` component.
std::string differential_key(const std::string &instance);

struct DifferentialOptions {
    std::string results = "peer-differential"; // DIR/harness, DIR/rocm, DIR/differential.*
    bool compare_only = false;                 // re-compare DIR's two runs
};

// Exit: 0 no unexplained difference, 1 some (or a run that could not be
// compared), 2 bad input or ROCm's HIP missing.
int differential_command(const RunSettings &s, const DifferentialOptions &o);

// Internal (`peer-harness rocm-devices`): ROCm's GPUs as KFD indexes, in
// ROCm's order, one per line ("<kfd index> <pci slot>"). Exit 2 when ROCm's
// HIP cannot be loaded or a GPU cannot be matched.
int rocm_devices_command(std::ostream &out);

} // namespace harness::runner
