// This translation unit holds Catch2's implementation (CATCH_CONFIG_RUNNER):
// peer-harness owns main() and composes its own CLI around Catch's session.
#define CATCH_CONFIG_RUNNER
// Without Catch2's fatal-signal handler. It is engaged and disengaged around
// every test case, 14 system calls each time (sigaction for six signals both
// ways, sigaltstack), and Catch2 visits all ~400,000 instances of a full-depth
// plan even in a shard that runs 1 % of them: on a virtualised host that was
// 30 % of a shard runner's CPU. Nothing it guards runs here: instances run in
// children, which reset every signal to its default (isolation.cpp). A crash
// of the runner itself is then an ordinary crash, without Catch2's
// "FATAL ERROR" line naming the test case.
#define CATCH_CONFIG_NO_POSIX_SIGNALS
#include <catch2/catch.hpp>

#include "runner/catch_registration.hpp"

namespace harness::runner {

namespace {

// REGISTER_TEST_CASE wants a plain function; an invoker object carries the
// instance index instead.
class InstanceInvoker : public Catch::ITestInvoker {
  public:
    InstanceInvoker(const InstanceCallback *cb, size_t index) : cb_(cb), index_(index) {}
    void invoke() const override { (*cb_)(index_); }

  private:
    const InstanceCallback *cb_;
    size_t index_;
};

} // namespace

std::string catch_tags(const cases::Instance &in) {
    std::string tags;
    for (const auto &t : in.tags)
        tags += "[" + t + "]";
    return tags;
}

void register_instances(const std::vector<cases::Instance> &instances,
                        const InstanceCallback *callback) {
    for (size_t i = 0; i < instances.size(); ++i) {
        const auto &in = instances[i];
        const std::string tags = catch_tags(in);
        // SourceLineInfo keeps the pointer: the suite's file string lives as
        // long as the loaded suites, i.e. the whole run.
        Catch::SourceLineInfo where(in.kase->at.file.c_str(),
                                    static_cast<std::size_t>(in.kase->at.line));
        Catch::getMutableRegistryHub().registerTest(Catch::makeTestCase(
            new InstanceInvoker(callback, i), "", Catch::NameAndTags(in.name, tags), where));
    }
}

CatchSession::CatchSession() : session_(std::make_unique<Catch::Session>()) {}
CatchSession::~CatchSession() = default;

int CatchSession::apply_command_line(const std::vector<std::string> &args) {
    std::vector<const char *> argv{"peer-harness"};
    for (const auto &a : args)
        argv.push_back(a.c_str());
    return session_->applyCommandLine(static_cast<int>(argv.size()), argv.data());
}

bool CatchSession::listing_only() const {
    const auto &c = session_->configData();
    return c.listTests || c.listTestNamesOnly || c.listTags || c.listReporters || c.showHelp;
}

std::vector<std::string> CatchSession::selected_names() {
    auto &config = session_->config();
    std::vector<std::string> names;
    for (const auto &t :
         Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config))
        names.push_back(t.getTestCaseInfo().name);
    return names;
}

int CatchSession::run() {
    return session_->run();
}

} // namespace harness::runner
