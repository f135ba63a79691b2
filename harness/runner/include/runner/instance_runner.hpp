// Runs instances as Catch2 asks for them, each in its own child process or
// (--isolation batch) up to batch_size in one child (batch.hpp), up to `jobs`
// children at once: when Catch2 asks for instance i, the runner keeps the
// next selected instances (in Catch2's own order) running in the background,
// so two cores are used while Catch2 still reports one test at a time, in
// order, from its main thread (C2-6). Every start and end is journaled as it
// happens; a result already on disk (resume) is replayed, never rerun.
#pragma once

#include "report/journal.hpp"
#include "runner/batch.hpp"
#include "runner/isolation.hpp"
#include "runner/plan.hpp"
#include "runner/progress.hpp"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace harness::runner {

class InstanceRunner {
  public:
    // `order`: names of the selected instances in the order Catch2 will ask.
    InstanceRunner(const RunSettings &s, const Plan &p, report::JournalWriter &journal,
                   const std::map<std::string, report::InstanceRecord> &previous,
                   Progress &progress, const std::vector<std::string> &order);
    // Waits for instances still running (started ones are always journaled).
    ~InstanceRunner();

    void operator()(size_t index); // called by Catch2 for each selected instance
    // Instances Catch2 asked for that were not run because --max-failures
    // was reached.
    size_t not_run() const { return not_run_; }

  private:
    struct Running {
        size_t index;
        report::InstanceRecord record;
        std::string log_rel, log_abs;
        std::unique_ptr<IsolatedChild> child;
    };

    struct Batch {
        std::vector<size_t> indexes; // plan indexes, in run order
        std::vector<report::InstanceRecord> records;
        std::vector<std::string> log_rel, log_abs;
        std::unique_ptr<BatchChild> child;
    };

    const RunSettings &s_;
    const Plan &plan_;
    report::JournalWriter &journal_;
    const std::map<std::string, report::InstanceRecord> &previous_;
    Progress &progress_;
    std::vector<size_t> order_;
    size_t next_ = 0;
    std::vector<Running> running_;
    std::vector<Batch> batches_;
    std::deque<size_t> retry_; // not started by a batch that ended early: run next
    std::vector<bool> launched_;
    size_t unlaunched_ = 0; // instances of order_ that need a child and have none yet
    std::map<size_t, report::InstanceRecord> done_;
    size_t failed_ = 0, not_run_ = 0;
    bool stopping() const { return s_.max_failures > 0 && failed_ >= size_t(s_.max_failures); }
    // Stopping, and `index` can no longer start: never launched, or handed
    // back by a batch that ended before it.
    bool abandoned(size_t index) const;

    bool needs_child(size_t index) const;
    bool batch_mode() const { return s_.isolation == "batch"; }
    size_t next_batch_size() const;
    void launch(size_t index);
    void launch_batch(std::vector<size_t> indexes);
    bool poll_batch(Batch &b, int wait_ms); // true once its child is gone
    void end_instance(size_t index, report::InstanceRecord &record, const ChildOutcome &o,
                      const std::string &log_rel, const std::string &log_abs);
    void fill();
    void poll_all();
    void finish(Running &r);
    report::InstanceRecord blank_record(size_t index) const;
    void tell_catch(const report::InstanceRecord &r, bool replayed) const;
};

} // namespace harness::runner
