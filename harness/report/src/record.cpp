#include "report/record.hpp"

namespace harness::report {

namespace {

struct StatusName {
    Status status;
    const char *name;
};
constexpr StatusName kStatusNames[] = {
    {Status::pass, "pass"},
    {Status::fail, "fail"},
    {Status::skip, "skip"},
    {Status::crash, "crash"},
    {Status::timeout, "timeout"},
    {Status::incomplete, "incomplete"},
    {Status::dmesg_warn, "dmesg-warn"},
    {Status::dmesg_fail, "dmesg-fail"},
};

} // namespace

const char *status_name(Status s) {
    for (const auto &n : kStatusNames)
        if (n.status == s) return n.name;
    return "?";
}

std::optional<Status> parse_status(const std::string &s) {
    for (const auto &n : kStatusNames)
        if (s == n.name) return n.status;
    return std::nullopt;
}

bool is_success(Status s) {
    return s == Status::pass || s == Status::skip || s == Status::dmesg_warn;
}

nlohmann::json to_json(const CopyFigure &c) {
    nlohmann::json j{{"step", c.step},   {"src", c.src},   {"dst", c.dst},
                     {"bytes", c.bytes}, {"ns", c.ns},     {"gbps", c.gbps},
                     {"clock", c.clock}, {"link", c.link}, {"simulated", c.simulated}};
    if (c.peak_gbps > 0) j["peak_gbps"] = c.peak_gbps;
    return j;
}

CopyFigure copy_from_json(const nlohmann::json &j) {
    CopyFigure c;
    if (!j.is_object()) return c;
    // A field of the wrong type leaves the rest as parsed: figures are
    // informative, never a reason to drop the instance's record.
    try {
        c.step = j.value("step", 0);
        c.src = j.value("src", -1);
        c.dst = j.value("dst", -1);
        c.bytes = j.value("bytes", uint64_t{0});
        c.ns = j.value("ns", uint64_t{0});
        c.gbps = j.value("gbps", 0.0);
        c.clock = j.value("clock", "");
        c.link = j.value("link", "");
        c.peak_gbps = j.value("peak_gbps", 0.0);
        c.simulated = j.value("simulated", false);
    } catch (const nlohmann::json::exception &) {
    }
    return c;
}

nlohmann::json to_json(const InstanceRecord &r) {
    nlohmann::json j;
    j["index"] = r.index;
    j["name"] = r.name;
    j["suite"] = r.suite;
    j["case"] = r.kase;
    nlohmann::json params = nlohmann::json::object();
    for (const auto &[k, v] : r.params)
        params[k] = v;
    j["params"] = params;
    j["status"] = status_name(r.status);
    if (!r.reason.empty()) j["reason"] = r.reason;
    if (!r.failures.empty()) {
        nlohmann::json f = nlohmann::json::array();
        for (const auto &x : r.failures)
            f.push_back({{"step", x.step},
                         {"file", x.file},
                         {"line", x.line},
                         {"message", x.message},
                         {"doc", x.doc}});
        j["failures"] = f;
    }
    if (!r.kernel_errors.empty()) j["kernel_errors"] = r.kernel_errors;
    if (!r.kernel_log.empty()) j["kernel_log"] = r.kernel_log;
    j["duration_s"] = r.duration_s;
    if (!r.log.empty()) j["log"] = r.log;
    if (!r.copies.empty()) {
        nlohmann::json c = nlohmann::json::array();
        for (const auto &x : r.copies)
            c.push_back(to_json(x));
        j["copies"] = c;
    }
    if (!r.step_times.empty()) {
        nlohmann::json t = nlohmann::json::array();
        for (const auto &x : r.step_times)
            t.push_back({x.step, x.ms});
        j["step_ms"] = t;
    }
    if (!r.answers.empty()) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto &x : r.answers)
            a.push_back({x.step, x.answer});
        j["answers"] = a;
    }
    return j;
}

std::vector<StepTime> step_times_from_json(const nlohmann::json &j) {
    std::vector<StepTime> out;
    if (!j.is_array()) return out;
    for (const auto &e : j)
        if (e.is_array() && e.size() == 2 && e[0].is_number_integer() && e[1].is_number())
            out.push_back({e[0].get<int>(), e[1].get<double>()});
    return out;
}

std::vector<StepAnswer> step_answers_from_json(const nlohmann::json &j) {
    std::vector<StepAnswer> out;
    if (!j.is_array()) return out;
    for (const auto &e : j)
        if (e.is_array() && e.size() == 2 && e[0].is_number_integer() && e[1].is_string())
            out.push_back({e[0].get<int>(), e[1].get<std::string>()});
    return out;
}

std::optional<InstanceRecord> record_from_json(const nlohmann::json &j, std::string &error) {
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) {
        error = "expected an object with a string 'name'";
        return std::nullopt;
    }
    InstanceRecord r;
    r.name = j["name"].get<std::string>();
    r.index = j.value("index", 0);
    r.suite = j.value("suite", "");
    r.kase = j.value("case", "");
    if (j.contains("params") && j["params"].is_object())
        for (const auto &[k, v] : j["params"].items())
            r.params.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    auto st = parse_status(j.value("status", ""));
    if (!st) {
        error = "unknown or missing status '" + j.value("status", "") + "' for " + r.name;
        return std::nullopt;
    }
    r.status = *st;
    r.reason = j.value("reason", "");
    if (j.contains("failures") && j["failures"].is_array())
        for (const auto &f : j["failures"])
            r.failures.push_back(StepFailure{f.value("step", 0), f.value("file", ""),
                                             f.value("line", 0), f.value("message", ""),
                                             f.value("doc", "")});
    if (j.contains("kernel_log") && j["kernel_log"].is_array())
        for (const auto &k : j["kernel_log"])
            if (k.is_string()) r.kernel_log.push_back(k.get<std::string>());
    if (j.contains("kernel_errors") && j["kernel_errors"].is_array())
        for (const auto &k : j["kernel_errors"])
            if (k.is_string()) r.kernel_errors.push_back(k.get<std::string>());
    r.duration_s = j.value("duration_s", 0.0);
    r.log = j.value("log", "");
    if (j.contains("copies") && j["copies"].is_array())
        for (const auto &c : j["copies"])
            r.copies.push_back(copy_from_json(c));
    if (j.contains("step_ms")) r.step_times = step_times_from_json(j["step_ms"]);
    if (j.contains("answers")) r.answers = step_answers_from_json(j["answers"]);
    return r;
}

} // namespace harness::report
