#include "runner/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::runner {

namespace {

using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
}

void put_u64(std::string &out, uint64_t v) {
    out.append(reinterpret_cast<const char *>(&v), sizeof v);
}

uint64_t get_u64(const std::string &in, size_t at) {
    uint64_t v = 0;
    std::memcpy(&v, in.data() + at, sizeof v);
    return v;
}

bool write_all(int fd, const std::string &s) {
    size_t done = 0;
    while (done < s.size()) {
        ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

// Output capture. A batch child's stdout and stderr are one memory file for
// its whole life, emptied before each instance; what an instance printed is
// written to its log file after it returns, and only when there is
// something. Full depth prints nothing in 404k instances, and a file per
// instance, created by the child and unlinked again by the parent, cost
// about 0.1 ms of the child's time each. The parent holds the same memory
// file: after a crash or a timeout it saves what the culprit printed.

// Empties the capture; stdout and stderr share its offset, so one rewind
// starts both afresh.
void restart_capture(int capture) {
    std::fflush(nullptr);
    if (ftruncate(capture, 0) == 0) lseek(capture, 0, SEEK_SET);
}

// Copies what the capture holds to `path`, created only when there is
// something; "" drops it (as /dev/null did before the capture).
void save_capture(int capture, const std::string &path) {
    struct stat st {};
    if (path.empty() || capture < 0 || fstat(capture, &st) != 0 || st.st_size <= 0) return;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    std::string buf(static_cast<size_t>(std::min<off_t>(st.st_size, 1 << 20)), '\0');
    for (off_t at = 0; at < st.st_size;) {
        const ssize_t n = pread(capture, buf.data(), buf.size(), at);
        if (n <= 0 || !write_all(fd, buf.substr(0, static_cast<size_t>(n)))) break;
        at += n;
    }
    ::close(fd);
}

// Lockstep: waits until the parent has handled `pos` instances' ends, or has
// asked for no further one.
void wait_for_parent(const BatchShared &shared, size_t pos) {
    while (shared.handled.load() < pos && !shared.stop.load())
        usleep(20);
}

[[noreturn]] void batch_child_main(const BatchWork &work, int out_fd, int capture, pid_t parent,
                                   const BatchShared *shared) {
    if (!enter_isolated_child(parent)) _exit(127);
    std::fflush(nullptr);
    dup2(capture, STDOUT_FILENO);
    dup2(capture, STDERR_FILENO);
    for (size_t pos = 0; pos < work.count; ++pos) {
        // The parent asked for no further instance (stop_after_current): the
        // rest is handed back unstarted, exactly as after an early end.
        if (shared && work.lockstep && pos > 0) wait_for_parent(*shared, pos);
        if (shared && shared->stop.load()) break;
        // Emptied before the start record: once the parent knows `pos`
        // started, the capture holds nothing older.
        restart_capture(capture);
        const auto began = std::chrono::steady_clock::now();
        if (!write_all(out_fd, batch_start_record(pos))) _exit(3);
        std::string payload = work.run(pos);
        std::fflush(nullptr);
        // Saved before the end record: the parent looks for the log then.
        save_capture(capture, work.log_path ? work.log_path(pos) : std::string());
        const auto took = std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now() - began);
        if (!write_all(out_fd, batch_end_record(pos, static_cast<uint64_t>(took.count()), payload)))
            _exit(3);
        // Output of the reset belongs to no instance: the next restart drops it.
        if (pos + 1 < work.count && !work.between(pos)) break;
    }
    ::close(out_fd);
    // _exit: no atexit handlers or static destructors of the parent's image.
    _exit(0);
}

} // namespace

std::string batch_start_record(size_t pos) {
    std::string r(1, 'S');
    put_u64(r, pos);
    return r;
}

std::string batch_end_record(size_t pos, uint64_t duration_ns, const std::string &payload) {
    std::string r(1, 'E');
    put_u64(r, pos);
    put_u64(r, duration_ns);
    put_u64(r, payload.size());
    return r + payload;
}

BatchChild::BatchChild(const BatchWork &work, double timeout_s)
    : timeout_s_(timeout_s), log_path_(work.log_path) {
    since_ = last_signal_ = clock::now();
    int fds[2];
    capture_ = memfd_create("peer-harness-batch-output", MFD_CLOEXEC);
    if (capture_ < 0 || pipe2(fds, O_CLOEXEC) != 0) {
        reaped_ = eof_ = spawn_failed_ = true;
        return;
    }
    // What the parent sets and the child reads before each instance, shared
    // across the fork.
    void *page = mmap(nullptr, sizeof(BatchShared), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED) shared_ = new (page) BatchShared();
    std::fflush(nullptr); // nothing buffered may be written twice (IGT-6)
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        reaped_ = eof_ = spawn_failed_ = true;
        return;
    }
    if (pid == 0) {
        ::close(fds[0]);
        batch_child_main(work, fds[1], capture_, parent, shared_);
    }
    setpgid(pid, pid);
    ::close(fds[1]);
    fd_ = fds[0];
    pid_ = pid;
}

BatchChild::~BatchChild() {
    if (!reaped_ && pid_ > 0) {
        kill(-pid_, SIGKILL);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    if (fd_ >= 0) ::close(fd_);
    if (capture_ >= 0) ::close(capture_);
    if (shared_) munmap(shared_, sizeof(BatchShared));
}

void BatchChild::stop_after_current() {
    if (shared_) shared_->stop.store(true);
}

void BatchChild::handled(size_t pos) {
    if (shared_) shared_->handled.store(pos + 1);
}

void BatchChild::parse(std::vector<BatchEvent> &events) {
    constexpr size_t kHead = 1 + sizeof(uint64_t);
    for (;;) {
        if (buf_.size() < kHead) return;
        const size_t pos = get_u64(buf_, 1);
        if (buf_[0] == 'S') {
            buf_.erase(0, kHead);
            next_start_ = pos + 1;
            running_ = true;
            since_ = clock::now();
            events.push_back({BatchEvent::Kind::started, pos, {}});
            continue;
        }
        constexpr size_t kEndHead = kHead + 2 * sizeof(uint64_t); // + duration, length
        if (buf_.size() < kEndHead) return;
        const uint64_t ns = get_u64(buf_, kHead);
        const size_t len = get_u64(buf_, kHead + sizeof(uint64_t));
        if (buf_.size() < kEndHead + len) return;
        BatchEvent e{BatchEvent::Kind::ended, pos, {}};
        e.outcome.kind = ChildOutcome::Kind::finished;
        e.outcome.exit_code = 0;
        e.outcome.payload = buf_.substr(kEndHead, len);
        e.outcome.duration_s = static_cast<double>(ns) / 1e9;
        buf_.erase(0, kEndHead + len);
        running_ = false;
        since_ = clock::now(); // the time between instances is limited too
        events.push_back(std::move(e));
    }
}

bool BatchChild::poll(int wait_ms, std::vector<BatchEvent> &events) {
    if (spawn_failed_ && next_start_ == 0) {
        // As with one child per instance: the instance that needed the
        // child is recorded as a crash (spawn_failed) and the rest goes on.
        next_start_ = 1;
        events.push_back({BatchEvent::Kind::lost, 0, {}});
        events.back().outcome.kind = ChildOutcome::Kind::spawn_failed;
    }
    if (reaped_) return true;
    if (!eof_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, wait_ms) > 0) {
            char buf[65536];
            ssize_t n = ::read(fd_, buf, sizeof buf);
            if (n > 0) {
                buf_.append(buf, static_cast<size_t>(n));
                parse(events);
            } else if (n == 0 || errno != EINTR) {
                eof_ = true;
            }
        }
    } else if (wait_ms > 0) {
        usleep(static_cast<useconds_t>(std::min(wait_ms, 10)) * 1000);
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
        finish(status, events);
        return true;
    }
    // The same kill policy as one child per instance, timed from the start of
    // the running instance (or from the end of the last one).
    KillDecision k = next_kill_signal(seconds_since(since_), timeout_s_, signals_sent_,
                                      seconds_since(last_signal_), 2.0);
    if (k.signal) {
        kill(-pid_, k.signal);
        ++signals_sent_;
        last_signal_ = clock::now();
    }
    return false;
}

void BatchChild::finish(int status, std::vector<BatchEvent> &events) {
    reaped_ = true;
    while (!eof_) {
        char buf[65536];
        ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n > 0)
            buf_.append(buf, static_cast<size_t>(n));
        else
            eof_ = true;
    }
    parse(events);
    // Ended between instances (a reset that failed or crashed): nobody to
    // blame, the rest goes to a new child. A child that never started its
    // first instance is charged to it, so every batch makes progress.
    if (!running_ && next_start_ > 0) return;
    if (!running_) next_start_ = 1;
    BatchEvent e{BatchEvent::Kind::lost, next_start_ - 1, {}};
    // The child emptied the capture before it announced this instance.
    if (running_) save_capture(capture_, log_path_ ? log_path_(e.pos) : std::string());
    classify_exit(status, signals_sent_ > 0, e.outcome);
    e.outcome.duration_s = seconds_since(since_);
    events.push_back(std::move(e));
}

size_t guided_batch_size(size_t left, size_t jobs, size_t cap, size_t tail) {
    cap = std::max<size_t>(cap, 1);
    jobs = std::max<size_t>(jobs, 1);
    const size_t share = left / jobs + (left % jobs != 0);
    return std::min(cap, std::max(share, tail));
}

} // namespace harness::runner
