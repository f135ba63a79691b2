// Running this executable again as a child: detect's scenario runs and
// topology dumps, the contract step's MMIO map probe. One place for the
// spawn, the pipe and the wait, so every such child is started, read and
// reaped the same way.
#pragma once

#include <string>
#include <vector>

namespace harness::runner {

struct SelfRunOptions {
    // Drop PEER_HARNESS_SIMULATOR from the child's environment: a detect
    // child starts a simulator of its own (with its own fault scenario), the
    // probe must stay on the one it runs under.
    bool leave_simulator = false;
    // >= 0: the child's stdout and stderr go to this file and nothing is
    // captured (a whole run's log). -1: stdout is captured, stderr inherited.
    int log_fd = -1;
};

struct SelfRunResult {
    bool started = false; // false: /proc/self/exe, pipe or posix_spawn failed (`error` says)
    int exit_code = 127;  // exit status, or 128 + signal
    std::string out;      // captured stdout (log_fd < 0)
    std::string error;
};

// Runs /proc/self/exe with `args` (without argv[0]) and waits for it.
SelfRunResult run_self(const std::vector<std::string> &args, const SelfRunOptions &opt = {});

} // namespace harness::runner
