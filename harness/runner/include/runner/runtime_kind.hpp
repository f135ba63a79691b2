// Which HIP runtime a run's instances call (src/runtime.hpp): the harness's
// own peer API, or ROCm's libamdhip64 (the second half of a differential
// run, `peer-harness differential`).
#pragma once

namespace harness::runner {

enum class RuntimeKind { harness, rocm };
const char *runtime_name(RuntimeKind kind);

} // namespace harness::runner
