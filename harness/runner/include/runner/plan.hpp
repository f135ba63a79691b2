// What every command needs before it can run or list anything: the loaded
// suites, the machine's topology and the expanded instances, with the
// disruptive policy applied. Diagnostics are printed; nullopt means exit 2.
#pragma once

#include "cases/expand.hpp"
#include "cases/topology.hpp"
#include "runner/settings.hpp"

#include <optional>
#include <vector>

namespace harness::runner {

struct Plan {
    std::vector<cases::Suite> suites;
    cases::Topology topology;
    std::vector<cases::Instance> instances;
    // Set when the machine disagrees with its manifest in a way no instance
    // can express (the device count): the run is a failure (exit 1).
    std::string manifest_mismatch;
    // Set when no manifest was given and the kernel shows no GPU: an error
    // with its own exit code (kNoDeviceExit), never an all-skipped green run.
    std::string no_device;
};

// Exit code of a run that found no GPU and had no manifest saying so.
inline constexpr int kNoDeviceExit = 3;

// `saved`: the topology a resumed run was expanded over (no probe then).
std::optional<Plan> make_plan(const RunSettings &s, const cases::Topology *saved);

void print_diagnostics(const cases::Diagnostics &d);

} // namespace harness::runner
