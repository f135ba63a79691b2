// `--machine NAME|FILE`: run this very command again under the simulator
// launcher, so nobody has to type LD_PRELOAD. The re-executed process sees
// PEER_HARNESS_SIMULATOR set and does not re-execute again.
#pragma once

#include <string>

namespace harness::cli {

// Path of amdgpu-sim: $PEER_HARNESS_AMDGPU_SIM, the build tree's launcher, a
// sibling of this executable, or PATH. Empty when none is found.
std::string find_amdgpu_sim();

// The machine file a --machine name stands for: the argument when it is a
// file, else fixtures/machines/<name>.yaml of this source tree.
std::string resolve_machine_file(const std::string &machine);

// Replaces this process by `amdgpu-sim --machine M [--faults F] -- <self>
// <args...>`. Returns only on failure, with the reason.
std::string reexec_under_simulator(const std::string &machine, const std::string &faults, int argc,
                                   char **argv);

} // namespace harness::cli
