#include "lab/bisect.hpp"

#include "lab/fingerprint.hpp"
#include "lab/process.hpp"
#include "lab/results.hpp"
#include "report/tokens.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;

StepVerdict bisect_verdict(const MachineState &m, int expect_gpus, int run_exit) {
    if (expect_gpus > 0 && !m.driver_present)
        return {125, fmt::format("the machine promises {} GPU(s) but the kernel has no "
                                 "amdgpu/KFD: it did not boot to a GPU, this commit cannot be "
                                 "judged here",
                                 expect_gpus)};
    if (expect_gpus > 0 && m.gpus < expect_gpus)
        return {1, fmt::format("GPU vanished: the driver is loaded but shows {} of the {} "
                               "GPU(s) the machine promises",
                               m.gpus, expect_gpus)};
    if (run_exit == 0) return {0, "good: no failure"};
    if (run_exit == 1) return {1, "bad: instances failed"};
    return {128, fmt::format("peer-harness run exited {}: the harness could not run, abort "
                             "the bisection",
                             run_exit)};
}

namespace {

// The driver and the GPUs as the fingerprint probe saw them.
MachineState machine_state(const json &fp) {
    MachineState m;
    m.gpus = fp.contains("gpus") && fp["gpus"].is_array() ? static_cast<int>(fp["gpus"].size()) : 0;
    std::error_code ec;
    // The KFD answered (topology read) or the module is there.
    m.driver_present = !fp.contains("topology_error") || fs::exists("/sys/module/amdgpu", ec);
    return m;
}

// The differential run of a bad step: the run's case selection (cases,
// depth, seed, manifest, test specs) through both runtimes, on the same
// simulated machine and scenario. Its exit code does not change the step's.
void run_differential(const BisectRunOptions &o, const fs::path &step) {
    static const std::set<std::string> kept = {"--cases",  "--depth", "--seed",
                                               "--expect", "--jobs",  "-j"};
    static const std::set<std::string> valued = {
        "--cases",    "--depth",   "--seed",      "--expect",     "--jobs",         "-j",
        "--results",  "--timeout", "--isolation", "--batch-size", "--max-failures", "--faults",
        "--baseline", "--retries", "--shard",     "--machine",    "--machine-type"};
    std::vector<std::string> cmd{self_exe(), "differential", "--results",
                                 (step / "differential").string()};
    if (!o.machine.empty()) cmd.insert(cmd.end(), {"--machine", o.machine});
    if (!o.faults.empty()) cmd.insert(cmd.end(), {"--faults", o.faults});
    for (size_t i = 0; i < o.run_args.size(); ++i) {
        const std::string &a = o.run_args[i];
        if (valued.count(a) && i + 1 < o.run_args.size()) {
            if (kept.count(a)) cmd.insert(cmd.end(), {a, o.run_args[i + 1]});
            ++i;
        } else if (a.rfind("-", 0) != 0) {
            cmd.push_back(a); // a Catch2 test spec
        }
    }
    ::unsetenv("PEER_HARNESS_SIMULATOR"); // differential starts its own runs
    run_process(cmd, (step / "differential.log").string());
}

} // namespace

int bisect_run_command(const BisectRunOptions &o) {
    if (o.steps_dir.empty()) {
        std::cerr << "peer-harness: bisect-run needs --steps DIR\n";
        return 128;
    }
    std::string commit = git_head(o.repo);
    if (commit.empty()) commit = "unknown-commit";
    const fs::path step = fs::path(o.steps_dir) / commit;
    std::error_code ec;
    fs::remove_all(step, ec);
    fs::create_directories(step, ec);
    const std::string results = (step / "results").string();

    std::vector<std::string> cmd;
    if (!o.machine.empty()) {
        cmd = {o.sim, "--machine", o.machine};
        if (!o.faults.empty()) cmd.insert(cmd.end(), {"--faults", o.faults});
        cmd.push_back("--");
    }
    cmd.push_back(self_exe());
    cmd.push_back("run");
    cmd.insert(cmd.end(), o.run_args.begin(), o.run_args.end());
    std::vector<std::string> full = cmd;
    full.insert(full.end(), {"--results", results});

    // Is there a GPU to judge with? The fingerprint probe, under the same
    // launcher as the run.
    // The child records the simulated machine's name and does not re-execute
    // itself under the launcher it already runs under.
    if (!o.machine.empty()) ::setenv("PEER_HARNESS_SIMULATOR", o.machine.c_str(), 1);
    int rc = run_process(full, (step / "run.log").string());
    auto r = read_run(results);
    json fp;
    if (auto *run = std::get_if<RunResults>(&r)) fp = run->metadata.value("fingerprint", json());
    MachineState m = fp.is_object() ? machine_state(fp) : MachineState{};
    StepVerdict v = bisect_verdict(m, o.expect_gpus, fp.is_object() ? rc : 2);
    json rec = {{"commit", commit},     {"exit", v.exit_code},
                {"reason", v.reason},   {"run_exit", rc},
                {"command", cmd},       {"results", "results"},
                {"machine", o.machine}, {"faults", o.faults},
                {"gpus", m.gpus},       {"driver", m.driver_present}};
    if (o.differential && v.exit_code == 1) run_differential(o, step);
    std::ofstream(step / "bisect-step.json") << rec.dump(1) << "\n";
    std::cerr << "peer-harness bisect-run: " << commit.substr(0, 12) << ": exit " << v.exit_code
              << " (" << v.reason << ")\n";
    return v.exit_code;
}

BisectLog parse_bisect_log(const std::string &text) {
    BisectLog log;
    static const std::regex first(R"(^# first bad commit: \[([0-9a-f]+)\] ?(.*)$)");
    static const std::regex step(R"(^git bisect (good|bad|skip|old|new) ([0-9a-f]+)\s*$)");
    std::istringstream in(text);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        if (std::regex_match(line, m, first)) {
            log.first_bad = m[1];
            log.first_bad_subject = m[2];
        } else if (std::regex_match(line, m, step)) {
            log.steps.emplace_back(m[1], m[2]);
        }
    }
    return log;
}

} // namespace harness::lab
