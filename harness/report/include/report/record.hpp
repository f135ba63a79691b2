// One instance's result as it is journaled, read back, summarised and
// reported: described once here and (de)serialised by one pair of functions.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace harness::report {

// What happened to an instance. pass/fail/skip come from the instance itself;
// crash/timeout from the runner watching its process; incomplete is a start
// line with no end (the runner itself died: never rerun on resume, IGT-4).
// dmesg_warn / dmesg_fail are IGT's names: the instance's own amdgpu kernel-log
// lines turned the verdict (dmesg-warn: passed, with warnings logged; counts
// as a success. dmesg-fail: a fault or reset no step asked for, or a failure
// with kernel-log lines).
enum class Status { pass, fail, skip, crash, timeout, incomplete, dmesg_warn, dmesg_fail };

const char *status_name(Status s);
std::optional<Status> parse_status(const std::string &s);
// pass and skip are successes; everything else fails the run.
bool is_success(Status s);

struct StepFailure {
    int step = 0; // 1-based index in the case's step list
    std::string file;
    int line = 0;
    std::string message;
    std::string doc; // the documentation sentence the step checks, if any
};

// One copy step's measured bandwidth (peerLastCopyTiming): `clock` is
// "sdma-timestamp" (the GPU's counter, TIMESTAMP packets around the copy) or
// "host-fence" (host time, submission to fence); `link` is "xgmi", "pcie",
// "local" or "unknown" with KFD's nominal peak (0 unknown); `simulated` when
// the run was on amdgpu-sim, whose figures say nothing about hardware.
struct CopyFigure {
    int step = 0; // 1-based step index
    int src = -1, dst = -1;
    uint64_t bytes = 0;
    uint64_t ns = 0;
    double gbps = 0;
    std::string clock;
    std::string link;
    double peak_gbps = 0;
    bool simulated = false;
    bool operator==(const CopyFigure &) const = default;
};
nlohmann::json to_json(const CopyFigure &c);
CopyFigure copy_from_json(const nlohmann::json &j);

// How long one step that ran took, wall time in the instance's process (the
// step's HIP calls and its checks). Journaled as "step_ms": [[step, ms], ...]
// so that a run can say where its time went (`peer-harness timing`).
struct StepTime {
    int step = 0; // 1-based step index
    double ms = 0;
    bool operator==(const StepTime &) const = default;
};

// What one step answered, in a run that records it (differential runs,
// `peer-harness differential`): the HIP code of the call it checked, else
// "ok" / "failed", or "not comparable: why". Journaled as "answers":
// [[step, answer], ...].
struct StepAnswer {
    int step = 0; // 1-based step index
    std::string answer;
    bool operator==(const StepAnswer &) const = default;
};

struct InstanceRecord {
    int index = 0;
    std::string name;
    std::string suite;
    std::string kase;
    std::vector<std::pair<std::string, std::string>> params;
    Status status = Status::incomplete;
    std::string reason; // skip reason, crash signal, timeout, first failure
    std::vector<StepFailure> failures;
    std::vector<std::string> kernel_errors; // peerLastKernelError() after failing steps
    std::vector<std::string> kernel_log;    // this instance's amdgpu lines from /dev/kmsg
    double duration_s = 0;
    std::string log;                  // path of the child's output, relative to the results dir
    std::vector<CopyFigure> copies;   // bandwidth of each successful copy step
    std::vector<StepTime> step_times; // each step that ran, in order
    std::vector<StepAnswer> answers;  // each step's answer, when recorded
};

// "step_ms" of a journal line or a child's result; malformed entries are
// dropped (a record stays readable without its timings).
std::vector<StepTime> step_times_from_json(const nlohmann::json &j);
// "answers", as leniently.
std::vector<StepAnswer> step_answers_from_json(const nlohmann::json &j);

nlohmann::json to_json(const InstanceRecord &r);
// Lenient about missing optional fields, strict about name/status.
std::optional<InstanceRecord> record_from_json(const nlohmann::json &j, std::string &error);

} // namespace harness::report
