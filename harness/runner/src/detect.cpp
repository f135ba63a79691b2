#include "runner/detect.hpp"

#include "report/journal.hpp"
#include "report/tokens.hpp"
#include "self_process.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace harness::runner {

namespace fs = std::filesystem;

namespace {

// One child run; its output goes to DIR/run.log so the table stays readable.
DetectRow run_one(const RunSettings &s, const std::string &name, const std::string &faults,
                  const fs::path &dir) {
    DetectRow row;
    row.scenario = name;
    fs::create_directories(dir);
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
    const auto start = std::chrono::steady_clock::now();
    const std::string log = (dir / "run.log").string();
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    // Each child starts a simulator of its own (with its scenario).
    const SelfRunResult child = run_self(args, {.leave_simulator = true, .log_fd = fd});
    if (fd >= 0) ::close(fd);
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    row.exit_code = child.exit_code;
    const fs::path journal = dir / "results" / report::tokens::kJournalFile;
    if (fs::exists(journal)) {
        auto recs = report::records_of(report::read_journal(journal.string()));
        std::sort(recs.begin(), recs.end(),
                  [](const auto &a, const auto &b) { return a.index < b.index; });
        for (const auto &r : recs)
            if (!report::is_success(r.status)) {
                if (row.first_failure.empty()) row.first_failure = r.name;
                ++row.failed;
            }
    }
    row.stopped = !faults.empty() && row.failed >= kDetectMaxFailures;
    if (row.first_failure.empty() && row.exit_code != 0)
        row.first_failure = fmt::format("(run exited {}; see {})", row.exit_code, log);
    return row;
}

// Fault kinds that change nothing but the KFD topology in sysfs
// (fixtures/faults/README.md, "Peer access and KFD topology").
bool topology_only(const fs::path &scenario) {
    static const std::set<std::string> kinds = {
        "peer_access_false_positive", "peer_access_false_negative", "peer_access_asymmetric",
        "topology_sysfs_malformed"};
    try {
        const YAML::Node faults = YAML::LoadFile(scenario.string())["faults"];
        if (!faults || !faults.IsSequence() || faults.size() == 0) return false;
        for (const auto &f : faults)
            if (!kinds.count(f["kind"].as<std::string>(""))) return false;
        return true;
    } catch (const YAML::Exception &) {
        return false; // the run itself reports a bad file
    }
}

// `peer-harness kfd-topology-dump --machine M [--faults F]`: the simulated kernel's
// KFD topology, or "" when it could not be read.
std::string topology_under(const std::string &machine, const std::string &faults) {
    std::vector<std::string> args{"kfd-topology-dump", "--machine", machine};
    if (!faults.empty()) args.insert(args.end(), {"--faults", faults});
    const SelfRunResult child = run_self(args, {.leave_simulator = true});
    return child.started && child.exit_code == 0 ? child.out : "";
}

} // namespace

int kfd_topology_dump(std::ostream &out) {
    const fs::path root = "/sys/class/kfd/kfd/topology";
    std::error_code ec;
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    if (ec || files.empty()) return 1;
    std::sort(files.begin(), files.end());
    for (const auto &f : files) {
        std::ifstream in(f);
        std::ostringstream text;
        text << in.rdbuf();
        out << "== " << f.string() << "\n" << text.str() << "\n";
    }
    return 0;
}

std::string render_detect(const DetectRow &faithful, const std::vector<DetectRow> &rows) {
    std::string out = fmt::format("{:<34} {:<10} {:>7} {:>8}  {}\n", "scenario", "detected",
                                  "failed", "time", "first failing instance");
    auto line = [&](const DetectRow &r, const std::string &verdict) {
        const std::string failed = fmt::format("{}{}", r.stopped ? ">=" : "", r.failed);
        out += fmt::format("{:<34} {:<10} {:>7} {:>7.1f}s  {}\n", r.scenario, verdict, failed,
                           r.seconds, r.first_failure.empty() ? "-" : r.first_failure);
    };
    line(faithful, faithful.exit_code == 0 ? "clean" : "FAILS");
    int detected = 0, inert = 0;
    for (const auto &r : rows) {
        line(r, r.detected() ? "yes" : r.inert ? "inert" : "NO");
        detected += r.detected() ? 1 : 0;
        inert += !r.detected() && r.inert ? 1 : 0;
    }
    if (inert)
        out += fmt::format("inert: {} scenario(s) change only the KFD topology and leave this "
                           "machine's as it is faithfully (nothing to detect here)\n",
                           inert);
    if (std::any_of(rows.begin(), rows.end(), [](const DetectRow &r) { return r.stopped; }))
        out += fmt::format(">=N: the run stopped after {} failing instances (run --max-failures)\n",
                           kDetectMaxFailures);
    out += fmt::format("{} of {} scenarios detected, {} false failures\n", detected,
                       rows.size() - size_t(inert),
                       faithful.exit_code == 0 ? 0 : std::max(1, faithful.failed));
    return out;
}

int detect_command(const RunSettings &s, const std::string &faults_dir) {
    if (s.machine.empty()) {
        std::cerr
            << "peer-harness: detect needs --machine (fault scenarios run on the simulator)\n";
        return 2;
    }
    std::vector<fs::path> scenarios;
    std::error_code ec;
    if (fs::is_regular_file(faults_dir, ec)) {
        scenarios.emplace_back(faults_dir);
    } else {
        for (const auto &e : fs::directory_iterator(faults_dir, ec))
            if (e.path().extension() == ".yaml") scenarios.push_back(e.path());
        if (ec) {
            std::cerr << "peer-harness: cannot read " << faults_dir << ": " << ec.message() << "\n";
            return 2;
        }
    }
    std::sort(scenarios.begin(), scenarios.end());
    const fs::path work =
        s.results_dir.empty() ? fs::current_path() / "peer-detect" : fs::path(s.results_dir);
    const auto start = std::chrono::steady_clock::now();
    std::cerr << "detect: faithful run on " << s.machine << " ...\n";
    DetectRow faithful = run_one(s, "(faithful)", "", work / "faithful");
    const std::string faithful_topology = topology_under(s.machine, "");
    std::vector<DetectRow> rows;
    for (const auto &f : scenarios) {
        std::cerr << "detect: " << f.stem().string() << " ...\n";
        rows.push_back(run_one(s, f.stem().string(), fs::absolute(f).string(), work / f.stem()));
        DetectRow &row = rows.back();
        if (!row.detected() && topology_only(f) && !faithful_topology.empty())
            row.inert = topology_under(s.machine, fs::absolute(f).string()) == faithful_topology;
        // A scenario file the simulator rejects is bad input, not a detection.
        if (rows.back().exit_code == 2) {
            std::cerr << "peer-harness: " << f.string() << " was rejected (exit 2); see "
                      << (work / f.stem() / "run.log").string() << "\n";
            return 2;
        }
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << render_detect(faithful, rows);
    std::cout << fmt::format("machine {}, --jobs {}, wall time {:.1f} s; runs in {}\n", s.machine,
                             s.jobs, wall, work.string());
    const bool all =
        std::all_of(rows.begin(), rows.end(), [](auto &r) { return r.detected() || r.inert; });
    return all && faithful.exit_code == 0 ? 0 : 1;
}

} // namespace harness::runner
