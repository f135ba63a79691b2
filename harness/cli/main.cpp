// peer-harness: parses its own options into RunSettings (CLI11) and hands
// everything it does not know to Catch2's session, so test specs, reporters
// (-r junit|xml|console), -o and --list-tests work as Catch2 users expect.
// The subcommands are the rows of kSubcommands (subcommands.hpp).
#include "lab_options.hpp"
#include "reexec.hpp"
#include "runner/detect.hpp"
#include "runner/differential.hpp"
#include "runner/results_dir.hpp"
#include "runner/run.hpp"
#include "subcommands.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

namespace {

using namespace harness::cli;
namespace runner = harness::runner;

void add_case_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("--cases", o.s.case_paths,
                   "case file or directory of *.yaml (repeatable; default: the default suite)")
        ->allow_extra_args(false) // one path per --cases: test specs may follow
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    sub.add_option("--machine", o.s.machine,
                   "run under amdgpu-sim with this simulated machine (name in fixtures/machines "
                   "or a file)");
    sub.add_option("--depth", o.depth, "quick (pairwise covering array) or full (cross product)")
        ->check(CLI::IsMember({"quick", "full"}));
    sub.add_option("--seed", o.s.seed, "seed of the quick depth's covering array");
    sub.add_option("--expect", o.s.manifest,
                   "machine manifest (machine-file schema): expected devices, peer matrix and "
                   "placements come from it, not from the kernel (default under --machine: the "
                   "machine file)");
}

// For the commands that talk to the devices: under --machine (or resuming a
// run that began on a simulated machine) this re-executes the command under
// the simulator and returns only on failure (2); otherwise it settles the
// machine and the manifest and returns -1: go on in this process.
int on_machine(CliOptions &o, const Invocation &inv) {
    runner::RunSettings &s = o.s;
    std::string machine = s.machine;
    if (machine.empty() && s.resume && !std::getenv("PEER_HARNESS_SIMULATOR")) {
        // Resume on the machine the run began on.
        auto saved = runner::read_results_dir(s.results_dir);
        if (auto *r = std::get_if<runner::SavedRun>(&saved))
            machine = r->settings.on_simulator ? r->settings.machine : "";
    }
    if (!machine.empty() && !std::getenv("PEER_HARNESS_SIMULATOR")) {
        std::string err = reexec_under_simulator(machine, s.faults, inv.argc, inv.argv);
        std::cerr << "peer-harness: " << err << "\n";
        return 2;
    }
    if (const char *m = std::getenv("PEER_HARNESS_SIMULATOR"); m && s.machine.empty())
        s.machine = m;
    s.on_simulator = runner::running_on_simulator();
    // Under --machine the machine file is the manifest.
    if (s.manifest.empty() && !s.machine.empty()) s.manifest = resolve_machine_file(s.machine);
    if (!s.manifest.empty())
        s.manifest = std::filesystem::absolute(s.manifest).lexically_normal().string();
    return -1;
}

// Which HIP runtime the instances call, on which GPUs; shared by `run` and
// `differential` (which sets them for its two child runs).
void add_runtime_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("--runtime", o.runtime,
                   "HIP runtime the instances call: harness (its own peer API, default) or rocm "
                   "(ROCm's libamdhip64.so.5, loaded at run time; PEER_HARNESS_ROCM_HIP names "
                   "another file)")
        ->check(CLI::IsMember({"harness", "rocm"}));
    sub.add_option("--devices", o.s.devices,
                   "run on these GPUs only (KFD indexes, comma-separated), numbered from 0 in "
                   "that order")
        ->delimiter(',');
    sub.add_flag("--record-answers", o.s.record_answers,
                 "record every step's answer in the journal (differential runs)")
        ->group("");
}

void run_options(CLI::App &sub, CliOptions &o) {
    runner::RunSettings &s = o.s;
    add_case_options(sub, o);
    sub.add_option(
        "--results", s.results_dir,
        "results directory (journal, logs, junit.xml); default ./peer-results/<UTC time>");
    sub.add_option("--timeout", s.timeout_s, "per-instance timeout in seconds (default 60)");
    sub.add_option("--jobs,-j", s.jobs,
                   "instances running at once, each in its own process (default 1; they share "
                   "the GPUs, and cases that provoke faults or hangs affect the whole device)")
        ->check(CLI::Range(1, 256));
    sub.add_option("--isolation", s.isolation,
                   "batch: up to --batch-size instances per child process, restarted after "
                   "the culprit of a crash or hang; process: one child per instance "
                   "(default batch)")
        ->check(CLI::IsMember({"batch", "process"}));
    sub.add_option("--batch-size", s.batch_size,
                   "instances per child process with --isolation batch (default 256)")
        ->check(CLI::Range(1, 1000000));
    sub.add_option("--max-failures", s.max_failures,
                   "stop starting instances once N have failed (running ones finish and are "
                   "recorded; the rest is not run: --resume runs it); 0 = never (default)")
        ->check(CLI::Range(0, 1000000));
    sub.add_flag("--resume", s.resume, "continue the interrupted run in --results");
    sub.add_flag("--overwrite", s.overwrite, "replace a previous run in --results");
    sub.add_flag("--allow-disruptive", s.allow_disruptive,
                 "on real hardware, also run cases that provoke VM faults, hangs or resets");
    sub.add_option("--faults", s.faults,
                   "with --machine: simulator fault scenario (fixtures/faults/*.yaml)");
    sub.add_flag("--sync", s.sync, "fdatasync every journal line (machines that may hard-hang)");
    add_runtime_options(sub, o);
    sub.allow_extras();
    add_lab_run_options(sub, o);
}

int run(CliOptions &o, const Invocation &inv) {
    o.s.catch_args = inv.sub.remaining();
    if (auto e = finish_lab_run_options(o.s, o.lab); !e.empty()) {
        std::cerr << "peer-harness: " << e << "\n";
        return 2;
    }
    if (int rc = on_machine(o, inv); rc >= 0) return rc;
    return harness::lab::lab_run_command(o.s, o.lab.run);
}

int list(CliOptions &o, const Invocation &inv) {
    if (int rc = on_machine(o, inv); rc >= 0) return rc;
    return runner::list_command(o.s);
}

int check(CliOptions &o, const Invocation &inv) {
    if (int rc = on_machine(o, inv); rc >= 0) return rc;
    return runner::check_command(o.s);
}

int coverage(CliOptions &o, const Invocation &inv) {
    if (int rc = on_machine(o, inv); rc >= 0) return rc;
    return runner::coverage_command(o.s);
}

void detect_options(CLI::App &sub, CliOptions &o) {
    add_case_options(sub, o);
    o.detect.faults = PEER_HARNESS_FAULTS_DIR;
    sub.add_option("--faults", o.detect.faults,
                   "directory of fault scenarios (or one file); default fixtures/faults");
    sub.add_option("--min-margin", o.detect.min_margin,
                   "failing instances a scenario needs to count as detected; fewer is a weak "
                   "detection, which fails the run (default 2)")
        ->check(CLI::Range(1, 1000000));
    sub.add_option("--jobs,-j", o.s.jobs, "instances at once in each run (default 2)")
        ->check(CLI::Range(1, 256));
    sub.add_option("--results", o.s.results_dir,
                   "where the runs go (default ./peer-detect), one directory per scenario");
    sub.add_option("--timeout", o.s.timeout_s, "per-instance timeout in seconds");
}

int detect(CliOptions &o, const Invocation &inv) {
    if (o.s.jobs == 1 && inv.sub.count("--jobs") == 0) o.s.jobs = 2;
    // Which scenarios can fire is decided from the machine's manifest.
    o.detect.manifest = !o.s.manifest.empty()  ? o.s.manifest
                        : !o.s.machine.empty() ? resolve_machine_file(o.s.machine)
                                               : std::string();
    return runner::detect_command(o.s, o.detect);
}

void compare_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("before", o.compare_before, "results directory of the reference run")
        ->required();
    sub.add_option("after", o.compare_after, "results directory of the new run")->required();
    sub.add_option("--bandwidth-threshold", o.bandwidth_threshold,
                   "percent a copy step's GB/s may move before it counts as a change; a "
                   "slowdown beyond it gates (default 10)")
        ->check(CLI::Range(0.0, 1000.0));
}

void differential_options(CLI::App &sub, CliOptions &o) {
    add_case_options(sub, o);
    sub.add_option("--jobs,-j", o.s.jobs, "instances at once in each run (default 2)")
        ->check(CLI::Range(1, 256));
    sub.add_option("--results", o.differential.results,
                   "where the two runs and the table go (default ./peer-differential)");
    sub.add_option("--timeout", o.s.timeout_s, "per-instance timeout in seconds");
    sub.add_option("--faults", o.s.faults,
                   "with --machine: a fault scenario both runtimes run under");
    sub.add_flag("--compare-only", o.differential.compare_only,
                 "compare the two runs already in --results again");
    sub.allow_extras();
}

int differential(CliOptions &o, const Invocation &inv) {
    o.s.catch_args = inv.sub.remaining();
    if (o.s.jobs == 1 && inv.sub.count("--jobs") == 0) o.s.jobs = 2;
    // The HIP-level case files: the kernel-contract ones call no runtime.
    if (inv.sub.count("--cases") == 0) o.s.case_paths = {PEER_HARNESS_DEFAULT_CASES};
    return runner::differential_command(o.s, o.differential);
}

// For differential: ROCm's GPUs as KFD indexes, under the simulator it asks for.
void rocm_devices_options(CLI::App &sub, CliOptions &o) {
    sub.group("");
    sub.add_option("--machine", o.s.machine, "simulated machine");
    sub.add_option("--faults", o.s.faults, "fault scenario");
}

int rocm_devices(CliOptions &o, const Invocation &inv) {
    if (int rc = on_machine(o, inv); rc >= 0) return rc;
    return runner::rocm_devices_command(std::cout);
}

int compare(CliOptions &o, const Invocation &) {
    return runner::compare_command(o.compare_before, o.compare_after, o.bandwidth_threshold);
}

// For kernel_kfd steps (harness/runner/src/executor_kernel_kfd.cpp): a raw
// KFD probe needs a process whose KFD state libhsakmt does not own.
void kfd_map_probe_options(CLI::App &sub, CliOptions &o) {
    sub.group(""); // not for users: the kernel_kfd step runs it
    sub.add_option("owner_minor", o.probe_owner, "render minor of the owner")->required();
    sub.add_option("mapper_minor", o.probe_mapper, "render minor of the mapper")->required();
}

int kfd_map_probe(CliOptions &o, const Invocation &) {
    return runner::kfd_map_probe_command(o.probe_owner, o.probe_mapper, std::cout);
}

void summary_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("dir", o.dir, "results directory")->required();
}

int summary(CliOptions &o, const Invocation &) {
    return runner::summary_command(o.dir);
}

void timing_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("dir", o.dir, "results directory")->required();
    sub.add_option("--by", o.timing_by,
                   "split each family by this parameter's value (path, size, pair, ...)");
    sub.add_option("--top", o.timing_top, "rows to print, largest first (0: all; default 20)");
    sub.add_option("--cases", o.s.case_paths,
                   "case files to name the steps from (default: the run's own, from its "
                   "metadata.json)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

int timing(CliOptions &o, const Invocation &inv) {
    return runner::timing_command(o.s, o.dir, o.timing_by, o.timing_top,
                                  inv.sub.count("--cases") > 0);
}

// Every subcommand, in the order --help lists them. A new one: a row here,
// its options and run functions above (or in lab_options.cpp for the lab
// workflow's).
constexpr Subcommand kSubcommands[] = {
    {"run", "run case instances; other arguments go to Catch2 (test specs, -r, -o, -l, ...)",
     run_options, run},
    {"bisect-run",
     "one `git bisect run` step: exit 0 good, 1 bad, 125 cannot judge, 128 abort; other "
     "arguments go to `peer-harness run`",
     bisect_run_options, bisect_run},
    {"bisect-report",
     "Markdown + HTML report from `git bisect log` and the step results, with a shrunk "
     "reproducer",
     bisect_report_options, bisect_report},
    {"baseline", "write a fails file (name,Status) from a results directory", baseline_options,
     baseline},
    {"html", "(re)write report.html of a results directory", html_options, html},
    {"merge", "join the results directories of shards 1..N into one run (--shard I/N runs)",
     merge_options, merge},
    {"trend",
     "trend.html and CSV across nightly results: outcome and GB/s per pair and night, "
     "change points with the fingerprint fields that differ",
     trend_options, trend},
    {"list", "print every instance with tags and skip reasons", add_case_options, list},
    {"check", "validate case files only (exit 2 on errors)", add_case_options, check},
    {"coverage", "show which documented function/code pairs the cases assert on this machine",
     add_case_options, coverage},
    {"detect", "run the suite faithful and once per fault scenario; table of what was caught",
     detect_options, detect},
    {"compare", "new failures and fixes between two results directories", compare_options, compare},
    {"differential",
     "run the HIP-level cases through the harness and through ROCm's HIP; table of every step "
     "whose answers differ",
     differential_options, differential},
    {"rocm-devices", "internal: ROCm's GPUs as KFD indexes", rocm_devices_options, rocm_devices},
    {"kfd-map-probe", "internal: map one GPU's MMIO remap page onto another (raw KFD ioctls)",
     kfd_map_probe_options, kfd_map_probe},
    {"summary", "re-derive summary.txt and junit.xml from a results dir", summary_options, summary},
    {"timing", "where a results directory's time went: per case family and step", timing_options,
     timing},
};

// What every subcommand sees the same way: the depth, the default suite and
// absolute paths (--resume may be started from another directory).
void settle_paths(CliOptions &o) {
    runner::RunSettings &s = o.s;
    s.runtime = o.runtime == "rocm" ? runner::RuntimeKind::rocm : runner::RuntimeKind::harness;
    s.depth = o.depth == "full" ? harness::cases::Depth::full : harness::cases::Depth::quick;
    // The default suite: the HIP-level cases and the kernel-contract ones.
    if (s.case_paths.empty())
        s.case_paths = {PEER_HARNESS_DEFAULT_CASES, PEER_HARNESS_DEFAULT_CASES "/contract"};
    for (auto &p : s.case_paths)
        p = std::filesystem::absolute(p).lexically_normal().string();
    if (!s.results_dir.empty())
        s.results_dir = std::filesystem::absolute(s.results_dir).lexically_normal().string();
}

} // namespace

int main(int argc, char **argv) {
    reexec_with_huge_page_heap(argv);
    CLI::App app{"peer-harness: validates HIP's peer-memory API on the amdgpu kernel driver, "
                 "driven by case files",
                 "peer-harness"};
    app.require_subcommand(1);
    CliOptions o;
    std::vector<CLI::App *> subs;
    for (const Subcommand &c : kSubcommands) {
        subs.push_back(app.add_subcommand(c.name, c.help));
        c.add_options(*subs.back(), o);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    settle_paths(o);
    for (size_t i = 0; i < subs.size(); ++i)
        if (*subs[i]) return kSubcommands[i].run(o, Invocation{*subs[i], argc, argv});
    return 2; // require_subcommand(1): not reached
}
