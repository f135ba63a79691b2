// Which runtime a bisection's failures belong to: when the first bad
// commit's step holds a differential run (STEPS/<commit>/differential, made
// by `bisect-run --differential`), each failing instance is placed: ROCm's
// HIP fails it too (the kernel, or something both runtimes do), only this
// harness fails it (ROCm answers otherwise), or the differential run did not
// compare it.
#pragma once

#include "report/record.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace harness::lab {

struct RuntimeVerdict {
    std::string instance;
    std::string verdict; // "both runtimes", "this harness only", "not compared"
    std::string detail;  // ROCm's answer, the CONTRACT.md row, ...
};

struct RuntimeVerdicts {
    bool available = false; // the step has a differential run
    std::string summary;    // its closing line
    std::vector<RuntimeVerdict> rows;
};

// Reads STEP/differential/differential.json; `failing` are the step's failing records.
RuntimeVerdicts runtime_verdicts(const std::filesystem::path &step_dir,
                                 const std::vector<report::InstanceRecord> &failing);

std::string runtime_verdicts_markdown(const RuntimeVerdicts &v);
std::string runtime_verdicts_html(const RuntimeVerdicts &v);

} // namespace harness::lab
