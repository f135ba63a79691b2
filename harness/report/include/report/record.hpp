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
enum class Status { pass, fail, skip, crash, timeout, incomplete };

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
    double duration_s = 0;
    std::string log; // path of the child's output, relative to the results dir
};

nlohmann::json to_json(const InstanceRecord &r);
// Lenient about missing optional fields, strict about name/status.
std::optional<InstanceRecord> record_from_json(const nlohmann::json &j, std::string &error);

} // namespace harness::report
