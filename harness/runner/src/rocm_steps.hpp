// Which steps ROCm's HIP can take when a differential run
// (`peer-harness differential`) runs a case through it on the simulator, and
// why not the others. One table (rocm_steps.cpp); the step function itself
// never asks.
#pragma once

#include "cases/step_table.hpp"

namespace harness::runner::detail {

// How a step's answer starts when it was not compared.
inline constexpr const char *kNotComparable = "not comparable: ";

struct RocmStep {
    enum class Action {
        run,  // the step runs on ROCm's runtime and its answer is compared
        skip, // not run, not compared; what follows does not depend on it
        end,  // not run; later steps depend on what it does: the rest of the
              // instance is not compared either
    } action = Action::run;
    const char *reason = "";
};

RocmStep rocm_step(cases::StepKind kind);

} // namespace harness::runner::detail
