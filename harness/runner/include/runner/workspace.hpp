// What one process keeps between the instances it runs (a batch child runs
// up to --batch-size of them): the HIP runtime its steps call (runtime.hpp),
// and memory and generated patterns the next instance would otherwise make
// again. Nothing a verdict depends on lives in the caches: every instance
// writes all the bytes it later reads from them. Owned by whoever runs the
// instances (instance_runner.cpp), never global.
#pragma once

#include "runner/runtime_kind.hpp"

#include <memory>
#include <string>

namespace harness::runner {

class Runtime;

namespace detail {
class ExpectationPool;
class PatternCache;
} // namespace detail

class Workspace {
  public:
    explicit Workspace(RuntimeKind runtime = RuntimeKind::harness, bool record_answers = false);
    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    detail::ExpectationPool &expectations() { return *expectations_; }
    detail::PatternCache &patterns() { return *patterns_; }

    // The runtime, made on first use (in the process that runs instances):
    // nullptr with `error` when ROCm's HIP cannot be loaded.
    const Runtime *runtime(std::string &error);
    RuntimeKind runtime_kind() const { return kind_; }
    // Between two instances: the runtime's devices as a fresh process finds
    // them (Runtime::restore_fresh_state). false: the process should end.
    bool restore_fresh_state();
    // Whether results carry each step's answer (differential runs).
    bool record_answers() const { return record_answers_; }

  private:
    RuntimeKind kind_;
    bool record_answers_;
    std::unique_ptr<Runtime> runtime_;
    std::string runtime_error_;
    std::unique_ptr<detail::ExpectationPool> expectations_;
    std::unique_ptr<detail::PatternCache> patterns_;
};

} // namespace harness::runner
