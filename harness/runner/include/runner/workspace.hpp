// What one process keeps between the instances it runs (a batch child runs
// up to --batch-size of them): memory and generated patterns the next
// instance would otherwise make again. Nothing a verdict depends on lives
// here: every instance writes all the bytes it later reads from it. Owned by
// whoever runs the instances (instance_runner.cpp), never global.
#pragma once

#include <memory>

namespace harness::runner {

namespace detail {
class ExpectationPool;
class PatternCache;
} // namespace detail

class Workspace {
  public:
    Workspace();
    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    detail::ExpectationPool &expectations() { return *expectations_; }
    detail::PatternCache &patterns() { return *patterns_; }

  private:
    std::unique_ptr<detail::ExpectationPool> expectations_;
    std::unique_ptr<detail::PatternCache> patterns_;
};

} // namespace harness::runner
