#include "runner/isolation.hpp"

#include "crash_trace.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::runner {

namespace {

// Points stdout/stderr at `log_path` (truncated).
void redirect_output(const std::string &log_path) {
    std::fflush(nullptr);
    int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        ::close(fd);
    }
}

std::string signal_name(int sig) {
    const char *abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

[[noreturn]] void child_main(const std::function<std::string()> &work, int out_fd,
                             const std::string &log_path, pid_t parent) {
    if (!enter_isolated_child(parent)) _exit(127);
    if (!log_path.empty()) redirect_output(log_path);
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

bool enter_isolated_child(int parent) {
    setpgid(0, 0);
    // If the runner dies (killed, machine watchdog), its children go with it:
    // no orphaned instance keeps a GPU job running while a resumed run starts.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) return false;
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT, SIGPIPE})
        std::signal(sig, SIG_DFL);
    detail::install_crash_trace();
    // An instance allocates host buffers as large as its GPU buffers (the
    // expected bytes, the read-back) and frees them at its end. glibc would
    // mmap each one above 32 MiB and unmap it on free, so the next instance
    // of a batch faults in and zeroes the same pages again: about a fifth of
    // a 64 MiB copy instance (measured: 445 -> 348 ms on mi300x-8). Keep them
    // in the heap instead; a child lives for one batch.
    mallopt(M_MMAP_THRESHOLD, 512 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    return true;
}

void classify_exit(int status, bool signalled_by_us, ChildOutcome &out) {
    if (signalled_by_us) {
        out.kind = ChildOutcome::Kind::timed_out;
    } else if (WIFSIGNALED(status)) {
        out.kind = ChildOutcome::Kind::crashed;
        out.signal = WTERMSIG(status);
    } else {
        out.kind = ChildOutcome::Kind::crashed;
        out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
}

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

IsolatedChild::IsolatedChild(const std::function<std::string()> &work, double timeout_s,
                             const std::string &log_path)
    : timeout_s_(timeout_s) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        reaped_ = eof_ = true; // outcome stays spawn_failed
        return;
    }
    std::fflush(nullptr); // nothing buffered may be written twice (IGT-6)
    start_ = last_signal_ = std::chrono::steady_clock::now();
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        reaped_ = eof_ = true;
        return;
    }
    if (pid == 0) {
        ::close(fds[0]);
        child_main(work, fds[1], log_path, parent);
    }
    setpgid(pid, pid); // also from the parent: no race with the child's own call
    ::close(fds[1]);
    fd_ = fds[0];
    pid_ = pid;
}

IsolatedChild::~IsolatedChild() {
    if (!reaped_ && pid_ > 0) {
        kill(-pid_, SIGKILL);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    if (fd_ >= 0) ::close(fd_);
}

bool IsolatedChild::poll(int wait_ms) {
    using clock = std::chrono::steady_clock;
    if (reaped_) return true;
    auto seconds = [](clock::time_point t) {
        return std::chrono::duration<double>(clock::now() - t).count();
    };
    if (!eof_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, wait_ms) > 0) {
            char buf[65536];
            ssize_t n = ::read(fd_, buf, sizeof buf);
            if (n > 0)
                out_.payload.append(buf, static_cast<size_t>(n));
            else if (n == 0 || errno != EINTR)
                eof_ = true;
        }
    } else if (wait_ms > 0) {
        usleep(static_cast<useconds_t>(std::min(wait_ms, 10)) * 1000);
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
        finish(status);
        return true;
    }
    KillDecision k =
        next_kill_signal(seconds(start_), timeout_s_, signals_sent_, seconds(last_signal_), 2.0);
    if (k.signal) {
        kill(-pid_, k.signal);
        ++signals_sent_;
        last_signal_ = clock::now();
    }
    return false;
}

void IsolatedChild::finish(int status) {
    reaped_ = true;
    // Drain what the child wrote before exiting.
    while (!eof_) {
        char buf[65536];
        ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n > 0)
            out_.payload.append(buf, static_cast<size_t>(n));
        else
            eof_ = true;
    }
    out_.duration_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (signals_sent_ == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        !out_.payload.empty()) {
        out_.kind = ChildOutcome::Kind::finished;
        out_.exit_code = 0;
    } else {
        classify_exit(status, signals_sent_ > 0, out_);
    }
}

ChildOutcome run_isolated(const std::function<std::string()> &work, double timeout_s,
                          const std::string &log_path) {
    IsolatedChild child(work, timeout_s, log_path);
    while (!child.poll(50)) {
    }
    return child.outcome();
}

} // namespace harness::runner
