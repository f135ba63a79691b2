// Many instances in one forked child, deqp-runner style: the child runs its
// list in order and tells the parent over a pipe when each one starts and
// what it returned, so the parent journals every instance as it happens and
// applies the per-instance timeout to the instance that is running. When the
// child dies or is killed, the instance that was running gets the outcome a
// child of its own would have had (crash with the signal or exit code,
// timeout); the ones it never started are handed back for a new batch.
#pragma once

#include "runner/isolation.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace harness::runner {

struct BatchEvent {
    enum class Kind {
        started, // position `pos` began (journal its start now)
        ended,   // `pos` returned outcome.payload (outcome.kind == finished)
        lost,    // the child died or was killed while `pos` ran: crashed / timed_out
    } kind;
    size_t pos = 0;
    ChildOutcome outcome;
};

struct BatchWork {
    size_t count = 0;
    std::function<std::string(size_t pos)> run; // the instance's JSON result
    // Where its stdout/stderr go, written only when it printed something ("" or
    // no function: dropped).
    std::function<std::string(size_t pos)> log_path;
    // After `pos` ended and before the next one: restore the state a fresh
    // process has; false ends the batch there (the rest goes to a new child).
    std::function<bool(size_t pos)> between;
    // The child starts an instance only once the parent has handled the end
    // of the one before (BatchChild::handled): what the parent decides from a
    // result (--max-failures) then stops the batch right after it, however
    // fast the instances are. Costs a round trip per instance.
    bool lockstep = false;
};

// What the parent and the child share across the fork (one anonymous page).
struct BatchShared {
    std::atomic<bool> stop{false};    // no further instance (stop_after_current)
    std::atomic<uint64_t> handled{0}; // positions < this are handled by the parent
};

class BatchChild {
  public:
    BatchChild(const BatchWork &work, double timeout_s);
    ~BatchChild(); // kills (SIGKILL to its group) and reaps a child still running
    BatchChild(const BatchChild &) = delete;
    BatchChild &operator=(const BatchChild &) = delete;

    // Reads the child's messages, reaps it, applies the kill policy to the
    // running instance (and to a child stuck between instances); waits at most
    // `wait_ms`. Appends what happened to `events`; true once the child is gone.
    bool poll(int wait_ms, std::vector<BatchEvent> &events);
    // Positions never started by this child (valid once poll returned true).
    size_t first_unstarted() const { return next_start_; }
    // The child starts no further instance: it ends after the one it is
    // running (or at once, between two), and the rest is left unstarted.
    void stop_after_current();
    // The parent has journalled position `pos`'s end (BatchWork::lockstep).
    void handled(size_t pos);

  private:
    int fd_ = -1, pid_ = -1;
    BatchShared *shared_ = nullptr; // shared with the child (stop_after_current, handled)
    int capture_ = -1;              // the child's stdout/stderr (memfd; batch.cpp)
    double timeout_s_;
    std::function<std::string(size_t pos)> log_path_;
    size_t next_start_ = 0; // positions < this have started
    bool running_ = false;  // next_start_ - 1 is running (started, not ended)
    int signals_sent_ = 0;
    bool eof_ = false, reaped_ = false, spawn_failed_ = false;
    std::string buf_;
    std::chrono::steady_clock::time_point since_, last_signal_;
    void parse(std::vector<BatchEvent> &events);
    void finish(int status, std::vector<BatchEvent> &events);
};

// How many instances the next batch takes (guided self-scheduling): its share
// of the `left` instances among `jobs`, at most `cap` (--batch-size), at
// least `tail` (or `cap` when that is smaller). A child's start and its cold
// caches cost 40 ms (small instances) to 0.7 s (64Mi+1 copies) of CPU on
// mi300x-8, so batches should be long; but a long batch taken near the end
// leaves the other jobs idle while it runs. Shares shrink as the run ends, so
// the jobs finish together; `tail` keeps the last ones from paying a child
// start for a handful of instances.
size_t guided_batch_size(size_t left, size_t jobs, size_t cap, size_t tail = 32);

// The child's side of the pipe protocol (exposed for tests): a start record
// 'S' + position, an end record 'E' + position + the instance's duration in
// nanoseconds + payload length + payload; numbers as 8-byte host-order
// integers (both ends are the same binary). The duration is the child's own
// clock from before its start record to its end record: the parent reads
// both records of a short instance at once, whenever it next polls that
// child, so its own clock cannot time one instance.
std::string batch_start_record(size_t pos);
std::string batch_end_record(size_t pos, uint64_t duration_ns, const std::string &payload);

} // namespace harness::runner
