// The lab workflow's options and sub-commands (harness/lab), kept out of
// main.cpp so the run options there stay as they were.
#pragma once

#include "lab/bisect.hpp"
#include "lab/commands.hpp"
#include "lab/trend.hpp"
#include "runner/settings.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace harness::cli {

struct LabCli {
    lab::LabRunOptions run;
    std::string shard; // "I/N"
    CLI::App *baseline = nullptr, *merge = nullptr, *html = nullptr;
    CLI::App *bisect_run = nullptr, *bisect_report = nullptr, *trend = nullptr;
    lab::TrendOptions trend_options;
    lab::BisectRunOptions bisect;
    lab::BisectReportOptions report;
    bool no_shrink = false;
    std::string results_dir, out, merged_out, html_dir;
    std::vector<std::string> inputs;
};

// --baseline, --machine-type, --retries, --shard on `run`.
void add_lab_run_options(CLI::App *run, runner::RunSettings &s, LabCli &lab);
// `baseline`, `merge`.
void add_lab_commands(CLI::App &app, LabCli &lab, const std::string &sim);
// The exit code of the lab sub-command that was given, or -1 if none was.
int run_lab_command(const LabCli &lab);
// Parses --shard into the settings; error text on a malformed value.
std::string finish_lab_run_options(runner::RunSettings &s, const LabCli &lab);

} // namespace harness::cli
