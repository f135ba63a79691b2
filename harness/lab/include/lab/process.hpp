// Starting a command and waiting for it: the lab layer re-runs peer-harness
// (retries, bisection steps, shrinking) as separate processes, because
// Catch2's test registry is process-wide.
#pragma once

#include <string>
#include <vector>

namespace harness::lab {

// Runs args[0] with args, stdout+stderr appended to `log` ("" = inherited).
// Exit status; 128+signal when killed; -errno when it could not start.
int run_process(const std::vector<std::string> &args, const std::string &log = "");
// This executable (/proc/self/exe).
std::string self_exe();
// args joined for a shell, each quoted where needed.
std::string shell_join(const std::vector<std::string> &args);
// The commit checked out in `repo` ("" when it is no git checkout).
std::string git_head(const std::string &repo);

} // namespace harness::lab
