// Whether a fault scenario (fixtures/faults/*.yaml, format in its README) can
// fire on a machine at all, decided before anything runs from the machine
// manifest and the scenario's kinds and scopes: a scenario whose fault site
// does not exist here (no pair that the peer rule refuses, no import that
// leaves VRAM, a GPU the machine lacks) is "not applicable", with the reason,
// instead of a miss. Rules come from the manifest's own peer rules
// (harness/manifest/rules.hpp), never from the simulator or the kernel under
// test.
#pragma once

#include "manifest/manifest.hpp"

#include <string>

namespace harness::runner {

struct Applicability {
    bool applicable = true;
    std::string reason; // why not (empty when applicable)
};

// A scenario is applicable when at least one of its faults is. A file that
// does not parse is applicable: the run reports it as bad input.
Applicability scenario_applicability(const manifest::Manifest &m, const std::string &path);

// The same from the scenario's text (tests).
Applicability scenario_applicability_of(const manifest::Manifest &m, const std::string &yaml);

} // namespace harness::runner
