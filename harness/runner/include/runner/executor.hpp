// The step interpreter: runs one case instance's steps against the peer API,
// in the (child) process that calls it, and returns what happened. Keeps a
// host-side model of what every buffer must contain (guards included), so a
// `verify` compares the device's bytes with the bytes the documented
// behaviour implies. Stops at the first failing step: later steps depend on
// the state it should have produced.
#pragma once

#include "cases/expand.hpp"
#include "cases/topology.hpp"

#include <nlohmann/json.hpp>

namespace harness::runner {

// {"status":"pass"|"fail", "failures":[{step,file,line,message,doc}],
//  "kernel_errors":[...], "steps_run":N}
nlohmann::json execute_instance(const cases::Instance &instance, const cases::Topology &topology);

} // namespace harness::runner
