#include "self_process.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace harness::runner {

namespace {

std::string self_exe() {
    char path[4096];
    const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return "";
    return std::string(path, size_t(n));
}

// The environment as it is, or without PEER_HARNESS_SIMULATOR.
std::vector<char *> child_environment(bool leave_simulator) {
    static constexpr char kVar[] = "PEER_HARNESS_SIMULATOR=";
    std::vector<char *> env;
    for (char **e = environ; *e; ++e)
        if (!leave_simulator || std::strncmp(*e, kVar, sizeof kVar - 1) != 0) env.push_back(*e);
    env.push_back(nullptr);
    return env;
}

} // namespace

SelfRunResult run_self(const std::vector<std::string> &args, const SelfRunOptions &opt) {
    SelfRunResult r;
    const std::string self = self_exe();
    if (self.empty()) {
        r.error = "readlink(/proc/self/exe) failed";
        return r;
    }
    int out[2] = {-1, -1};
    if (opt.log_fd < 0 && ::pipe2(out, O_CLOEXEC) != 0) {
        r.error = std::string("pipe2: ") + std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (opt.log_fd >= 0) {
        posix_spawn_file_actions_adddup2(&fa, opt.log_fd, 1);
        posix_spawn_file_actions_adddup2(&fa, opt.log_fd, 2);
    } else {
        posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    }
    std::vector<std::string> owned{self};
    owned.insert(owned.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (auto &a : owned)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char *> env = child_environment(opt.leave_simulator);
    pid_t pid = -1;
    // posix_spawn, not fork: a full-depth plan makes this process large, and
    // copying its page tables for a child that execs at once is wasted.
    const int e = ::posix_spawn(&pid, self.c_str(), &fa, nullptr, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&fa);
    if (out[1] >= 0) ::close(out[1]);
    char buf[4096];
    for (ssize_t n; e == 0 && out[0] >= 0 && (n = ::read(out[0], buf, sizeof buf)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        r.out.append(buf, size_t(n));
    }
    if (out[0] >= 0) ::close(out[0]);
    if (e != 0) {
        r.error = "posix_spawn(" + self + "): " + std::strerror(e);
        return r;
    }
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    r.started = true;
    r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return r;
}

} // namespace harness::runner
