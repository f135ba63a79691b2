#include "hip_test_context.hpp"

#include <cstdlib>

TestContext &TestContext::get() {
    static TestContext context;
    return context;
}

hipError_t TestContext::getFunction(const std::string &module, const std::string &kernel,
                                    hipFunction_t *out) {
    std::lock_guard lock(mu_);
    Module &m = modules_[module];
    if (m.attempts == 0) {
        const char *dir = std::getenv("HIPTEST_MODULE_DIR");
        const std::string path = (dir ? std::string(dir) + "/" : std::string()) + module;
        ++m.attempts;
        m.status = hipModuleLoad(&m.handle, path.c_str());
    }
    if (m.status != hipSuccess) return m.status;
    return hipModuleGetFunction(out, m.handle, kernel.c_str());
}

int TestContext::loadAttempts(const std::string &module) const {
    std::lock_guard lock(mu_);
    auto it = modules_.find(module);
    return it == modules_.end() ? 0 : it->second.attempts;
}

hipError_t TestContext::cleanContext() {
    std::lock_guard lock(mu_);
    hipError_t first = hipSuccess;
    for (auto &[name, m] : modules_) {
        if (m.status != hipSuccess) continue; // never loaded: nothing to unload
        const hipError_t e = hipModuleUnload(m.handle);
        if (e != hipSuccess && first == hipSuccess) first = e;
    }
    modules_.clear();
    return first;
}

void TestContext::recordRefusal(const std::string &call, hipError_t code) {
    std::lock_guard lock(mu_);
    refusals_.push_back({current_test_, call, code});
}
