#include "runner/instance_runner.hpp"

#include "report/tokens.hpp"
#include "runner/executor.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

namespace harness::runner {

namespace fs = std::filesystem;
using report::InstanceRecord;
using report::Status;

namespace {

void complain(const std::string &err) {
    if (!err.empty()) std::cerr << "peer-harness: " << err << "\n";
}

// The child's JSON (executor.hpp) or what its process did, as a record.
void outcome_into(const ChildOutcome &o, double timeout_s, InstanceRecord &r) {
    r.duration_s = o.duration_s;
    switch (o.kind) {
    case ChildOutcome::Kind::finished: {
        auto j = nlohmann::json::parse(o.payload, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            r.status = Status::crash;
            r.reason = "the instance's process sent an unreadable result";
            return;
        }
        r.status = j.value("status", "") == "pass" ? Status::pass : Status::fail;
        for (const auto &f : j.value("failures", nlohmann::json::array()))
            r.failures.push_back({f.value("step", 0), f.value("file", ""), f.value("line", 0),
                                  f.value("message", ""), f.value("doc", "")});
        for (const auto &k : j.value("kernel_errors", nlohmann::json::array()))
            r.kernel_errors.push_back(k.get<std::string>());
        if (!r.failures.empty()) r.reason = r.failures.front().message;
        for (const auto &k : j.value("kernel_log", nlohmann::json::array()))
            r.kernel_log.push_back(k.get<std::string>());
        // IGT's kernel-log statuses: an unasked fault or reset fails the
        // instance; a failure with its own amdgpu lines is dmesg-fail too;
        // warnings on a pass make it dmesg-warn.
        if (const std::string d = j.value("dmesg", ""); !d.empty()) {
            const bool fail = d.rfind("fail", 0) == 0;
            if (fail || r.status == Status::fail) {
                if (r.status == Status::pass) r.reason = "kernel log: " + d.substr(6);
                r.status = Status::dmesg_fail;
            } else {
                r.status = Status::dmesg_warn;
                r.reason = "kernel log: " + d.substr(6);
            }
        }
        return;
    }
    case ChildOutcome::Kind::timed_out:
        r.status = Status::timeout;
        r.reason = fmt::format("no result within {} s (per-instance timeout); killed", timeout_s);
        return;
    case ChildOutcome::Kind::crashed:
    case ChildOutcome::Kind::spawn_failed:
        r.status = Status::crash;
        r.reason = o.describe();
        return;
    }
}

} // namespace

InstanceRunner::InstanceRunner(const RunSettings &s, const Plan &p, report::JournalWriter &journal,
                               const std::map<std::string, InstanceRecord> &previous,
                               Progress &progress, const std::vector<std::string> &order)
    : s_(s), plan_(p), journal_(journal), previous_(previous), progress_(progress),
      launched_(p.instances.size(), false) {
    std::unordered_map<std::string, size_t> by_name;
    for (size_t i = 0; i < p.instances.size(); ++i)
        by_name[p.instances[i].name] = i;
    for (const auto &n : order)
        if (auto it = by_name.find(n); it != by_name.end()) order_.push_back(it->second);
}

InstanceRunner::~InstanceRunner() {
    // Catch2 stopped early (--abort): what was started still ends on disk.
    while (!running_.empty())
        poll_all();
}

bool InstanceRunner::needs_child(size_t index) const {
    const auto &in = plan_.instances[index];
    return in.skip_reason.empty() && !previous_.count(in.name);
}

InstanceRecord InstanceRunner::blank_record(size_t index) const {
    const auto &in = plan_.instances[index];
    InstanceRecord r;
    r.index = static_cast<int>(index) + 1;
    r.name = in.name;
    r.suite = in.suite->name;
    r.kase = in.kase->name;
    r.params = in.params;
    return r;
}

void InstanceRunner::launch(size_t index) {
    launched_[index] = true;
    Running run{index, blank_record(index), {}, {}, nullptr};
    run.log_rel = fmt::format("{}/{:05}.log", report::tokens::kLogsDir, run.record.index);
    run.log_abs = (fs::path(s_.results_dir) / run.log_rel).string();
    complain(journal_.start(run.record.index, run.record.name));
    const cases::Instance &in = plan_.instances[index];
    const cases::Topology &topo = plan_.topology;
    run.child = std::make_unique<IsolatedChild>(
        [&in, &topo] { return execute_instance(in, topo).dump(); }, s_.timeout_s, run.log_abs);
    running_.push_back(std::move(run));
}

void InstanceRunner::fill() {
    const size_t jobs = static_cast<size_t>(std::max(1, s_.jobs));
    while (running_.size() < jobs && next_ < order_.size()) {
        size_t i = order_[next_++];
        if (!launched_[i] && needs_child(i)) launch(i);
    }
}

void InstanceRunner::finish(Running &run) {
    outcome_into(run.child->outcome(), s_.timeout_s, run.record);
    std::error_code ec;
    if (fs::exists(run.log_abs, ec) && fs::file_size(run.log_abs, ec) > 0)
        run.record.log = run.log_rel;
    else
        fs::remove(run.log_abs, ec);
    complain(journal_.end(run.record));
    done_[run.index] = std::move(run.record);
}

void InstanceRunner::poll_all() {
    // Short waits per child: whichever finishes first is noticed quickly.
    const int wait_ms = running_.size() > 1 ? 5 : 20;
    for (size_t k = 0; k < running_.size();) {
        if (running_[k].child->poll(wait_ms)) {
            finish(running_[k]);
            running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(k));
        } else {
            ++k;
        }
    }
}

void InstanceRunner::operator()(size_t index) {
    const cases::Instance &in = plan_.instances[index];
    if (auto it = previous_.find(in.name); it != previous_.end()) {
        tell_catch(it->second, true); // already on disk: never rerun (IGT-4)
        return;
    }
    InstanceRecord r;
    if (!in.skip_reason.empty()) {
        r = blank_record(index);
        r.status = Status::skip;
        r.reason = in.skip_reason;
        complain(journal_.end(r));
    } else {
        if (!launched_[index] && !done_.count(index)) launch(index);
        while (!done_.count(index)) {
            fill();
            poll_all();
        }
        r = std::move(done_[index]);
        done_.erase(index);
    }
    progress_.update(in.name, !report::is_success(r.status));
    tell_catch(r, false);
}

void InstanceRunner::tell_catch(const InstanceRecord &r, bool replayed) const {
    // UNSCOPED_INFO: these messages must outlive the if/for that adds them.
    if (replayed) UNSCOPED_INFO("result recorded by the interrupted run (--resume does not rerun)");
    if (!r.log.empty()) UNSCOPED_INFO("output: " << (fs::path(s_.results_dir) / r.log).string());
    for (const auto &k : r.kernel_errors)
        UNSCOPED_INFO("kernel: " << k);
    switch (r.status) {
    case Status::pass:
        SUCCEED();
        break;
    case Status::skip:
        WARN("SKIPPED: " << r.reason);
        break;
    case Status::fail:
        for (const auto &f : r.failures) {
            if (!f.doc.empty()) UNSCOPED_INFO("documented: " << f.doc);
            FAIL_CHECK(f.file << ":" << f.line << ": step " << f.step << ": " << f.message);
        }
        if (r.failures.empty()) FAIL_CHECK(r.reason);
        break;
    default:
        FAIL_CHECK(report::status_name(r.status) << ": " << r.reason);
        break;
    }
}

} // namespace harness::runner
