#include "lab/baseline.hpp"
#include "lab/commands.hpp"
#include "lab/fingerprint.hpp"
#include "lab/html.hpp"
#include "lab/process.hpp"
#include "lab/results.hpp"
#include "report/tokens.hpp"
#include "runner/run.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::lab {

namespace fs = std::filesystem;
using report::Status;

std::string machine_type_of(const runner::RunSettings &s) {
    if (s.machine.empty()) return {};
    fs::path p(s.machine);
    return p.has_extension() ? p.stem().string() : p.filename().string();
}

// Catch2 2.13 test specs treat , [ ] * " ~ and \ specially; a backslash
// makes each literal, so any instance name selects exactly itself.
std::string exact_spec(const std::string &name) {
    std::string out;
    for (char c : name) {
        if (std::strchr(",[]*\"~\\", c)) out += '\\';
        out += c;
    }
    return out;
}

namespace {

// The real retry executor: the same runner, same cases and settings, only
// the named instances, into <results>/retries/<attempt>/.
RetryExecutor process_retry(const runner::RunSettings &s) {
    return [s](const std::vector<std::string> &names, int attempt) {
        std::map<std::string, Status> got;
        const std::string dir =
            (fs::path(s.results_dir) / files::kRetriesDir / std::to_string(attempt)).string();
        std::vector<std::string> args{self_exe(), "run", "--results", dir, "--overwrite"};
        for (const auto &c : s.case_paths) {
            args.push_back("--cases");
            args.push_back(c);
        }
        args.insert(args.end(),
                    {"--depth", cases::depth_name(s.depth), "--seed", std::to_string(s.seed),
                     "--timeout", fmt::format("{}", s.timeout_s)});
        if (!s.machine.empty()) args.insert(args.end(), {"--machine", s.machine});
        std::string spec;
        for (const auto &n : names)
            spec += (spec.empty() ? "" : ",") + exact_spec(n);
        args.push_back(spec);
        std::cerr << "peer-harness: retry " << attempt << ": re-running " << names.size()
                  << " instance(s) into " << dir << "\n";
        int rc = run_process(args);
        if (rc < 0 || rc >= 2)
            std::cerr << "peer-harness: retry " << attempt << " exited " << rc << "\n";
        auto r = read_run(dir);
        if (auto *run = std::get_if<RunResults>(&r))
            for (const auto &rec : run->records)
                got[rec.name] = rec.status;
        return got;
    };
}

void write_file(const fs::path &p, const std::string &text) {
    std::ofstream(p) << text;
}

} // namespace

int lab_run_command(runner::RunSettings s, const LabRunOptions &o) {
    LoadedExpectations loaded;
    std::string type = o.machine_type.empty() ? machine_type_of(s) : o.machine_type;
    if (!o.baseline_dir.empty()) {
        if (type.empty()) {
            std::cerr << "peer-harness: --baseline needs --machine-type on real hardware (the "
                         "prefix of DIR/<type>-fails.txt)\n";
            return 2;
        }
        loaded = load_expectations(o.baseline_dir, type);
        for (const auto &e : loaded.errors)
            std::cerr << e << "\n";
        if (!loaded.errors.empty()) return 2;
        if (loaded.exp.files.empty())
            std::cerr << "peer-harness: note: no " << type << "-{fails,flakes,skips}.txt in "
                      << o.baseline_dir << ": every failure is a regression\n";
        for (const auto &p : loaded.exp.skips)
            s.skip_patterns.emplace_back(p.text, "baseline skips: " + p.where);
    }
    if (s.results_dir.empty() && !s.resume) {
        // Named here (not in the runner) so the lab outputs know where it is.
        char stamp[32];
        std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", std::gmtime(&now));
        s.results_dir = (fs::current_path() / "peer-results" / stamp).string();
    }
    // Absolute, so the reproducer commands in report.html run from anywhere.
    if (!s.faults.empty()) s.faults = fs::absolute(s.faults).lexically_normal().string();
    s.fingerprint = collect_fingerprint(s.case_paths, s.manifest);
    const int rc = runner::run_command(s);
    if (rc == 2) return rc;
    auto r = read_run(s.results_dir);
    if (std::holds_alternative<std::string>(r)) return rc; // listing only: nothing ran
    RunResults &run = std::get<RunResults>(r);

    std::vector<Judged> judged;
    if (!o.baseline_dir.empty()) {
        judged = judge(run.records, loaded.exp, o.retries, process_retry(s));
        const fs::path d(s.results_dir);
        nlohmann::json lab = {{"baseline", o.baseline_dir},
                              {"machine_type", type},
                              {"files", loaded.exp.files},
                              {"retries", o.retries}};
        nlohmann::json v = nlohmann::json::array();
        for (const auto &j : judged) {
            nlohmann::json rs = nlohmann::json::array();
            for (Status st : j.retries)
                rs.push_back(report::status_name(st));
            v.push_back({{"name", j.name},
                         {"status", report::status_name(j.status)},
                         {"verdict", verdict_name(j.verdict)},
                         {"why", j.why},
                         {"retries", rs}});
        }
        lab["verdicts"] = v;
        write_file(d / files::kLabJson, lab.dump(1) + "\n");
        write_file(d / files::kBaselineCsv, render_judged_csv(judged));
        std::string failures;
        for (const auto &j : judged)
            if (gates(j.verdict) || j.verdict == Verdict::unexpected_pass)
                failures += j.name + "," +
                            (gates(j.verdict) ? j.status_word : verdict_name(j.verdict)) + "\n";
        write_file(d / files::kFailuresCsv, failures);
        const std::string text =
            render_judged_summary(judged) + render_fingerprint_text(s.fingerprint);
        write_file(d / files::kBaselineSummary, text);
        std::cerr << text;
    }
    if (auto e = write_html_report(s.results_dir); !e.empty())
        std::cerr << "peer-harness: " << e << "\n";
    if (o.baseline_dir.empty()) return rc;
    return regressions(judged) > 0 ? 1 : 0;
}

int baseline_command(const std::string &results_dir, const std::string &out) {
    auto r = read_run(results_dir);
    if (auto *e = std::get_if<std::string>(&r)) {
        std::cerr << "peer-harness: " << *e << "\n";
        return 2;
    }
    RunResults &run = std::get<RunResults>(r);
    // Flakes found by the run's retries stay out of the fails file.
    std::vector<Judged> judged;
    std::ifstream lj(fs::path(results_dir) / files::kLabJson);
    if (lj) {
        auto j = nlohmann::json::parse(lj, nullptr, false);
        if (!j.is_discarded())
            for (const auto &v : j.value("verdicts", nlohmann::json::array()))
                if (v.value("verdict", "") == "Flake")
                    judged.push_back(
                        {v.value("name", ""), Status::fail, "Fail", Verdict::flake, {}, {}});
    }
    std::string header = fmt::format("written by peer-harness baseline from {}\n", results_dir);
    if (run.metadata.contains("fingerprint"))
        header += render_fingerprint_text(run.metadata["fingerprint"]);
    const std::string text = render_fails_file(run.records, &judged, header);
    if (out == "-") {
        std::cout << text;
    } else {
        std::ofstream f(out);
        f << text;
        if (!f) {
            std::cerr << "peer-harness: cannot write " << out << "\n";
            return 2;
        }
    }
    return 0;
}

} // namespace harness::lab
