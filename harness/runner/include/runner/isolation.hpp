// Running one piece of work in a forked child so that a crash, abort or hang
// is observed, not suffered (IGT-6). The child gets its own process group,
// default signal dispositions (the parent's Catch2 handlers must not report a
// child's crash as the parent's), and its stdout/stderr redirected to a log
// file. It sends its result back as a string over a pipe.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace harness::runner {

struct ChildOutcome {
    enum class Kind { finished, crashed, timed_out, spawn_failed } kind = Kind::spawn_failed;
    std::string payload; // what the child sent (finished only)
    int exit_code = -1;  // when it exited
    int signal = 0;      // when a signal ended it
    double duration_s = 0;
    std::string describe() const; // "killed by SIGSEGV", "exited 1 without a result", ...
};

// The kill policy as a pure function of time (IGT-6): nothing before the
// limit, then SIGTERM, then SIGKILL if the child is still there `grace_s`
// after the last signal.
struct KillDecision {
    int signal = 0; // 0: keep waiting
};
KillDecision next_kill_signal(double elapsed_s, double limit_s, int signals_sent,
                              double since_last_signal_s, double grace_s);

// One child running `work`. `work` returns the payload; the child exits 0
// after sending it. `log_path` empty keeps the parent's stdout/stderr. Several
// may run at once (--jobs); each is polled without blocking the others.
class IsolatedChild {
  public:
    IsolatedChild(const std::function<std::string()> &work, double timeout_s,
                  const std::string &log_path);
    // A child still running is killed (SIGKILL to its group) and reaped.
    ~IsolatedChild();
    IsolatedChild(const IsolatedChild &) = delete;
    IsolatedChild &operator=(const IsolatedChild &) = delete;

    // Reads output, reaps, applies the kill policy; waits at most `wait_ms`.
    // True once the child is gone and outcome() is final.
    bool poll(int wait_ms);
    const ChildOutcome &outcome() const { return out_; }

  private:
    ChildOutcome out_;
    int fd_ = -1;
    int pid_ = -1;
    double timeout_s_;
    int signals_sent_ = 0;
    bool eof_ = false, reaped_ = false;
    std::chrono::steady_clock::time_point start_, last_signal_;
    void finish(int status);
};

// Shared by IsolatedChild and BatchChild (batch.hpp), in the child right after
// fork: own process group, killed with the runner, default signal
// dispositions but a stack trace in the log before a fatal signal kills it
// (crash_trace.hpp). False when the parent is already gone.
bool enter_isolated_child(int parent_pid);
// What a child that ended without a result did: timed_out when the kill
// policy signalled it, else crashed with its signal or exit code.
void classify_exit(int wait_status, bool signalled_by_us, ChildOutcome &out);

// Runs `work` in a child and waits for it.
ChildOutcome run_isolated(const std::function<std::string()> &work, double timeout_s,
                          const std::string &log_path);

} // namespace harness::runner
