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

// glibc's malloc in transparent huge pages (GLIBC_TUNABLES
// glibc.malloc.hugetlb=1, glibc 2.35 and later). A full-depth plan holds
// 400,000 instances, about 1.2 GB of small heap objects, and every batch
// child is forked from that heap: in 4 KiB pages that is 300,000 page faults
// to build and page tables to copy at each fork, which on a virtualised host
// (about 18 us a page) cost more than the instances themselves. Measured on
// mi300x-8, full depth, 1,176 small instances: 28.7 s before, 14.5 s after;
// the plan alone 17.2 s and 9.9 s. glibc reads tunables only at start, so
// this re-executes the command once with the tunable added (first, before
// any the user set, so /proc/PID/environ shows it: glibc cuts the string
// at the first ':' in place). Left alone: an
// environment that already names glibc.malloc.hugetlb (any value is the
// user's choice), a setuid start, or a failed exec (the command then runs as
// it is). Returns only when it did not re-execute.
void reexec_with_huge_page_heap(char **argv);

// Replaces this process by `amdgpu-sim --machine M [--faults F] -- <self>
// <args...>`. Returns only on failure, with the reason.
std::string reexec_under_simulator(const std::string &machine, const std::string &faults, int argc,
                                   char **argv);

} // namespace harness::cli
