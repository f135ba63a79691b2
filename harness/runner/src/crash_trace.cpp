// The stack of a crashing instance, in its log.
//
// A child resets every fatal signal to its default action (isolation.cpp), so
// a crash is reported as "killed by SIGSEGV" whatever the build, and the
// sanitizers' own SEGV reports are gone with their handlers. A crash seen
// once in a lab or CI log is only worth something with the stack that led to
// it, so the child installs this handler: it writes the faulting address, the
// thread and the stack to stderr (the instance's log), restores the default
// action and lets the fault happen again, so the process still dies by the
// same signal.
#include "crash_trace.hpp"

#include <csignal>
#include <cstdint>
#include <cstring>
#include <execinfo.h>
#include <sys/mman.h>
#include <unistd.h>

namespace harness::runner::detail {

namespace {

constexpr int kFatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};

void write_str(const char *s) {
    size_t n = std::strlen(s);
    while (n) {
        const ssize_t w = ::write(STDERR_FILENO, s, n);
        if (w <= 0) return;
        s += w;
        n -= static_cast<size_t>(w);
    }
}

// async-signal-safe: no allocation, no locks.
void write_hex(uint64_t v) {
    char buf[19] = "0x";
    int n = 2;
    for (int shift = 60; shift >= 0; shift -= 4) {
        const unsigned digit = unsigned(v >> shift) & 15;
        if (digit || n > 2 || shift == 0) buf[n++] = "0123456789abcdef"[digit];
    }
    buf[n] = 0;
    write_str(buf);
}

void on_fatal(int sig, siginfo_t *si, void *) {
    write_str("peer-harness: fatal signal ");
    const char *abbrev = sigabbrev_np(sig);
    write_str(abbrev ? abbrev : "?");
    write_str(" at address ");
    write_hex(reinterpret_cast<uintptr_t>(si->si_addr));
    write_str(" on thread ");
    write_hex(static_cast<uint64_t>(gettid()));
    write_str(" (pid ");
    write_hex(static_cast<uint64_t>(getpid()));
    write_str("); its stack (addr2line -e <module> -f -C <offset>):\n");
    // Not the sanitizers' symbolising printer: it takes locks and allocates,
    // and hung when the fault hit a thread holding them. These frames are
    // module+offset, written without allocating.
    void *frames[64];
    const int n = backtrace(frames, 64);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    // A fault re-executes the instruction and dies by the default action; a
    // signal sent with kill()/raise() must be sent again.
    if (si->si_code <= 0) raise(sig);
}

} // namespace

void install_crash_trace() {
    // backtrace() loads libgcc on first use, which allocates: not in a handler.
    void *warm[1];
    backtrace(warm, 1);
    // A stack overflow can only be reported from another stack. Never freed:
    // the child ends with _exit.
    constexpr size_t kAltStack = 64 * 1024;
    void *alt =
        mmap(nullptr, kAltStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alt != MAP_FAILED) {
        stack_t ss{};
        ss.ss_sp = alt;
        ss.ss_size = kAltStack;
        sigaltstack(&ss, nullptr);
    }
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : kFatal)
        sigaction(sig, &sa, nullptr);
}

} // namespace harness::runner::detail
