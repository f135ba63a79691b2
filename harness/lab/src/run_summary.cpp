#include "lab/run_summary.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace harness::lab {

namespace fs = std::filesystem;
using report::Status;

const char *outcome_name(Outcome o) {
    switch (o) {
    case Outcome::skip:
        return "skip";
    case Outcome::pass:
        return "pass";
    case Outcome::warn:
        return "warn";
    case Outcome::expected:
        return "expected-fail";
    case Outcome::flaky:
        return "flaky";
    case Outcome::fail:
        return "fail";
    }
    return "?";
}

Outcome outcome_of(Status s, const std::string &verdict) {
    if (s == Status::skip) return Outcome::skip;
    if (s == Status::dmesg_warn) return Outcome::warn;
    if (report::is_success(s)) return Outcome::pass;
    if (verdict == "Flake") return Outcome::flaky;
    if (verdict == "ExpectedFail") return Outcome::expected;
    return Outcome::fail;
}

int status_rank(Status s) {
    switch (s) {
    case Status::skip:
        return 0;
    case Status::pass:
        return 1;
    case Status::dmesg_warn:
        return 2;
    case Status::incomplete:
        return 3;
    case Status::fail:
        return 4;
    case Status::dmesg_fail:
        return 5;
    case Status::timeout:
        return 6;
    case Status::crash:
        return 7;
    }
    return 0;
}

void Tally::add(Outcome o, Status s) {
    int *slot[] = {&skip, &pass, &warn, &expected, &flaky, &fail};
    ++*slot[static_cast<int>(o)];
    if (count() == 1 || o > worst) {
        worst = o;
        worst_status = s;
    } else if (o == worst && (!worst_status || status_rank(s) > status_rank(*worst_status))) {
        worst_status = s;
    }
}

std::optional<DevicePair> devices_of(const report::InstanceRecord &r) {
    for (const auto &[k, v] : r.params) {
        std::istringstream in(v);
        int a = 0, b = 0;
        char c = 0;
        if ((k == "pair" || k == "triple") && in >> a >> c >> b && c == '>')
            return DevicePair{a, b};
        if (k == "device" && in >> a && in.peek() == EOF) return DevicePair{a, a};
    }
    return std::nullopt;
}

Outcome RunSummary::outcome(const report::InstanceRecord &r) const {
    auto v = verdicts.find(r.name);
    return outcome_of(r.status, v == verdicts.end() ? std::string() : v->second);
}

namespace {

void read_verdicts(const std::string &dir, RunSummary &s) {
    std::ifstream in(fs::path(dir) / files::kLabJson);
    if (!in) return;
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return;
    s.judged = true;
    for (const auto &v : j.value("verdicts", nlohmann::json::array())) {
        const std::string verdict = v.value("verdict", "");
        s.verdicts[v.value("name", "")] = verdict;
        if (verdict == "Regression") ++s.regressions;
    }
}

} // namespace

RunSummary summarize(const RunResults &run) {
    RunSummary s;
    read_verdicts(run.dir, s);
    if (run.metadata.is_object() && run.metadata.contains("topology"))
        s.devices = run.metadata["topology"].value("device_count", 0);
    for (const auto &r : run.records) {
        const Outcome o = s.outcome(r);
        s.total.add(o, r.status);
        s.families[r.suite + "/" + r.kase].add(o, r.status);
        if (auto p = devices_of(r)) {
            s.pairs[*p].add(o, r.status);
            s.devices = std::max(s.devices, std::max(p->first, p->second) + 1);
        } else {
            s.unpaired.add(o, r.status);
        }
        for (const auto &f : r.copies) {
            if (f.src < 0 || f.dst < 0 || f.gbps <= 0) continue;
            auto [it, fresh] = s.best_copy.emplace(DevicePair{f.src, f.dst}, f);
            if (!fresh && f.gbps > it->second.gbps) it->second = f;
        }
    }
    return s;
}

} // namespace harness::lab
