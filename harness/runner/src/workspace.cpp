#include "runner/workspace.hpp"

#include "expected_bytes.hpp"
#include "pattern_cache.hpp"

namespace harness::runner {

// Nothing is mapped until the first instance asks: a batch's workspace is
// made in the runner and used only in the child it forks.
Workspace::Workspace()
    : expectations_(std::make_unique<detail::ExpectationPool>()),
      patterns_(std::make_unique<detail::PatternCache>()) {}

Workspace::~Workspace() = default;

} // namespace harness::runner
