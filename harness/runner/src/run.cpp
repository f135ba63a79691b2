#include "runner/run.hpp"

#include "cases/loader.hpp"
#include "cases/step_table.hpp"
#include "report/compare.hpp"
#include "report/csv.hpp"
#include "report/journal.hpp"
#include "report/junit.hpp"
#include "report/summary.hpp"
#include "report/timing.hpp"
#include "report/tokens.hpp"
#include "runner/catch_registration.hpp"
#include "runner/coverage.hpp"
#include "runner/differential.hpp"
#include "runner/executor.hpp"
#include "runner/instance_runner.hpp"
#include "runner/isolation.hpp"
#include "runner/plan.hpp"
#include "runner/progress.hpp"
#include "runner/results_dir.hpp"
#include "runner/topology_probe.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <set>

namespace harness::runner {

namespace fs = std::filesystem;
using report::InstanceRecord;
using report::Status;

namespace {

void write_derived(const std::string &dir, const std::vector<InstanceRecord> &recs,
                   const std::string &summary) {
    std::ofstream(fs::path(dir) / report::tokens::kJunitFile)
        << report::render_junit(recs, "peer-harness");
    std::ofstream(fs::path(dir) / report::tokens::kSummaryFile) << summary;
    std::ofstream(fs::path(dir) / report::tokens::kCsvFile) << report::render_csv(recs);
    std::ofstream(fs::path(dir) / report::tokens::kBandwidthCsvFile)
        << report::render_bandwidth_csv(recs);
}

// Baseline skips (harness/lab): matching instances are not run; the reason
// names the pattern so the journal says why.
std::string apply_skip_patterns(const RunSettings &s, Plan &plan) {
    for (const auto &[pattern, reason] : s.skip_patterns) {
        std::regex re;
        try {
            re = std::regex(pattern, std::regex::ECMAScript);
        } catch (const std::regex_error &e) {
            return "skip pattern /" + pattern + "/ (" + reason + "): " + e.what();
        }
        for (auto &in : plan.instances)
            if (in.skip_reason.empty() && std::regex_match(in.name, re)) in.skip_reason = reason;
    }
    return {};
}

// The runtime's share of the plan. ROCm's HIP reaches the kernel one way
// (through KFD), so where an instance has a path=kfd twin only that one runs
// on it (the quick depth's covering array draws each path's tuples on its
// own, so a path=drm instance may have none: it runs, its path meaning
// nothing to ROCm). The harness's peer API learns --devices the way a user tells any
// HIP runtime (HIP_VISIBLE_DEVICES, inherited by every instance's process;
// the plan has already numbered them from 0). ROCm's runtime must list those
// GPUs by itself (the differential run checks it does).
void prepare_runtime(const RunSettings &s, Plan &plan) {
    if (s.runtime == RuntimeKind::rocm) {
        std::set<std::string> kfd;
        for (const auto &in : plan.instances)
            if (auto it = in.words.find("path"); it != in.words.end() && it->second == "kfd")
                kfd.insert(differential_key(in.name));
        for (auto &in : plan.instances) {
            auto it = in.words.find("path");
            if (it != in.words.end() && it->second != "kfd" && in.skip_reason.empty() &&
                kfd.count(differential_key(in.name)))
                in.skip_reason = "path=" + it->second +
                                 ": ROCm's runtime reaches the kernel through KFD only (the "
                                 "path=kfd twin runs)";
        }
        return;
    }
    if (s.devices.empty()) return;
    std::string list;
    for (int d : s.devices)
        list += (list.empty() ? "" : ",") + std::to_string(d);
    ::setenv("HIP_VISIBLE_DEVICES", list.c_str(), 1);
    ::unsetenv("ROCR_VISIBLE_DEVICES");
}

constexpr int kGoOn = -1; // a step of run_command that did not end the run

// --resume: the run continues as it was started; a new timeout, or new
// Catch2 arguments (e.g. a narrower test spec), may be given on resume.
int resume_settings(RunSettings &s, std::optional<SavedRun> &saved) {
    if (!s.resume) return kGoOn;
    if (s.results_dir.empty()) {
        std::cerr << "peer-harness: --resume needs --results DIR\n";
        return 2;
    }
    auto r = read_results_dir(s.results_dir);
    if (auto *e = std::get_if<std::string>(&r)) {
        std::cerr << "peer-harness: " << *e << "\n";
        return 2;
    }
    saved = std::get<SavedRun>(r);
    const RunSettings asked = s;
    s = saved->settings;
    s.resume = true;
    s.timeout_s = asked.timeout_s;
    s.jobs = asked.jobs;
    s.isolation = asked.isolation; // how to isolate never changes a verdict
    s.batch_size = asked.batch_size;
    if (!asked.catch_args.empty()) s.catch_args = asked.catch_args;
    return kGoOn;
}

// What the plan says before anything runs: no device, a manifest the machine
// does not match, bad skip patterns, a resumed run whose cases changed.
int check_plan(const RunSettings &s, Plan &plan, const std::optional<SavedRun> &saved) {
    if (!plan.no_device.empty()) {
        std::cerr << "peer-harness: error: " << plan.no_device << "\n";
        return kNoDeviceExit;
    }
    if (!plan.manifest_mismatch.empty()) {
        std::cerr << "peer-harness: FAIL: " << plan.manifest_mismatch << "; nothing was run\n";
        return 1;
    }
    if (auto e = apply_skip_patterns(s, plan); !e.empty()) {
        std::cerr << "peer-harness: " << e << "\n";
        return 2;
    }
    prepare_runtime(s, plan);
    if (!saved) return kGoOn;
    std::vector<std::string> now;
    for (const auto &in : plan.instances)
        now.push_back(in.name);
    if (now == saved->instance_names) return kGoOn;
    std::cerr << "peer-harness: cannot resume " << s.results_dir
              << ": the case files now expand to other instances than the run began "
                 "with (instances.txt); start a new run\n";
    return 2;
}

// The results directory (a fresh, dated one unless given: a run never
// overwrites an earlier one by default), written before anything runs; on
// resume, the instances the journal already ended.
int prepare_results(RunSettings &s, const Plan &plan, bool resuming,
                    std::map<std::string, InstanceRecord> &previous) {
    if (s.results_dir.empty()) {
        char stamp[32];
        std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", std::gmtime(&now));
        s.results_dir = (fs::current_path() / "peer-results" / stamp).string();
    }
    if (!resuming) {
        if (auto e = start_results_dir(s, plan.topology, plan.instances); !e.empty()) {
            std::cerr << "peer-harness: " << e << "\n";
            return 2;
        }
        return kGoOn;
    }
    report::JournalState st =
        report::read_journal((fs::path(s.results_dir) / report::tokens::kJournalFile).string());
    for (const auto &p : st.problems)
        std::cerr << "peer-harness: " << p << "\n";
    previous = st.ended;
    for (const auto &r : report::records_of(st))
        if (r.status == Status::incomplete) previous[r.name] = r;
    return kGoOn;
}

// Catch2's selection in its run order, kept to this shard (--shard I/N);
// `outside` gets the plan indices another shard runs.
std::vector<std::string> shard_order(const RunSettings &s, const Plan &plan,
                                     std::vector<std::string> order, std::set<size_t> &outside) {
    if (s.shard_count <= 1) return order;
    std::map<std::string, size_t> by_name;
    for (size_t i = 0; i < plan.instances.size(); ++i)
        by_name[plan.instances[i].name] = i;
    std::vector<std::string> mine;
    for (size_t pos = 0; pos < order.size(); ++pos) {
        if (in_shard(pos, s.shard_index, s.shard_count))
            mine.push_back(order[pos]);
        else if (auto it = by_name.find(order[pos]); it != by_name.end())
            outside.insert(it->second);
    }
    return mine;
}

// The derived reports and the summary, from the journal; the exit code.
int finish_run(const RunSettings &s, double wall, size_t not_run) {
    const std::string journal_path =
        (fs::path(s.results_dir) / report::tokens::kJournalFile).string();
    report::JournalState st = report::read_journal(journal_path);
    std::vector<InstanceRecord> recs = report::records_of(st);
    report::Summary sum = report::summarise(recs);
    std::string text = report::render_summary(sum, wall);
    if (not_run)
        text += fmt::format("stopped after {} failing instances (--max-failures): {} instances "
                            "not run (--resume runs them)\n",
                            s.max_failures, not_run);
    write_derived(s.results_dir, recs, text);
    std::cerr << "\n" << text;
    std::cerr << "results: " << s.results_dir << " (" << report::tokens::kJournalFile << ", "
              << report::tokens::kJunitFile << ", " << report::tokens::kCsvFile << ", "
              << report::tokens::kBandwidthCsvFile << ", " << report::tokens::kSummaryFile << ", "
              << report::tokens::kLogsDir << "/)\n";
    return sum.total.failures() == 0 ? 0 : 1;
}

} // namespace

int run_command(RunSettings s) {
    const auto wall_start = std::chrono::steady_clock::now();
    std::optional<SavedRun> saved;
    if (int rc = resume_settings(s, saved); rc != kGoOn) return rc;
    auto plan = make_plan(s, saved ? &saved->topology : nullptr);
    if (!plan) return 2;
    if (int rc = check_plan(s, *plan, saved); rc != kGoOn) return rc;

    CatchSession session;
    if (session.apply_command_line(s.catch_args) != 0) return 2;
    InstanceCallback callback;
    register_instances(plan->instances, &callback);
    if (session.listing_only()) {
        callback = [](size_t) {};
        session.run(); // Catch2 returns the number listed, not a failure count
        return 0;
    }
    std::map<std::string, InstanceRecord> previous;
    if (int rc = prepare_results(s, *plan, saved.has_value(), previous); rc != kGoOn) return rc;
    const std::string journal_path =
        (fs::path(s.results_dir) / report::tokens::kJournalFile).string();
    auto opened = report::JournalWriter::open(journal_path, s.sync);
    if (auto *e = std::get_if<std::string>(&opened)) {
        std::cerr << "peer-harness: " << *e << "\n";
        return 2;
    }
    auto &journal = std::get<report::JournalWriter>(opened);
    // An instance that was running when the previous runner died is final:
    // record it as incomplete now (IGT-4: never rerun a started instance).
    for (const auto &[name, r] : previous)
        if (r.status == Status::incomplete) journal.end(r);

    std::set<size_t> outside_shard; // plan indices Catch2 selected but another shard runs
    const std::vector<std::string> order =
        shard_order(s, *plan, session.selected_names(), outside_shard);
    Progress progress(static_cast<int>(order.size()), true);
    size_t not_run = 0;
    {
        InstanceRunner runner(s, *plan, journal, previous, progress, order);
        // Catch2 still visits another shard's instances: they are neither run
        // nor journaled (Catch2 counts them as tests without assertions).
        callback = [&runner, &outside_shard](size_t i) {
            if (!outside_shard.count(i)) runner(i);
        };
        session.run();
        callback = [](size_t) {};
        not_run = runner.not_run();
    } // the runner waits for anything still running before the journal is read
    progress.finish();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return finish_run(s, wall, not_run);
}

int list_command(const RunSettings &s) {
    auto plan = make_plan(s, nullptr);
    if (!plan) return 2;
    std::cout << "# " << plan->topology.device_count << " device(s), topology from "
              << plan->topology.source << "\n";
    for (int d = 0; d < plan->topology.device_count; ++d) {
        std::cout << "#   " << d << ": " << plan->topology.names[static_cast<size_t>(d)] << " ->";
        for (int p = 0; p < plan->topology.device_count; ++p)
            if (p != d)
                std::cout << " " << p << ":"
                          << cases::link_type_name(plan->topology.link_type(d, p))
                          << (plan->topology.can_access(d, p) ? "+direct" : "");
        std::cout << "\n";
    }
    size_t skipped = 0;
    for (const auto &in : plan->instances) {
        std::cout << in.name << "  " << catch_tags(in);
        if (!in.skip_reason.empty()) {
            std::cout << "  SKIP: " << in.skip_reason;
            ++skipped;
        }
        std::cout << "\n";
    }
    std::cout << "# " << plan->instances.size() << " instances (" << skipped << " skipped), depth "
              << cases::depth_name(s.depth) << ", seed " << s.seed << "\n";
    return 0;
}

int check_command(const RunSettings &s) {
    cases::LoadResult loaded = cases::load_paths(s.case_paths);
    if (!loaded.ok()) {
        print_diagnostics(loaded.errors);
        return 2;
    }
    // Expansion over a stand-in machine catches expressions that do not
    // evaluate without touching any device.
    cases::Topology t = cases::Topology::make(4);
    t.set(0, 1, cases::LinkType::xgmi, true);
    t.set(1, 0, cases::LinkType::xgmi, true);
    t.set(0, 2, cases::LinkType::pcie, true);
    cases::Expansion ex = cases::expand(loaded.suites, t, {s.depth, s.seed});
    if (!ex.errors.empty()) {
        print_diagnostics(ex.errors);
        return 2;
    }
    size_t cases_n = 0;
    for (const auto &su : loaded.suites)
        cases_n += su.cases.size();
    std::cout << loaded.suites.size() << " suite(s), " << cases_n << " case(s): OK\n";
    return 0;
}

namespace {

// The journal of a results directory, its repair notes on stderr; nullopt
// (and why on stderr) when there is none.
std::optional<report::JournalState> open_journal(const std::string &dir) {
    const std::string path = (fs::path(dir) / report::tokens::kJournalFile).string();
    if (!fs::exists(path)) {
        std::cerr << "peer-harness: " << path << " not found\n";
        return std::nullopt;
    }
    report::JournalState st = report::read_journal(path);
    for (const auto &p : st.problems)
        std::cerr << "peer-harness: " << p << "\n";
    return st;
}

} // namespace

int summary_command(const std::string &dir) {
    const auto st = open_journal(dir);
    if (!st) return 2;
    auto recs = report::records_of(*st);
    report::Summary sum = report::summarise(recs);
    std::string text = report::render_summary(sum, -1);
    write_derived(dir, recs, text);
    std::cout << text;
    return sum.total.failures() == 0 ? 0 : 1;
}

int compare_command(const std::string &before_dir, const std::string &after_dir,
                    double bandwidth_threshold_pct) {
    std::vector<InstanceRecord> runs[2];
    const std::string dirs[2] = {before_dir, after_dir};
    for (int i = 0; i < 2; ++i) {
        const auto st = open_journal(dirs[i]);
        if (!st) return 2;
        runs[i] = report::records_of(*st);
    }
    report::Comparison c = report::compare_runs(runs[0], runs[1], {bandwidth_threshold_pct});
    std::cout << report::render_comparison(c);
    return c.gates() ? 1 : 0;
}

int timing_command(const RunSettings &s, const std::string &dir, const std::string &by, size_t top,
                   bool cases_given) {
    const auto st = open_journal(dir);
    if (!st) return 2;
    // Step kinds from the case files: the run's own (metadata.json) unless
    // others are given. Files changed since the run, or gone, still give the
    // figures, with the steps they cannot name shown as "?".
    std::vector<std::string> case_paths = s.case_paths;
    if (!cases_given) {
        auto saved = read_results_dir(dir);
        if (auto *run = std::get_if<SavedRun>(&saved)) case_paths = run->settings.case_paths;
    }
    std::map<std::string, std::vector<std::string>> kinds;
    cases::LoadResult loaded = cases::load_paths(case_paths);
    if (!loaded.ok())
        std::cerr << "peer-harness: the case files did not load; steps are not named\n";
    for (const auto &su : loaded.suites)
        for (const auto &c : su.cases) {
            auto &k = kinds[su.name + "/" + c.name];
            for (const auto &step : c.steps)
                k.push_back(step.spec ? step.spec->name : "");
        }
    auto name = [&](const std::string &family, int step) -> std::string {
        auto it = kinds.find(family);
        if (it == kinds.end() || step < 1 || static_cast<size_t>(step) > it->second.size())
            return "";
        return it->second[static_cast<size_t>(step) - 1];
    };
    std::cout << report::render_timing(report::time_by_family(report::records_of(*st), by), by, top,
                                       name);
    return 0;
}

int coverage_command(const RunSettings &s) {
    auto plan = make_plan(s, nullptr);
    if (!plan) return 2;
    auto c = documented_coverage(plan->instances);
    std::cout << "machine: " << plan->topology.device_count << " device(s)"
              << (s.machine.empty() ? std::string() : " (" + s.machine + ")") << "\n"
              << render_coverage(c);
    for (const auto &x : c)
        if (x.instances == 0) return 1;
    return 0;
}

} // namespace harness::runner
