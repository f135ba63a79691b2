#include "runner/detect.hpp"

#include "manifest/manifest.hpp"
#include "runner/applicability.hpp"

#include "report/journal.hpp"
#include "report/tokens.hpp"
#include "self_process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace harness::runner {

namespace fs = std::filesystem;

namespace {

// One child run; its output goes to DIR/run.log so the table stays readable.
std::vector<std::string> run_args(const RunSettings &s, const std::string &faults,
                                  const fs::path &dir) {
    std::vector<std::string> args{"run",
                                  "--machine",
                                  s.machine,
                                  "--jobs",
                                  std::to_string(s.jobs),
                                  "--results",
                                  (dir / "results").string(),
                                  "--overwrite",
                                  "--timeout",
                                  fmt::format("{}", s.timeout_s)};
    if (!faults.empty())
        args.insert(args.end(),
                    {"--faults", faults, "--max-failures", std::to_string(kDetectMaxFailures)});
    if (!s.manifest.empty()) args.insert(args.end(), {"--expect", s.manifest});
    if (s.depth == cases::Depth::full) args.insert(args.end(), {"--depth", "full"});
    for (const auto &c : s.case_paths)
        args.insert(args.end(), {"--cases", c});
    return args;
}

// The failing instances of a finished run, in index order.
void read_failures(const fs::path &journal, DetectRow &row) {
    if (!fs::exists(journal)) return;
    auto recs = report::records_of(report::read_journal(journal.string()));
    std::sort(recs.begin(), recs.end(),
              [](const auto &a, const auto &b) { return a.index < b.index; });
    for (const auto &r : recs) {
        if (report::is_success(r.status)) continue;
        if (row.first_failure.empty()) row.first_failure = r.name;
        row.families.insert(r.suite + "/" + r.kase);
        ++row.failed;
    }
}

DetectRow run_one(const RunSettings &s, const std::string &name, const std::string &faults,
                  const fs::path &dir) {
    DetectRow row;
    row.scenario = name;
    fs::create_directories(dir);
    const auto start = std::chrono::steady_clock::now();
    const std::string log = (dir / "run.log").string();
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    // Each child starts a simulator of its own (with its scenario).
    const SelfRunResult child =
        run_self(run_args(s, faults, dir), {.leave_simulator = true, .log_fd = fd});
    if (fd >= 0) ::close(fd);
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    row.exit_code = child.exit_code;
    read_failures(dir / "results" / report::tokens::kJournalFile, row);
    row.stopped = !faults.empty() && row.failed >= kDetectMaxFailures;
    if (row.first_failure.empty() && row.exit_code != 0)
        row.first_failure = fmt::format("(run exited {}; see {})", row.exit_code, log);
    return row;
}

} // namespace

namespace {

std::string verdict_of(const DetectRow &r, int min_margin) {
    if (!r.not_applicable.empty()) return "n/a";
    if (!r.detected()) return "NO";
    return r.weak(min_margin) ? "WEAK" : "yes";
}

std::string failed_of(const DetectRow &r) {
    if (!r.not_applicable.empty()) return "-";
    if (r.run_level()) return "run";
    return fmt::format("{}{}", r.stopped ? ">=" : "", r.failed);
}

std::string families_of(const DetectRow &r) {
    if (r.families.empty()) return "-";
    return fmt::format("{}{}", r.stopped ? ">=" : "", r.families.size());
}

std::string notes(const std::vector<DetectRow> &rows, int min_margin) {
    std::string out;
    auto any = [&](auto pred) { return std::any_of(rows.begin(), rows.end(), pred); };
    if (any([&](const DetectRow &r) { return r.weak(min_margin); }))
        out += fmt::format("WEAK: caught by fewer than {} failing instances (--min-margin): one "
                           "draw of the covering array from a miss, a gap in the suite\n",
                           min_margin);
    if (any([](const DetectRow &r) { return r.run_level(); }))
        out += "run: the run failed before any instance, on what the kernel shows against the "
               "manifest (checked by every run, whatever the covering array draws)\n";
    if (any([](const DetectRow &r) { return !r.not_applicable.empty(); }))
        out += "n/a: the fault cannot fire on this machine (decided from the manifest and the "
               "scenario's scopes before running; the reason is in the last column)\n";
    if (any([](const DetectRow &r) { return r.stopped; }))
        out += fmt::format(">=N: the run stopped after {} failing instances (run --max-failures)\n",
                           kDetectMaxFailures);
    return out;
}

} // namespace

std::string render_detect(const DetectRow &faithful, const std::vector<DetectRow> &rows,
                          int min_margin) {
    std::string out = fmt::format("{:<34} {:<8} {:>7} {:>8} {:>8}  {}\n", "scenario", "detected",
                                  "failed", "families", "time", "first failing instance");
    auto line = [&](const DetectRow &r, const std::string &verdict) {
        const std::string last = !r.not_applicable.empty() ? r.not_applicable
                                 : r.first_failure.empty() ? "-"
                                                           : r.first_failure;
        out += fmt::format("{:<34} {:<8} {:>7} {:>8} {:>7.1f}s  {}\n", r.scenario, verdict,
                           failed_of(r), families_of(r), r.seconds, last);
    };
    line(faithful, faithful.exit_code == 0 ? "clean" : "FAILS");
    int strong = 0, weak = 0, na = 0;
    for (const auto &r : rows) {
        line(r, verdict_of(r, min_margin));
        na += r.not_applicable.empty() ? 0 : 1;
        weak += r.not_applicable.empty() && r.weak(min_margin) ? 1 : 0;
        strong += r.not_applicable.empty() && r.detected() && !r.weak(min_margin) ? 1 : 0;
    }
    out += notes(rows, min_margin);
    out += fmt::format("{} of {} scenarios detected with margin >= {}, {} weak, {} not applicable, "
                       "{} false failures\n",
                       strong, rows.size() - size_t(na), min_margin, weak, na,
                       faithful.exit_code == 0 ? 0 : std::max(1, faithful.failed));
    return out;
}

int detect_verdict(const DetectRow &faithful, const std::vector<DetectRow> &rows, int min_margin) {
    const bool all = std::all_of(rows.begin(), rows.end(), [&](const DetectRow &r) {
        return !r.not_applicable.empty() || (r.detected() && !r.weak(min_margin));
    });
    return all && faithful.exit_code == 0 ? 0 : 1;
}

namespace {

// The scenario files: one file, or every *.yaml of a directory, in name order.
bool list_scenarios(const std::string &path, std::vector<fs::path> &out) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        out.emplace_back(path);
        return true;
    }
    for (const auto &e : fs::directory_iterator(path, ec))
        if (e.path().extension() == ".yaml") out.push_back(e.path());
    if (ec) {
        std::cerr << "peer-harness: cannot read " << path << ": " << ec.message() << "\n";
        return false;
    }
    std::sort(out.begin(), out.end());
    return true;
}

// The machine file as the manifest applicability is decided from; without
// one every scenario is run (and a wrong one shows up as a miss).
std::optional<manifest::Manifest> load_detect_manifest(const std::string &path) {
    if (path.empty()) return std::nullopt;
    auto m = manifest::load_manifest(path);
    if (auto *d = std::get_if<cases::Diagnostic>(&m)) {
        std::cerr << "peer-harness: " << d->to_string()
                  << " (every scenario is run, none is ruled out)\n";
        return std::nullopt;
    }
    return std::get<manifest::Manifest>(std::move(m));
}

} // namespace

int detect_command(const RunSettings &s, const DetectOptions &o) {
    if (s.machine.empty()) {
        std::cerr
            << "peer-harness: detect needs --machine (fault scenarios run on the simulator)\n";
        return 2;
    }
    std::vector<fs::path> scenarios;
    if (!list_scenarios(o.faults, scenarios)) return 2;
    const std::optional<manifest::Manifest> m = load_detect_manifest(o.manifest);
    const fs::path work =
        s.results_dir.empty() ? fs::current_path() / "peer-detect" : fs::path(s.results_dir);
    const auto start = std::chrono::steady_clock::now();
    std::cerr << "detect: faithful run on " << s.machine << " ...\n";
    const DetectRow faithful = run_one(s, "(faithful)", "", work / "faithful");
    std::vector<DetectRow> rows;
    for (const auto &f : scenarios) {
        const Applicability a = m ? scenario_applicability(*m, f.string()) : Applicability{};
        if (!a.applicable) {
            DetectRow row;
            row.scenario = f.stem().string();
            row.not_applicable = a.reason;
            rows.push_back(std::move(row));
            continue;
        }
        std::cerr << "detect: " << f.stem().string() << " ...\n";
        rows.push_back(run_one(s, f.stem().string(), fs::absolute(f).string(), work / f.stem()));
        // A scenario file the simulator rejects is bad input, not a detection.
        if (rows.back().exit_code == 2) {
            std::cerr << "peer-harness: " << f.string() << " was rejected (exit 2); see "
                      << (work / f.stem() / "run.log").string() << "\n";
            return 2;
        }
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << render_detect(faithful, rows, o.min_margin);
    std::cout << fmt::format("machine {}, --jobs {}, wall time {:.1f} s; runs in {}\n", s.machine,
                             s.jobs, wall, work.string());
    return detect_verdict(faithful, rows, o.min_margin);
}

} // namespace harness::runner
