// Between two instances that share a child process (--isolation batch): undo
// what the first may have left in the peer API's process state, so the next
// one starts as in a fresh process. Only ever called in a child.
#pragma once

namespace harness::runner {

// On every device: hipDeviceReset (frees its allocations, removes peer
// mappings, disables its peer access, replaces a guilty copy context), the
// default copy packet size; then current device 0 and no last kernel error.
// False when any of it failed: the caller then ends the batch, and the next
// instance gets a new process.
bool restore_fresh_state();

} // namespace harness::runner
