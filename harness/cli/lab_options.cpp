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

void add_lab_commands(CLI::App &app, LabCli &lab) {
    lab.baseline =
        app.add_subcommand("baseline", "write a fails file (name,Status) from a results directory");
    lab.baseline->add_option("dir", lab.results_dir, "results directory")->required();
    lab.baseline->add_option("-o,--output", lab.out, "fails file to write (default: stdout)");
    lab.html = app.add_subcommand("html", "(re)write report.html of a results directory");
    lab.html->add_option("dir", lab.html_dir, "results directory")->required();
    lab.merge = app.add_subcommand(
        "merge", "join the results directories of shards 1..N into one run (--shard I/N runs)");
    lab.merge->add_option("-o,--output", lab.merged_out, "results directory to create")->required();
    lab.merge->add_option("shards", lab.inputs, "results directory of each shard")->required();
}

int run_lab_command(const LabCli &lab) {
    if (lab.baseline && *lab.baseline)
        return lab::baseline_command(lab.results_dir, lab.out.empty() ? "-" : lab.out);
    if (lab.html && *lab.html) {
        if (auto e = lab::write_html_report(lab.html_dir); !e.empty()) {
            std::fprintf(stderr, "peer-harness: %s\n", e.c_str());
            return 2;
        }
        return 0;
    }
    if (lab.merge && *lab.merge) return lab::merge_command(lab.merged_out, lab.inputs);
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
