#pragma once

namespace harness::runner::detail {

// In a freshly forked instance child: a fatal signal (SIGSEGV, SIGBUS,
// SIGILL, SIGFPE) writes the stack to stderr, then kills the process by that
// signal as the default action would (crash_trace.cpp).
void install_crash_trace();

} // namespace harness::runner::detail
