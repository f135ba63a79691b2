#include "runner/run.hpp"

#include "cases/loader.hpp"
#include "report/journal.hpp"
#include "report/junit.hpp"
#include "report/summary.hpp"
#include "report/tokens.hpp"
#include "runner/catch_registration.hpp"
#include "runner/coverage.hpp"
#include "runner/executor.hpp"
#include "runner/isolation.hpp"
#include "runner/progress.hpp"
#include "runner/results_dir.hpp"
#include "runner/topology_probe.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace harness::runner {

namespace fs = std::filesystem;
using report::InstanceRecord;
using report::Status;

namespace {

constexpr const char *kDisruptiveReason =
    "disruptive (provokes VM faults, hangs or resets): on real hardware it runs only with "
    "--allow-disruptive";

void print_diagnostics(const cases::Diagnostics &d) {
    for (const auto &e : d)
        std::cerr << e.to_string() << "\n";
}

// Loading, topology and expansion: everything a command needs before it can
// run or list anything. On failure the diagnostics are printed.
struct Plan {
    std::vector<cases::Suite> suites;
    cases::Topology topology;
    std::vector<cases::Instance> instances;
};

std::optional<Plan> make_plan(const RunSettings &s, const cases::Topology *saved) {
    Plan p;
    cases::LoadResult loaded = cases::load_paths(s.case_paths);
    if (!loaded.ok()) {
        print_diagnostics(loaded.errors);
        std::cerr << loaded.errors.size() << " error(s) in case files; nothing was run\n";
        return std::nullopt;
    }
    p.suites = std::move(loaded.suites);
    if (saved) {
        p.topology = *saved;
    } else {
        auto t = probe_topology(30);
        if (auto *e = std::get_if<std::string>(&t)) {
            std::cerr << "peer-harness: cannot read the machine's topology: " << *e << "\n";
            return std::nullopt;
        }
        p.topology = std::get<cases::Topology>(t);
    }
    cases::Expansion ex = cases::expand(p.suites, p.topology, {s.depth, s.seed});
    if (!ex.errors.empty()) {
        print_diagnostics(ex.errors);
        std::cerr << ex.errors.size() << " error(s) expanding case files; nothing was run\n";
        return std::nullopt;
    }
    p.instances = std::move(ex.instances);
    // A developer's desktop GPU is never faulted or reset by surprise.
    if (!s.on_simulator && !s.allow_disruptive) {
        for (auto &in : p.instances) {
            if (in.disruptive && in.skip_reason.empty()) {
                in.skip_reason = kDisruptiveReason;
                in.tags.push_back("skipped");
            }
        }
    }
    return p;
}

// Runs one instance (or replays its recorded result) inside Catch2's test
// context: the journal line is written first, then Catch2 is told.
class InstanceRunner {
  public:
    InstanceRunner(const RunSettings &s, const Plan &p, report::JournalWriter *journal,
                   const std::map<std::string, InstanceRecord> *previous, Progress *progress)
        : s_(s), plan_(p), journal_(journal), previous_(previous), progress_(progress) {}

    void operator()(size_t index) {
        const cases::Instance &in = plan_.instances[index];
        InstanceRecord r;
        if (previous_) {
            if (auto it = previous_->find(in.name); it != previous_->end()) {
                // Already on disk: never rerun (a crash is final, IGT-4).
                tell_catch(it->second, true);
                return;
            }
        }
        r.index = static_cast<int>(index) + 1;
        r.name = in.name;
        r.suite = in.suite->name;
        r.kase = in.kase->name;
        r.params = in.params;
        if (!in.skip_reason.empty()) {
            r.status = Status::skip;
            r.reason = in.skip_reason;
        } else if (journal_) {
            write(journal_->start(r.index, r.name));
            execute(in, r);
        } else {
            execute(in, r);
        }
        if (journal_) write(journal_->end(r));
        if (progress_) progress_->update(in.name, !report::is_success(r.status));
        tell_catch(r, false);
    }

  private:
    const RunSettings &s_;
    const Plan &plan_;
    report::JournalWriter *journal_;
    const std::map<std::string, InstanceRecord> *previous_;
    Progress *progress_;

    static void write(const std::string &err) {
        if (!err.empty()) std::cerr << "peer-harness: " << err << "\n";
    }

    void execute(const cases::Instance &in, InstanceRecord &r) {
        std::string log_rel, log_abs;
        if (!s_.results_dir.empty()) {
            log_rel = fmt::format("{}/{:05}.log", report::tokens::kLogsDir, r.index);
            log_abs = (fs::path(s_.results_dir) / log_rel).string();
        }
        const cases::Topology &topo = plan_.topology;
        ChildOutcome o =
            run_isolated([&] { return execute_instance(in, topo).dump(); }, s_.timeout_s, log_abs);
        r.duration_s = o.duration_s;
        std::error_code ec;
        if (!log_abs.empty()) {
            if (fs::exists(log_abs, ec) && fs::file_size(log_abs, ec) > 0)
                r.log = log_rel;
            else
                fs::remove(log_abs, ec);
        }
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
            return;
        }
        case ChildOutcome::Kind::timed_out:
            r.status = Status::timeout;
            r.reason =
                fmt::format("no result within {} s (per-instance timeout); killed", s_.timeout_s);
            return;
        case ChildOutcome::Kind::crashed:
        case ChildOutcome::Kind::spawn_failed:
            r.status = Status::crash;
            r.reason = o.describe();
            return;
        }
    }

    void tell_catch(const InstanceRecord &r, bool replayed) const {
        // UNSCOPED_INFO: these messages must outlive the if/for that adds them.
        if (replayed)
            UNSCOPED_INFO("result recorded by the interrupted run (--resume does not rerun)");
        if (!r.log.empty())
            UNSCOPED_INFO("output: " << (fs::path(s_.results_dir) / r.log).string());
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
};

void write_derived(const std::string &dir, const std::vector<InstanceRecord> &recs,
                   const std::string &summary) {
    std::ofstream(fs::path(dir) / report::tokens::kJunitFile)
        << report::render_junit(recs, "peer-harness");
    std::ofstream(fs::path(dir) / report::tokens::kSummaryFile) << summary;
}

} // namespace

int run_command(RunSettings s) {
    const auto wall_start = std::chrono::steady_clock::now();
    std::optional<SavedRun> saved;
    if (s.resume) {
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
        // The run continues as it was started; a new timeout, or new Catch2
        // arguments (e.g. a narrower test spec), may be given on resume.
        const RunSettings asked = s;
        s = saved->settings;
        s.resume = true;
        s.timeout_s = asked.timeout_s;
        if (!asked.catch_args.empty()) s.catch_args = asked.catch_args;
    }
    auto plan = make_plan(s, saved ? &saved->topology : nullptr);
    if (!plan) return 2;
    if (saved) {
        std::vector<std::string> now;
        for (const auto &in : plan->instances)
            now.push_back(in.name);
        if (now != saved->instance_names) {
            std::cerr << "peer-harness: cannot resume " << s.results_dir
                      << ": the case files now expand to other instances than the run began "
                         "with (instances.txt); start a new run\n";
            return 2;
        }
    }

    CatchSession session;
    if (session.apply_command_line(s.catch_args) != 0) return 2;
    InstanceCallback callback;
    register_instances(plan->instances, &callback);
    if (session.listing_only()) {
        callback = [](size_t) {};
        session.run(); // Catch2 returns the number listed, not a failure count
        return 0;
    }
    if (s.results_dir.empty()) {
        std::cerr << "peer-harness: run needs --results DIR (where the journal is written)\n";
        return 2;
    }

    std::map<std::string, InstanceRecord> previous;
    if (!saved) {
        if (auto e = start_results_dir(s, plan->topology, plan->instances); !e.empty()) {
            std::cerr << "peer-harness: " << e << "\n";
            return 2;
        }
    }
    const std::string journal_path =
        (fs::path(s.results_dir) / report::tokens::kJournalFile).string();
    if (saved) {
        report::JournalState st = report::read_journal(journal_path);
        for (const auto &p : st.problems)
            std::cerr << "peer-harness: " << p << "\n";
        previous = st.ended;
        for (const auto &r : report::records_of(st))
            if (r.status == Status::incomplete) previous[r.name] = r;
    }
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

    Progress progress(static_cast<int>(session.count_selected()), true);
    InstanceRunner runner(s, *plan, &journal, &previous, &progress);
    callback = [&runner](size_t i) { runner(i); };
    session.run();
    progress.finish();

    report::JournalState st = report::read_journal(journal_path);
    std::vector<InstanceRecord> recs = report::records_of(st);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    report::Summary sum = report::summarise(recs);
    std::string text = report::render_summary(sum, wall);
    write_derived(s.results_dir, recs, text);
    std::cerr << "\n" << text;
    std::cerr << "results: " << s.results_dir << " (" << report::tokens::kJournalFile << ", "
              << report::tokens::kJunitFile << ", " << report::tokens::kSummaryFile << ", "
              << report::tokens::kLogsDir << "/)\n";
    return sum.total.failures() == 0 ? 0 : 1;
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

int summary_command(const std::string &dir) {
    const std::string path = (fs::path(dir) / report::tokens::kJournalFile).string();
    if (!fs::exists(path)) {
        std::cerr << "peer-harness: " << path << " not found\n";
        return 2;
    }
    report::JournalState st = report::read_journal(path);
    for (const auto &p : st.problems)
        std::cerr << "peer-harness: " << p << "\n";
    auto recs = report::records_of(st);
    report::Summary sum = report::summarise(recs);
    std::string text = report::render_summary(sum, -1);
    write_derived(dir, recs, text);
    std::cout << text;
    return sum.total.failures() == 0 ? 0 : 1;
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
