#include "runner/workspace.hpp"

#include "runtime.hpp"

#include "expected_bytes.hpp"
#include "pattern_cache.hpp"

namespace harness::runner {

// Nothing is mapped until the first instance asks: a batch's workspace is
// made in the runner and used only in the child it forks.
Workspace::Workspace(RuntimeKind runtime, bool record_answers)
    : kind_(runtime), record_answers_(record_answers),
      expectations_(std::make_unique<detail::ExpectationPool>()),
      patterns_(std::make_unique<detail::PatternCache>()) {}

Workspace::~Workspace() = default;

const Runtime *Workspace::runtime(std::string &error) {
    if (!runtime_ && runtime_error_.empty()) {
        runtime_ =
            kind_ == RuntimeKind::rocm ? load_rocm_runtime(runtime_error_) : make_harness_runtime();
    }
    error = runtime_error_;
    return runtime_.get();
}

bool Workspace::restore_fresh_state() {
    std::string error;
    const Runtime *rt = runtime(error);
    return rt && rt->restore_fresh_state();
}

} // namespace harness::runner
