// The step interpreter: runs one case instance's steps against the peer API,
// in the (child) process that calls it, and returns what happened. Keeps a
// host-side model of what every buffer must contain (guards included), so a
// `verify` compares the device's bytes with the bytes the documented
// behaviour implies. Stops at the first failing step: later steps depend on
// the state it should have produced.
#pragma once

#include "cases/expand.hpp"
#include "cases/step_table.hpp"
#include "cases/topology.hpp"
#include "runner/workspace.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace harness::runner {

// {"status":"pass"|"fail", "failures":[{step,file,line,message,doc}],
//  "kernel_errors":[...], "steps_run":N, "step_ms":[[step, ms], ...]}
// `workspace` is what the process keeps between its instances (workspace.hpp).
nlohmann::json execute_instance(const cases::Instance &instance, const cases::Topology &topology,
                                Workspace &workspace);

// A kernel-contract step's errno check: whether a call that ended with `err`
// (0: success) is what the step's `errno:` word says (`ok`, or an errno
// name as kmd::Status prints it).
bool errno_matches(const std::string &want, int err);

// Whether the interpreter's step table has a function for this step kind.
bool executes_step(cases::StepKind kind);

// The kernel path an instance runs on (harness/peer/CONTRACT.md §7): its
// `path` axis value, else the runner's own PEER_HARNESS_PATH, else "drm".
// The peer API fixes the path once per process, so a child runs instances
// of one path only and sets it before its first instance
// (use_kernel_path, in the child).
std::string kernel_path_of(const cases::Instance &instance);
void use_kernel_path(const cases::Instance &instance);

} // namespace harness::runner
