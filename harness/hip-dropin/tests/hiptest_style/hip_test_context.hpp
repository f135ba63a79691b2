// A test context the way ROCm's hip-tests keep one (hipTestMain's
// TestContext): one per process, created on first use, that loads code
// objects lazily (the first test asking for a kernel of a module file loads
// the file with hipModuleLoad; later tests reuse the module or the refusal),
// unloads what it loaded in cleanContext() with hipModuleUnload, and keeps
// which test a kernel launch or module load was refused in and with which
// code, so main() can count and name them. Our own code, written against
// <hip/hip_runtime.h> only.
#pragma once

#include <hip/hip_runtime.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

class TestContext {
  public:
    static TestContext &get();

    // The kernel `kernel` of the code object file `module` (a path relative
    // to the directory given by HIPTEST_MODULE_DIR): hipModuleLoad on the
    // first request for the file, then hipModuleGetFunction.
    hipError_t getFunction(const std::string &module, const std::string &kernel,
                           hipFunction_t *out);
    // How many times `module` was handed to hipModuleLoad (laziness check).
    int loadAttempts(const std::string &module) const;
    // hipModuleUnload of every module loaded; the first failure, if any.
    hipError_t cleanContext();

    struct Refusal {
        std::string test, call;
        hipError_t code;
    };
    void setCurrentTest(const std::string &name) { current_test_ = name; }
    void recordRefusal(const std::string &call, hipError_t code);
    const std::vector<Refusal> &refusals() const { return refusals_; }

    TestContext(const TestContext &) = delete;
    TestContext &operator=(const TestContext &) = delete;

  private:
    TestContext() = default;
    struct Module {
        hipError_t status = hipSuccess; // of the one hipModuleLoad
        hipModule_t handle = nullptr;
        int attempts = 0;
    };
    mutable std::mutex mu_;
    std::map<std::string, Module> modules_;
    std::string current_test_;
    std::vector<Refusal> refusals_;
};
