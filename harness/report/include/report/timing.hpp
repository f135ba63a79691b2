// Where a run's time went, from its records: instance time per case family
// (optionally split by the value of one parameter, such as path or size) and,
// within each, the time of each step (InstanceRecord::step_times).
#pragma once

#include "report/record.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace harness::report {

struct StepTotal {
    double ms = 0;
    int runs = 0; // instances in which the step ran
};

struct FamilyTime {
    std::string family; // suite/case
    std::string group;  // value of the split parameter ("" without one)
    int instances = 0;
    double seconds = 0;             // sum of the instances' durations
    std::map<int, StepTotal> steps; // by 1-based step index
};

struct Timing {
    std::vector<FamilyTime> rows; // largest `seconds` first, then by name
    int instances = 0;
    double seconds = 0;
};

// `by`: a parameter name; instances without it form the group "-".
Timing time_by_family(const std::vector<InstanceRecord> &records, const std::string &by);

// Names a family's step (the case file's step kind), "" when unknown.
using StepNamer = std::function<std::string(const std::string &family, int step)>;

// The `top` largest rows (0: all), each followed by its steps' totals.
std::string render_timing(const Timing &t, const std::string &by, size_t top,
                          const StepNamer &name);

} // namespace harness::report
