// Which documented function/code pairs (harness/peer/CONTRACT.md §1) a set of case
// instances asserts: a pair counts when a non-skipped instance runs a step of
// that function expecting exactly that code.
#pragma once

#include "cases/expand.hpp"
#include "cases/hip_codes.hpp"

#include <string>
#include <vector>

namespace harness::runner {

struct PairCoverage {
    cases::DocumentedPair pair;
    int instances = 0;          // instances asserting it
    std::string first_instance; // one of them, for the report
};

std::vector<PairCoverage> documented_coverage(const std::vector<cases::Instance> &instances);

// The table printed by `peer-harness coverage`; ends with the missing count.
std::string render_coverage(const std::vector<PairCoverage> &c);

} // namespace harness::runner
