// peer-harness: parses its own options into RunSettings (CLI11) and hands
// everything it does not know to Catch2's session, so test specs, reporters
// (-r junit|xml|console), -o and --list-tests work as Catch2 users expect.
#include "kfd/register_probe.hpp"
#include "lab_options.hpp"
#include "reexec.hpp"
#include "runner/detect.hpp"
#include "runner/results_dir.hpp"
#include "runner/run.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>

using harness::runner::RunSettings;

namespace {

void add_case_options(CLI::App *sub, RunSettings &s, std::string &depth) {
    sub->add_option("--cases", s.case_paths,
                    "case file or directory of *.yaml (repeatable; default: the default suite)")
        ->allow_extra_args(false) // one path per --cases: test specs may follow
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    sub->add_option("--machine", s.machine,
                    "run under amdgpu-sim with this simulated machine (name in fixtures/machines "
                    "or a file)");
    sub->add_option("--depth", depth, "quick (pairwise covering array) or full (cross product)")
        ->check(CLI::IsMember({"quick", "full"}));
    sub->add_option("--seed", s.seed, "seed of the quick depth's covering array");
    sub->add_option("--expect", s.manifest,
                    "machine manifest (machine-file schema): expected devices, peer matrix and "
                    "placements come from it, not from the kernel (default under --machine: the "
                    "machine file)");
}

} // namespace

int main(int argc, char **argv) {
    harness::cli::reexec_with_huge_page_heap(argv);
    CLI::App app{"peer-harness: validates HIP's peer-memory API on the amdgpu kernel driver, "
                 "driven by case files",
                 "peer-harness"};
    app.require_subcommand(1);
    RunSettings s;
    std::string depth = "quick";
    std::string summary_dir;

    CLI::App *run = app.add_subcommand(
        "run", "run case instances; other arguments go to Catch2 (test specs, -r, -o, -l, ...)");
    add_case_options(run, s, depth);
    run->add_option(
        "--results", s.results_dir,
        "results directory (journal, logs, junit.xml); default ./peer-results/<UTC time>");
    run->add_option("--timeout", s.timeout_s, "per-instance timeout in seconds (default 60)");
    run->add_option("--jobs,-j", s.jobs,
                    "instances running at once, each in its own process (default 1; they share "
                    "the GPUs, and cases that provoke faults or hangs affect the whole device)")
        ->check(CLI::Range(1, 256));
    run->add_option("--isolation", s.isolation,
                    "batch: up to --batch-size instances per child process, restarted after "
                    "the culprit of a crash or hang; process: one child per instance "
                    "(default batch)")
        ->check(CLI::IsMember({"batch", "process"}));
    run->add_option("--batch-size", s.batch_size,
                    "instances per child process with --isolation batch (default 256)")
        ->check(CLI::Range(1, 1000000));
    run->add_option("--max-failures", s.max_failures,
                    "stop starting instances once N have failed (running ones finish and are "
                    "recorded; the rest is not run: --resume runs it); 0 = never (default)")
        ->check(CLI::Range(0, 1000000));
    run->add_flag("--resume", s.resume, "continue the interrupted run in --results");
    run->add_flag("--overwrite", s.overwrite, "replace a previous run in --results");
    run->add_flag("--allow-disruptive", s.allow_disruptive,
                  "on real hardware, also run cases that provoke VM faults, hangs or resets");
    run->add_option("--faults", s.faults,
                    "with --machine: simulator fault scenario (fixtures/faults/*.yaml)");
    run->add_flag("--sync", s.sync, "fdatasync every journal line (machines that may hard-hang)");
    run->allow_extras();
    harness::cli::LabCli lab;
    harness::cli::add_lab_run_options(run, s, lab);
    harness::cli::add_lab_commands(app, lab, harness::cli::find_amdgpu_sim());

    CLI::App *list = app.add_subcommand("list", "print every instance with tags and skip reasons");
    add_case_options(list, s, depth);
    CLI::App *check = app.add_subcommand("check", "validate case files only (exit 2 on errors)");
    add_case_options(check, s, depth);
    CLI::App *coverage = app.add_subcommand(
        "coverage", "show which documented function/code pairs the cases assert on this machine");
    add_case_options(coverage, s, depth);
    CLI::App *detect = app.add_subcommand(
        "detect", "run the suite faithful and once per fault scenario; table of what was caught");
    add_case_options(detect, s, depth);
    std::string faults_dir = PEER_HARNESS_FAULTS_DIR;
    detect->add_option("--faults", faults_dir,
                       "directory of fault scenarios (or one file); default fixtures/faults");
    detect->add_option("--jobs,-j", s.jobs, "instances at once in each run (default 2)")
        ->check(CLI::Range(1, 256));
    detect->add_option("--results", s.results_dir,
                       "where the runs go (default ./peer-detect), one directory per scenario");
    detect->add_option("--timeout", s.timeout_s, "per-instance timeout in seconds");
    std::string compare_before, compare_after;
    CLI::App *compare =
        app.add_subcommand("compare", "new failures and fixes between two results directories");
    compare->add_option("before", compare_before, "results directory of the reference run")
        ->required();
    compare->add_option("after", compare_after, "results directory of the new run")->required();
    double bandwidth_threshold = harness::report::kDefaultBandwidthThresholdPct;
    compare
        ->add_option("--bandwidth-threshold", bandwidth_threshold,
                     "percent a copy step's GB/s may move before it counts as a change; a "
                     "slowdown beyond it gates (default 10)")
        ->check(CLI::Range(0.0, 1000.0));
    // For kernel_kfd steps (harness/runner/src/executor_kernel_kfd.cpp): a
    // raw KFD probe needs a process whose KFD state libhsakmt does not own.
    int probe_owner = -1, probe_mapper = -1;
    CLI::App *probe = app.add_subcommand(
        "kfd-map-probe", "internal: map one GPU's MMIO remap page onto another (raw KFD ioctls)");
    probe->group(""); // not for users: the kernel_kfd step runs it
    probe->add_option("owner_minor", probe_owner, "render minor of the owner")->required();
    probe->add_option("mapper_minor", probe_mapper, "render minor of the mapper")->required();
    // For detect: the KFD topology the simulated kernel publishes, to tell a
    // scenario that changes nothing on this machine from a missed one.
    CLI::App *topo_dump = app.add_subcommand(
        "kfd-topology-dump", "internal: print every file under the KFD topology in sysfs");
    topo_dump->group("");
    topo_dump->add_option("--machine", s.machine, "simulated machine")->required();
    topo_dump->add_option("--faults", s.faults, "fault scenario");
    CLI::App *summary =
        app.add_subcommand("summary", "re-derive summary.txt and junit.xml from a results dir");
    summary->add_option("dir", summary_dir, "results directory")->required();

    std::string timing_dir, timing_by;
    size_t timing_top = 20;
    CLI::App *timing = app.add_subcommand(
        "timing", "where a results directory's time went: per case family and step");
    timing->add_option("dir", timing_dir, "results directory")->required();
    timing->add_option("--by", timing_by,
                       "split each family by this parameter's value (path, size, pair, ...)");
    timing->add_option("--top", timing_top, "rows to print, largest first (0: all; default 20)");
    timing
        ->add_option(
            "--cases", s.case_paths,
            "case files to name the steps from (default: the run's own, from its metadata.json)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    s.depth = depth == "full" ? harness::cases::Depth::full : harness::cases::Depth::quick;
    s.catch_args = run->remaining();
    // The default suite: the HIP-level cases and the kernel-contract ones.
    if (s.case_paths.empty())
        s.case_paths = {PEER_HARNESS_DEFAULT_CASES, PEER_HARNESS_DEFAULT_CASES "/contract"};
    // Absolute paths: --resume may be started from another directory.
    for (auto &p : s.case_paths)
        p = std::filesystem::absolute(p).lexically_normal().string();
    if (!s.results_dir.empty())
        s.results_dir = std::filesystem::absolute(s.results_dir).lexically_normal().string();

    if (*probe) {
        // One line for the step: "mapped", or "<errno> <call>".
        const kmd::Status st = kfd::probe_mmio_peer_map(probe_owner, probe_mapper);
        if (st.ok())
            std::cout << "mapped\n";
        else
            std::cout << st.err << " " << (st.call ? st.call : "?") << "\n";
        return 0;
    }
    if (*summary) return harness::runner::summary_command(summary_dir);
    if (*timing)
        return harness::runner::timing_command(s, timing_dir, timing_by, timing_top,
                                               timing->count("--cases") > 0);
    if (*compare)
        return harness::runner::compare_command(compare_before, compare_after, bandwidth_threshold);
    if (int rc = harness::cli::run_lab_command(lab); rc >= 0) return rc;
    if (auto e = harness::cli::finish_lab_run_options(s, lab); !e.empty()) {
        std::cerr << "peer-harness: " << e << "\n";
        return 2;
    }

    if (*detect) {
        if (s.jobs == 1 && detect->count("--jobs") == 0) s.jobs = 2;
        return harness::runner::detect_command(s, faults_dir);
    }
    std::string machine = s.machine;
    if (machine.empty() && s.resume && !std::getenv("PEER_HARNESS_SIMULATOR")) {
        // Resume on the machine the run began on.
        auto saved = harness::runner::read_results_dir(s.results_dir);
        if (auto *r = std::get_if<harness::runner::SavedRun>(&saved))
            machine = r->settings.on_simulator ? r->settings.machine : "";
    }
    if (!machine.empty() && !std::getenv("PEER_HARNESS_SIMULATOR")) {
        std::string err = harness::cli::reexec_under_simulator(machine, s.faults, argc, argv);
        std::cerr << "peer-harness: " << err << "\n";
        return 2;
    }
    if (const char *m = std::getenv("PEER_HARNESS_SIMULATOR"); m && s.machine.empty())
        s.machine = m;
    s.on_simulator = harness::runner::running_on_simulator();
    // Under --machine the machine file is the manifest.
    if (s.manifest.empty() && !s.machine.empty())
        s.manifest = harness::cli::resolve_machine_file(s.machine);
    if (!s.manifest.empty())
        s.manifest = std::filesystem::absolute(s.manifest).lexically_normal().string();

    if (*topo_dump) return harness::runner::kfd_topology_dump(std::cout);
    if (*list) return harness::runner::list_command(s);
    if (*check) return harness::runner::check_command(s);
    if (*coverage) return harness::runner::coverage_command(s);
    return harness::lab::lab_run_command(s, lab.run);
}
