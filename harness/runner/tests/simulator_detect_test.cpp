// running_on_simulator() decides from the kernel interface the process talks
// to. [host] runs outside the simulator (or under a simulator that failed to
// start) and shows that the environment variables that used to decide it make
// no difference; [sim-preload] runs under amdgpu-sim and shows the answer does
// not need them.
#include "runner/settings.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

// Sets a variable for one scope and restores the old value.
class ScopedEnv {
  public:
    ScopedEnv(const char *name, const char *value) : name_(name) {
        if (const char *old = std::getenv(name)) old_ = old;
        if (value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

  private:
    const char *name_;
    std::optional<std::string> old_;
};

bool identification_readable() {
    FILE *f = std::fopen(harness::runner::kSimulatorIdentification, "r");
    if (!f) return false;
    std::fclose(f);
    return true;
}

} // namespace

TEST_CASE("environment variables alone never make a run simulated", "[simulator_detect][host]") {
    // The claim is about a process that does not talk to the simulator.
    if (identification_readable()) FAIL("this process talks to the simulator; run it outside");
    CHECK_FALSE(harness::runner::running_on_simulator());
    ScopedEnv sim("PEER_HARNESS_SIMULATOR", "mixed-4");
    ScopedEnv pre("LD_PRELOAD", "/usr/lib/libamdgpu-sim.so");
    ScopedEnv machine("AMDGPU_SIM_MACHINE", "mixed-4");
    CHECK_FALSE(harness::runner::running_on_simulator());
}

TEST_CASE("a process under amdgpu-sim is simulated without any variable",
          "[simulator_detect][sim-preload]") {
    ScopedEnv sim("PEER_HARNESS_SIMULATOR", nullptr);
    CHECK(harness::runner::running_on_simulator());
}
