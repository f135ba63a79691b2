// The `peer-harness` subcommands as one table (kSubcommands in main.cpp): a
// row per subcommand with its name, its one-line help, the function that
// declares its options and the function that runs it. A new subcommand is a
// new row plus those two functions, beside the others of its kind (main.cpp,
// or lab_options.cpp for the lab workflow's); options it parses go into
// CliOptions below.
#pragma once

#include "lab/bisect.hpp"
#include "lab/commands.hpp"
#include "lab/trend.hpp"
#include "report/compare.hpp"
#include "runner/detect.hpp"
#include "runner/differential.hpp"
#include "runner/settings.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace harness::cli {

// The lab workflow's options (lab_options.cpp).
struct LabCli {
    lab::LabRunOptions run;
    std::string shard; // "I/N"
    lab::BisectRunOptions bisect;
    lab::BisectReportOptions report;
    bool no_shrink = false;
    std::string out, merged_out;
    std::vector<std::string> inputs;
    lab::TrendOptions trend;
};

// Everything the subcommands' options are parsed into (CLI11 binds to these).
struct CliOptions {
    runner::RunSettings s;
    std::string depth = "quick";
    std::string runtime = "harness"; // run, differential
    std::string dir;                 // summary, timing, baseline, html: the results directory
    runner::DetectOptions detect;
    std::string compare_before, compare_after;
    double bandwidth_threshold = report::kDefaultBandwidthThresholdPct;
    int probe_owner = -1, probe_mapper = -1; // kfd-map-probe
    std::string timing_by;
    size_t timing_top = 20;
    LabCli lab;
    runner::DifferentialOptions differential;
};

// The parsed subcommand and the command line it came from (for commands that
// re-execute themselves under the simulator).
struct Invocation {
    const CLI::App &sub;
    int argc;
    char **argv;
};

struct Subcommand {
    const char *name;
    const char *help;
    void (*add_options)(CLI::App &sub, CliOptions &o);
    int (*run)(CliOptions &o, const Invocation &inv); // the process exit code
};

} // namespace harness::cli
