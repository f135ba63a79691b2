// The one place that adapts case instances to Catch2 2.13's registry: each
// instance becomes its own TEST_CASE-equivalent, with its stable name, its
// tags and its case file's location, registered before the session runs
// (C2-2). Catch2 calls back with the instance's index.
#pragma once

#include "cases/expand.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace Catch {
class Session;
}

namespace harness::runner {

using InstanceCallback = std::function<void(size_t index)>;

// `callback` must outlive the session.
void register_instances(const std::vector<cases::Instance> &instances,
                        const InstanceCallback *callback);

// "[suite][case][tag]..." for an instance.
std::string catch_tags(const cases::Instance &in);

// Catch2's session, reachable only from the translation unit that holds
// Catch2's implementation (Session is not declared elsewhere in 2.13).
class CatchSession {
  public:
    CatchSession();
    ~CatchSession();
    CatchSession(const CatchSession &) = delete;
    CatchSession &operator=(const CatchSession &) = delete;

    // Catch2's own command line (test specs, -r, -o, -l, ...); 0 on success.
    int apply_command_line(const std::vector<std::string> &args_without_argv0);
    // --list-*, --help: the session prints and runs nothing.
    bool listing_only() const;
    // Names of the registered tests the test specs select, in run order.
    std::vector<std::string> selected_names();
    // Number of failed test cases, as Catch2 counts them.
    int run();

  private:
    std::unique_ptr<Catch::Session> session_;
};

} // namespace harness::runner
