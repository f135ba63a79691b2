#include "thread_state.hpp"

namespace peer {

ThreadState &thread_state() {
    thread_local ThreadState state;
    return state;
}

void record_kernel_error(const kmd::Status &s) {
    if (s.ok()) return;
    ThreadState &t = thread_state();
    t.last_errno = s.err;
    t.last_call = s.call;
    t.last_text = s.describe();
}

} // namespace peer
