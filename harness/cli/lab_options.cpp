#include "lab_options.hpp"

#include "lab/html.hpp"

#include <cstdio>

namespace harness::cli {

void add_lab_run_options(CLI::App *run, runner::RunSettings &, LabCli &lab) {
    run->add_option("--baseline", lab.run.baseline_dir,
                    "directory of expectation files <type>-{fails,flakes,skips}.txt; the exit "
                    "code then gates on regressions only");
    run->add_option("--machine-type", lab.run.machine_type,
                    "prefix of the expectation files (default: the simulated machine's name)");
    run->add_option("--retries", lab.run.retries,
                    "re-run unexpectedly failing instances up to N times; a pass makes a Flake")
        ->check(CLI::Range(0, 100));
    run->add_option("--shard", lab.shard,
                    "I/N: run every N-th selected instance starting at the I-th (1-based)");
}

void add_lab_commands(CLI::App &app, LabCli &lab, const std::string &sim) {
    lab.bisect.sim = sim;
    lab.bisect_run = app.add_subcommand(
        "bisect-run", "one `git bisect run` step: exit 0 good, 1 bad, 125 cannot judge, 128 "
                      "abort; other arguments go to `peer-harness run`");
    lab.bisect_run
        ->add_option("--steps", lab.bisect.steps_dir,
                     "directory that keeps every step's results (STEPS/<commit>/)")
        ->required();
    lab.bisect_run->add_option("--machine", lab.bisect.machine, "simulated machine");
    lab.bisect_run->add_option("--faults", lab.bisect.faults,
                               "simulator fault scenario (with --machine)");
    lab.bisect_run->add_option("--expect-gpus", lab.bisect.expect_gpus,
                               "GPUs the machine promises: none at all with no amdgpu -> 125, "
                               "fewer -> 1 (GPU vanished)");
    lab.bisect_run->add_option("--repo", lab.bisect.repo, "repository being bisected (default .)");
    lab.bisect_run->allow_extras();
    lab.bisect_report = app.add_subcommand(
        "bisect-report", "Markdown + HTML report from `git bisect log` and the step results, "
                         "with a shrunk reproducer");
    lab.bisect_report->add_option("--log", lab.report.log_file, "output of `git bisect log`")
        ->required();
    lab.bisect_report->add_option("--steps", lab.report.steps_dir, "as given to bisect-run")
        ->required();
    lab.bisect_report->add_option("-o,--output", lab.report.out_prefix, "writes PREFIX.{md,html}")
        ->required();
    lab.bisect_report->add_option("--repo", lab.report.repo,
                                  "the bisected repository, checked out at the first bad commit "
                                  "(for shrinking)");
    lab.bisect_report->add_flag("--no-shrink", lab.no_shrink, "do not re-run to shrink");

    lab.baseline =
        app.add_subcommand("baseline", "write a fails file (name,Status) from a results directory");
    lab.baseline->add_option("dir", lab.results_dir, "results directory")->required();
    lab.baseline->add_option("-o,--output", lab.out, "fails file to write (default: stdout)");
    lab.html = app.add_subcommand("html", "(re)write report.html of a results directory");
    lab.html->add_option("dir", lab.html_dir, "results directory")->required();
    lab.trend = app.add_subcommand(
        "trend", "trend.html and CSV across nightly results directories: outcome and GB/s per "
                 "pair and night, change points with the fingerprint fields that differ");
    lab.trend
        ->add_option("results", lab.trend_options.inputs,
                     "results directories, one per night, or directories of them (name order)")
        ->required();
    lab.trend->add_option("-o,--output", lab.trend_options.out_dir,
                          "directory for trend.html, trend.csv, trend-families.csv, "
                          "trend-changes.csv (default .)");
    lab.trend
        ->add_option("--bandwidth-threshold", lab.trend_options.threshold_pct,
                     "percent a pair's measured GB/s may fall from one night to the next before "
                     "it is a change point (default 10, as compare)")
        ->check(CLI::Range(0.0, 1000.0));
    lab.merge = app.add_subcommand(
        "merge", "join the results directories of shards 1..N into one run (--shard I/N runs)");
    lab.merge->add_option("-o,--output", lab.merged_out, "results directory to create")->required();
    lab.merge->add_option("shards", lab.inputs, "results directory of each shard")->required();
}

int run_lab_command(const LabCli &lab) {
    if (lab.baseline && *lab.baseline)
        return lab::baseline_command(lab.results_dir, lab.out.empty() ? "-" : lab.out);
    if (lab.bisect_run && *lab.bisect_run) {
        lab::BisectRunOptions o = lab.bisect;
        o.run_args = lab.bisect_run->remaining();
        if (!o.machine.empty() && o.sim.empty()) {
            std::fprintf(stderr, "peer-harness: --machine needs the amdgpu-sim launcher\n");
            return 128;
        }
        return lab::bisect_run_command(o);
    }
    if (lab.bisect_report && *lab.bisect_report) {
        lab::BisectReportOptions o = lab.report;
        o.shrink = !lab.no_shrink;
        return lab::bisect_report_command(o);
    }
    if (lab.html && *lab.html) {
        if (auto e = lab::write_html_report(lab.html_dir); !e.empty()) {
            std::fprintf(stderr, "peer-harness: %s\n", e.c_str());
            return 2;
        }
        return 0;
    }
    if (lab.merge && *lab.merge) return lab::merge_command(lab.merged_out, lab.inputs);
    if (lab.trend && *lab.trend) return lab::trend_command(lab.trend_options);
    return -1;
}

std::string finish_lab_run_options(runner::RunSettings &s, const LabCli &lab) {
    if (lab.shard.empty()) return {};
    int i = 0, n = 0;
    char tail = 0;
    if (std::sscanf(lab.shard.c_str(), "%d/%d%c", &i, &n, &tail) != 2 || n < 1 || i < 1 || i > n)
        return "--shard " + lab.shard + ": expected I/N with 1 <= I <= N";
    s.shard_index = i;
    s.shard_count = n;
    return {};
}

} // namespace harness::cli
