#include "lab_options.hpp"

#include "lab/html.hpp"
#include "reexec.hpp"

#include <cstdio>

namespace harness::cli {

void add_lab_run_options(CLI::App &run, CliOptions &o) {
    run.add_option("--baseline", o.lab.run.baseline_dir,
                   "directory of expectation files <type>-{fails,flakes,skips}.txt; the exit "
                   "code then gates on regressions only");
    run.add_option("--machine-type", o.lab.run.machine_type,
                   "prefix of the expectation files (default: the simulated machine's name)");
    run.add_option("--retries", o.lab.run.retries,
                   "re-run unexpectedly failing instances up to N times; a pass makes a Flake")
        ->check(CLI::Range(0, 100));
    run.add_option("--shard", o.lab.shard,
                   "I/N: run every N-th selected instance starting at the I-th (1-based)");
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

void bisect_run_options(CLI::App &sub, CliOptions &o) {
    lab::BisectRunOptions &b = o.lab.bisect;
    b.sim = find_amdgpu_sim();
    sub.add_option("--steps", b.steps_dir,
                   "directory that keeps every step's results (STEPS/<commit>/)")
        ->required();
    sub.add_option("--machine", b.machine, "simulated machine");
    sub.add_option("--faults", b.faults, "simulator fault scenario (with --machine)");
    sub.add_option("--expect-gpus", b.expect_gpus,
                   "GPUs the machine promises: none at all with no amdgpu -> 125, "
                   "fewer -> 1 (GPU vanished)");
    sub.add_option("--repo", b.repo, "repository being bisected (default .)");
    sub.add_flag("--differential", b.differential,
                 "on a bad step, also run `differential` (harness vs ROCm's HIP) into "
                 "STEPS/<commit>/differential: bisect-report says which runtime each failure "
                 "belongs to");
    sub.allow_extras();
}

int bisect_run(CliOptions &o, const Invocation &inv) {
    lab::BisectRunOptions b = o.lab.bisect;
    b.run_args = inv.sub.remaining();
    if (!b.machine.empty() && b.sim.empty()) {
        std::fprintf(stderr, "peer-harness: --machine needs the amdgpu-sim launcher\n");
        return 128;
    }
    return lab::bisect_run_command(b);
}

void bisect_report_options(CLI::App &sub, CliOptions &o) {
    lab::BisectReportOptions &r = o.lab.report;
    sub.add_option("--log", r.log_file, "output of `git bisect log`")->required();
    sub.add_option("--steps", r.steps_dir, "as given to bisect-run")->required();
    sub.add_option("-o,--output", r.out_prefix, "writes PREFIX.{md,html}")->required();
    sub.add_option("--repo", r.repo,
                   "the bisected repository, checked out at the first bad commit "
                   "(for shrinking)");
    sub.add_flag("--no-shrink", o.lab.no_shrink, "do not re-run to shrink");
}

int bisect_report(CliOptions &o, const Invocation &) {
    lab::BisectReportOptions r = o.lab.report;
    r.shrink = !o.lab.no_shrink;
    return lab::bisect_report_command(r);
}

void baseline_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("dir", o.dir, "results directory")->required();
    sub.add_option("-o,--output", o.lab.out, "fails file to write (default: stdout)");
}

int baseline(CliOptions &o, const Invocation &) {
    return lab::baseline_command(o.dir, o.lab.out.empty() ? "-" : o.lab.out);
}

void html_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("dir", o.dir, "results directory")->required();
}

int html(CliOptions &o, const Invocation &) {
    if (auto e = lab::write_html_report(o.dir); !e.empty()) {
        std::fprintf(stderr, "peer-harness: %s\n", e.c_str());
        return 2;
    }
    return 0;
}

void merge_options(CLI::App &sub, CliOptions &o) {
    sub.add_option("-o,--output", o.lab.merged_out, "results directory to create")->required();
    sub.add_option("shards", o.lab.inputs, "results directory of each shard")->required();
}

int merge(CliOptions &o, const Invocation &) {
    return lab::merge_command(o.lab.merged_out, o.lab.inputs);
}

void trend_options(CLI::App &sub, CliOptions &o) {
    lab::TrendOptions &t = o.lab.trend;
    sub.add_option("results", t.inputs,
                   "results directories, one per night, or directories of them (name order)")
        ->required();
    sub.add_option("-o,--output", t.out_dir,
                   "directory for trend.html, trend.csv, trend-families.csv, trend-changes.csv "
                   "(default .)");
    sub.add_option("--bandwidth-threshold", t.threshold_pct,
                   "percent a pair's measured GB/s may fall from one night to the next before it "
                   "is a change point (default 10, as compare)")
        ->check(CLI::Range(0.0, 1000.0));
}

int trend(CliOptions &o, const Invocation &) {
    return lab::trend_command(o.lab.trend);
}

} // namespace harness::cli
