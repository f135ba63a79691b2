#include "runner/isolation.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::runner {

namespace {

std::string signal_name(int sig) {
    const char *abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

[[noreturn]] void child_main(const std::function<std::string()> &work, int out_fd,
                             const std::string &log_path, pid_t parent) {
    setpgid(0, 0);
    // If the runner dies (killed, machine watchdog), its children go with it:
    // no orphaned instance keeps a GPU job running while a resumed run starts.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT, SIGPIPE})
        std::signal(sig, SIG_DFL);
    if (!log_path.empty()) {
        int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            ::close(fd);
        }
    }
    std::string payload = work();
    size_t done = 0;
    while (done < payload.size()) {
        ssize_t n = ::write(out_fd, payload.data() + done, payload.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    ::close(out_fd);
    std::fflush(nullptr);
    // _exit: no atexit handlers or static destructors of the parent's image
    // (Catch2's session, the journal) may run in the child.
    _exit(0);
}

} // namespace

std::string ChildOutcome::describe() const {
    switch (kind) {
    case Kind::finished:
        return "finished";
    case Kind::timed_out:
        return "timed out after " + std::to_string(duration_s) + " s";
    case Kind::spawn_failed:
        return "could not start a child process";
    case Kind::crashed:
        if (signal) return "killed by " + signal_name(signal);
        return "exited with code " + std::to_string(exit_code) + " without reporting a result";
    }
    return "?";
}

KillDecision next_kill_signal(double elapsed_s, double limit_s, int signals_sent,
                              double since_last_signal_s, double grace_s) {
    if (elapsed_s < limit_s) return {};
    if (signals_sent == 0) return {SIGTERM};
    if (since_last_signal_s >= grace_s) return {SIGKILL};
    return {};
}

ChildOutcome run_isolated(const std::function<std::string()> &work, double timeout_s,
                          const std::string &log_path) {
    using clock = std::chrono::steady_clock;
    ChildOutcome out;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return out;
    std::fflush(nullptr); // nothing buffered may be written twice (IGT-6)
    const auto start = clock::now();
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return out;
    }
    if (pid == 0) {
        ::close(fds[0]);
        child_main(work, fds[1], log_path, parent);
    }
    setpgid(pid, pid); // also from the parent: no race with the child's own call
    ::close(fds[1]);

    auto seconds = [&](clock::time_point t) {
        return std::chrono::duration<double>(clock::now() - t).count();
    };
    int signals_sent = 0;
    auto last_signal = start;
    bool eof = false;
    int status = 0;
    bool reaped = false;
    while (!reaped) {
        if (!eof) {
            pollfd p{fds[0], POLLIN, 0};
            int r = poll(&p, 1, 50);
            if (r > 0) {
                char buf[65536];
                ssize_t n = ::read(fds[0], buf, sizeof buf);
                if (n > 0)
                    out.payload.append(buf, static_cast<size_t>(n));
                else if (n == 0 || errno != EINTR)
                    eof = true;
            }
        } else {
            usleep(10000);
        }
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            reaped = true;
            break;
        }
        KillDecision k =
            next_kill_signal(seconds(start), timeout_s, signals_sent, seconds(last_signal), 2.0);
        if (k.signal) {
            kill(-pid, k.signal);
            ++signals_sent;
            last_signal = clock::now();
        }
    }
    // Drain what the child wrote before exiting.
    while (!eof) {
        char buf[65536];
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n > 0)
            out.payload.append(buf, static_cast<size_t>(n));
        else
            eof = true;
    }
    ::close(fds[0]);
    out.duration_s = seconds(start);
    if (signals_sent > 0) {
        out.kind = ChildOutcome::Kind::timed_out;
    } else if (WIFSIGNALED(status)) {
        out.kind = ChildOutcome::Kind::crashed;
        out.signal = WTERMSIG(status);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !out.payload.empty()) {
        out.kind = ChildOutcome::Kind::finished;
        out.exit_code = 0;
    } else {
        out.kind = ChildOutcome::Kind::crashed;
        out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return out;
}

} // namespace harness::runner
