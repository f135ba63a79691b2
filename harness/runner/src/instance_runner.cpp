#include "runner/instance_runner.hpp"

#include "report/tokens.hpp"
#include "runner/executor.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
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
        for (const auto &c : j.value("copies", nlohmann::json::array()))
            r.copies.push_back(report::copy_from_json(c));
        if (j.contains("step_ms")) r.step_times = report::step_times_from_json(j["step_ms"]);
        if (j.contains("answers")) r.answers = report::step_answers_from_json(j["answers"]);
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
    for (size_t i : order_)
        if (needs_child(i)) ++unlaunched_;
}

InstanceRunner::~InstanceRunner() {
    // Catch2 stopped early (--abort): what was started still ends on disk
    // (a batch already launched runs to its end, as launched children do).
    while (!running_.empty() || !batches_.empty())
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
    --unlaunched_;
    Running run{index, blank_record(index), {}, {}, nullptr};
    run.log_rel = fmt::format("{}/{:05}.log", report::tokens::kLogsDir, run.record.index);
    run.log_abs = (fs::path(s_.results_dir) / run.log_rel).string();
    complain(journal_.start(run.record.index, run.record.name));
    const cases::Instance &in = plan_.instances[index];
    const cases::Topology &topo = plan_.topology;
    const RuntimeKind runtime = s_.runtime;
    const bool record = s_.record_answers;
    run.child = std::make_unique<IsolatedChild>(
        [&in, &topo, runtime, record] {
            use_kernel_path(in);
            Workspace workspace(runtime, record);
            return execute_instance(in, topo, workspace).dump();
        },
        s_.timeout_s, run.log_abs);
    running_.push_back(std::move(run));
}

void InstanceRunner::launch_batch(std::vector<size_t> indexes) {
    Batch b;
    for (size_t i : indexes) {
        if (!launched_[i]) --unlaunched_; // a retried instance was counted at its first launch
        launched_[i] = true;
        b.records.push_back(blank_record(i));
        b.log_rel.push_back(
            fmt::format("{}/{:05}.log", report::tokens::kLogsDir, b.records.back().index));
        b.log_abs.push_back((fs::path(s_.results_dir) / b.log_rel.back()).string());
    }
    b.indexes = std::move(indexes);
    BatchWork work;
    work.count = b.indexes.size();
    const Plan &plan = plan_;
    // Copies: the child uses them after the parent's vectors have moved on.
    // The workspace is made empty here and used only in the child, where it
    // carries memory and patterns from one instance of the batch to the next.
    auto ws = std::make_shared<Workspace>(s_.runtime, s_.record_answers);
    work.run = [idx = b.indexes, &plan, ws](size_t pos) {
        // Every instance of a batch has the same path (fill); the first sets it.
        if (pos == 0) use_kernel_path(plan.instances[idx[pos]]);
        return execute_instance(plan.instances[idx[pos]], plan.topology, *ws).dump();
    };
    work.log_path = [logs = b.log_abs](size_t pos) { return logs[pos]; };
    // A case that faults, hangs or resets on purpose ends its batch: what it
    // did to the device is left to a process exit, as with one per instance.
    work.between = [idx = b.indexes, &plan, ws](size_t pos) {
        return !plan.instances[idx[pos]].disruptive && ws->restore_fresh_state();
    };
    work.lockstep = s_.max_failures > 0;
    b.child = std::make_unique<BatchChild>(work, s_.timeout_s);
    batches_.push_back(std::move(b));
}

size_t InstanceRunner::next_batch_size() const {
    return guided_batch_size(unlaunched_ + retry_.size(), static_cast<size_t>(s_.jobs),
                             static_cast<size_t>(s_.batch_size));
}

void InstanceRunner::fill() {
    if (stopping()) return;
    const size_t jobs = static_cast<size_t>(std::max(1, s_.jobs));
    if (!batch_mode()) {
        while (running_.size() < jobs && next_ < order_.size()) {
            size_t i = order_[next_++];
            if (!launched_[i] && needs_child(i)) launch(i);
        }
        return;
    }
    while (batches_.size() < jobs && (!retry_.empty() || next_ < order_.size())) {
        const size_t size = next_batch_size();
        std::vector<size_t> take;
        // One kernel path per child (the peer API fixes it per process):
        // a batch ends where the next instance's path differs.
        auto same_path = [&](size_t i) {
            return take.empty() || kernel_path_of(plan_.instances[i]) ==
                                       kernel_path_of(plan_.instances[take.front()]);
        };
        // What a batch that ended early never started runs first: it is
        // earlier in Catch2's order than anything not yet launched.
        while (take.size() < size && !retry_.empty() && same_path(retry_.front())) {
            take.push_back(retry_.front());
            retry_.pop_front();
        }
        // Instances of the other path in between are left for a batch of
        // their own (suites interleave the paths); the scan looks a few
        // batches ahead at most, so Catch2's next instance is never far off.
        const size_t window = std::min(order_.size(), next_ + 4 * size);
        for (size_t k = next_; retry_.empty() && take.size() < size && k < window; ++k) {
            const size_t i = order_[k];
            if (launched_[i] || !needs_child(i) || !same_path(i)) continue;
            take.push_back(i);
        }
        if (take.empty()) break;
        launch_batch(std::move(take));
        while (next_ < order_.size() && (launched_[order_[next_]] || !needs_child(order_[next_])))
            ++next_;
    }
}

void InstanceRunner::end_instance(size_t index, InstanceRecord &record, const ChildOutcome &o,
                                  const std::string &log_rel, const std::string &log_abs) {
    outcome_into(o, s_.timeout_s, record);
    // A batch child writes a log only when there is output; a child of its
    // own always has one, removed when empty.
    std::error_code ec;
    const auto size = fs::file_size(log_abs, ec);
    if (!ec && size > 0)
        record.log = log_rel;
    else if (!ec)
        fs::remove(log_abs, ec);
    complain(journal_.end(record));
    if (!report::is_success(record.status) && ++failed_ == size_t(s_.max_failures)) {
        // Batches in flight end after the instance they are running: the
        // rest is not run, like everything not launched yet (a batch of 256
        // instances whose every job times out would otherwise run on).
        for (Batch &b : batches_)
            b.child->stop_after_current();
    }
    done_[index] = std::move(record);
}

bool InstanceRunner::abandoned(size_t index) const {
    if (!stopping() || done_.count(index)) return false;
    return !launched_[index] || std::find(retry_.begin(), retry_.end(), index) != retry_.end();
}

void InstanceRunner::finish(Running &run) {
    end_instance(run.index, run.record, run.child->outcome(), run.log_rel, run.log_abs);
}

bool InstanceRunner::poll_batch(Batch &b, int wait_ms) {
    std::vector<BatchEvent> events;
    const bool gone = b.child->poll(wait_ms, events);
    for (auto &e : events) {
        const size_t index = b.indexes[e.pos];
        InstanceRecord &r = b.records[e.pos];
        if (e.kind == BatchEvent::Kind::started)
            complain(journal_.start(r.index, r.name));
        else {
            end_instance(index, r, e.outcome, b.log_rel[e.pos], b.log_abs[e.pos]);
            if (e.kind == BatchEvent::Kind::ended) b.child->handled(e.pos);
        }
    }
    if (!gone) return false;
    // The child ended early (after the culprit of a crash or hang, or after
    // a disruptive case): what it never started runs in a new batch.
    for (size_t pos = b.child->first_unstarted(); pos < b.indexes.size(); ++pos)
        retry_.push_back(b.indexes[pos]);
    return true;
}

void InstanceRunner::poll_all() {
    // Short waits per child: whichever finishes first is noticed quickly.
    const int wait_ms = running_.size() + batches_.size() > 1 ? 5 : 20;
    for (size_t k = 0; k < batches_.size();) {
        if (poll_batch(batches_[k], wait_ms))
            batches_.erase(batches_.begin() + static_cast<std::ptrdiff_t>(k));
        else
            ++k;
    }
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
    } else if (abandoned(index)) {
        ++not_run_; // --max-failures reached: neither run nor journaled
        return;
    } else {
        if (!batch_mode() && !launched_[index] && !done_.count(index)) launch(index);
        while (!done_.count(index)) {
            // --max-failures was reached while this instance waited: it was
            // never launched (a batch of the other path, or of instances a
            // batch that ended early left over, took the free slots), or a
            // batch stopped before it; nothing will start it now.
            if (abandoned(index)) {
                ++not_run_;
                return;
            }
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
