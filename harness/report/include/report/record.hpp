// One instance's result as it is journaled, read back, summarised and
// reported: described once here and (de)serialised by one pair of functions.
#pragma once

#include <nlohmann/json.hpp>

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
    std::string log; // path of the child's output, relative to the results dir
};

nlohmann::json to_json(const InstanceRecord &r);
// Lenient about missing optional fields, strict about name/status.
std::optional<InstanceRecord> record_from_json(const nlohmann::json &j, std::string &error);

} // namespace harness::report
