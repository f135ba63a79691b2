// Stage 3 of bisect-report's shrink (fewer steps) with a scripted runner:
// which steps are tried, which removals are kept, and that the generated
// case file is one the case loader accepts.
#include "lab/shrink_steps.hpp"

#include "cases/loader.hpp"
#include "cases/step_table.hpp"
#include "lab_test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

using namespace harness::lab;
using harness::report::InstanceRecord;
using harness::report::Status;

namespace {

const char *kCaseFile = R"(suite: tiny
doc: "a suite of one case"
cases:
  - name: other
    matrix: { device: all_devices }
    steps:
      - set_device: $a
  - name: copy
    doc: "the case being reduced"
    matrix: { device: all_devices }
    steps:
      - alloc: { device: $a, bytes: 64, as: buf, guard: 4Ki }
      - get_device_count: { expect_value: topology }
      - set_device: $a
      - verify: buf
      - verify: buf
)";

InstanceRecord failing_record(const std::string &message, int step) {
    InstanceRecord r;
    r.name = "tiny/copy/device=0";
    r.suite = "tiny";
    r.kase = "copy";
    r.status = Status::fail;
    r.failures.push_back({step, "x.yaml", 10 + step, message, ""});
    return r;
}

// The step names of the case in the --cases file of `command`, through the
// harness's own loader (a file it rejects yields nothing).
std::vector<std::string> steps_run(const std::vector<std::string> &command) {
    auto at = std::find(command.begin(), command.end(), "--cases");
    if (at == command.end() || at + 1 == command.end()) return {};
    auto loaded = harness::cases::load_paths({*(at + 1)});
    if (!loaded.ok() || loaded.suites.size() != 1 || loaded.suites[0].cases.size() != 1) return {};
    std::vector<std::string> names;
    for (const auto &s : loaded.suites[0].cases[0].steps)
        names.push_back(s.spec->name);
    return names;
}

} // namespace

TEST_CASE("with_cases replaces every --cases argument", "[bisect]") {
    std::vector<std::string> cmd = {"sim", "--machine", "m",    "--",      "ph", "run", "--cases",
                                    "a",   "--depth",   "full", "--cases", "b",  "spec"};
    CHECK(with_cases(cmd, "F") == std::vector<std::string>{"sim", "--machine", "m", "--", "ph",
                                                           "run", "--cases", "F", "--depth", "full",
                                                           "spec"});
    CHECK(with_cases({"ph", "run", "spec"}, "F") ==
          std::vector<std::string>{"ph", "run", "--cases", "F", "spec"});
}

TEST_CASE("same failure: status and first message, not the step's place", "[bisect]") {
    auto a = failing_record("verify buf: byte 3 differs", 4);
    auto moved = failing_record("verify buf: byte 3 differs", 2);
    CHECK(same_failure(a, moved));
    CHECK_FALSE(same_failure(a, failing_record("verify buf: byte 4 differs", 4)));
    moved.status = Status::dmesg_fail;
    CHECK_FALSE(same_failure(a, moved));
}

TEST_CASE("fewer steps: keeps every removal that leaves the failure as it was", "[bisect]") {
    labtest::TempDir tmp;
    const std::string file = (tmp.path / "tiny.yaml").string();
    std::ofstream(file) << kCaseFile;
    const auto failing = failing_record("verify buf: byte 3 differs", 4);
    std::vector<std::vector<std::string>> seen;
    // The failure needs set_device before the failing verify; anything else
    // passes (as if the bug went away).
    auto runner = [&](const std::vector<std::string> &cmd,
                      const std::string &) -> std::optional<InstanceRecord> {
        auto steps = steps_run(cmd);
        seen.push_back(steps);
        if (steps.empty()) return std::nullopt;
        const bool fails = std::count(steps.begin(), steps.end(), "set_device") == 1;
        auto r = failing_record(fails ? "verify buf: byte 3 differs" : "", 2);
        if (!fails) {
            r.status = Status::pass;
            r.failures.clear();
        }
        return r;
    };
    StepShrink got =
        shrink_steps({"ph", "run", "--cases", tmp.path.string(), "tiny/*"}, {tmp.path.string()},
                     failing, (tmp.path / "work").string(), runner);
    CHECK(got.note.empty());
    CHECK(got.total == 5);
    // Tried: step 5 (kept out), 3 (needed), 2 (kept out); never the alloc
    // that names `buf` nor the failing step 4.
    CHECK(got.tried == 3);
    CHECK(got.removed == 2);
    REQUIRE(seen.size() == 3);
    CHECK(seen[0] == std::vector<std::string>{"alloc", "get_device_count", "set_device", "verify"});
    CHECK(seen[1] == std::vector<std::string>{"alloc", "get_device_count", "verify"});
    CHECK(seen[2] == std::vector<std::string>{"alloc", "set_device", "verify"});
    REQUIRE_FALSE(got.case_file.empty());
    CHECK(steps_run({"--cases", got.case_file}) ==
          std::vector<std::string>{"alloc", "set_device", "verify"});
}

TEST_CASE("fewer steps: nothing removable leaves no case file", "[bisect]") {
    labtest::TempDir tmp;
    std::ofstream(tmp.path / "tiny.yaml") << kCaseFile;
    auto always_other = [](const std::vector<std::string> &,
                           const std::string &) -> std::optional<InstanceRecord> {
        return failing_record("something else", 1);
    };
    StepShrink got = shrink_steps({"ph", "run"}, {tmp.path.string()},
                                  failing_record("verify buf: byte 3 differs", 4),
                                  (tmp.path / "work").string(), always_other);
    CHECK(got.removed == 0);
    CHECK(got.tried == 3);
    CHECK(got.case_file.empty());
    auto unknown = failing_record("m", 4);
    unknown.kase = "absent";
    CHECK_FALSE(shrink_steps({"ph", "run"}, {tmp.path.string()}, unknown,
                             (tmp.path / "work").string(), always_other)
                    .note.empty());
}
