// `--machine NAME|FILE`: run this very command again under the simulator
// launcher, so nobody has to type LD_PRELOAD. The re-executed process sees
// PEER_HARNESS_SIMULATOR set and does not re-execute again.
#pragma once

#include <string>

namespace harness::cli {

// Path of amdgpu-sim: $PEER_HARNESS_AMDGPU_SIM, the build tree's launcher, a
// sibling of this executable, or PATH. Empty when none is found.
std::string find_amdgpu_sim();

// Replaces this process by `amdgpu-sim --machine M -- <self> <args...>`.
// Returns only on failure, with the reason.
std::string reexec_under_simulator(const std::string &machine, int argc, char **argv);

} // namespace harness::cli
