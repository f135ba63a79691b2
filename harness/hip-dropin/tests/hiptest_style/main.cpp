// The framework's main, as hip-tests' hipTestMain has one: Catch2's session
// with the test context around it. After the run it counts and names the
// test cases that failed because GPU code was refused, and decides the
// exit code: 0 only when the tests that failed are exactly those tagged
// [launches_kernel], each failed at a refusal with hipErrorNoBinaryForGpu
// (harness/peer/CONTRACT.md §5.6), and every other test passed.
#define CATCH_CONFIG_RUNNER
#include "hip_test_common.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <set>
#include <string>

namespace {

struct Outcome {
    std::set<std::string> ran, failed, tagged;
};
Outcome &outcome() {
    static Outcome o;
    return o;
}

struct ContextListener : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;
    void testCaseStarting(Catch::TestCaseInfo const &info) override {
        TestContext::get().setCurrentTest(info.name);
        outcome().ran.insert(info.name);
        if (std::find(info.tags.begin(), info.tags.end(), "launches_kernel") != info.tags.end())
            outcome().tagged.insert(info.name);
    }
    void testCaseEnded(Catch::TestCaseStats const &stats) override {
        if (stats.totals.assertions.failed > 0) outcome().failed.insert(stats.testInfo.name);
    }
};

std::string joined(const std::set<std::string> &names) {
    std::string s;
    for (const std::string &n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
}

} // namespace

CATCH_REGISTER_LISTENER(ContextListener)

int main(int argc, char **argv) {
    Catch::Session session;
    // Catch2's own count (failed assertions) is not the verdict: the
    // listener's sets below are.
    (void)session.run(argc, argv);
    const hipError_t unload = TestContext::get().cleanContext();
    const Outcome &o = outcome();
    std::set<std::string> refused, wrong_code;
    for (const auto &r : TestContext::get().refusals())
        (r.code == hipErrorNoBinaryForGpu ? refused : wrong_code).insert(r.test);
    std::set<std::string> other_failures;
    std::set_difference(o.failed.begin(), o.failed.end(), refused.begin(), refused.end(),
                        std::inserter(other_failures, other_failures.end()));
    std::printf("hip-tests-style run: %zu test cases, %zu passed, %zu failed at a kernel launch or "
                "module load refused with hipErrorNoBinaryForGpu: %s\n",
                o.ran.size(), o.ran.size() - o.failed.size(), refused.size(),
                joined(refused).c_str());
    bool ok = true;
    if (!other_failures.empty() || !wrong_code.empty()) {
        std::printf("failed otherwise: %s; refused with another code: %s\n",
                    joined(other_failures).c_str(), joined(wrong_code).c_str());
        ok = false;
    }
    if (refused != o.tagged) {
        std::printf("tagged [launches_kernel]: %s\n", joined(o.tagged).c_str());
        ok = false;
    }
    if (unload != hipSuccess) {
        std::printf("cleanContext: %s\n", hipGetErrorName(unload));
        ok = false;
    }
    ok = ok && !o.ran.empty() && !o.tagged.empty();
    return ok ? 0 : 1;
}
