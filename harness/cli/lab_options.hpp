// The lab workflow's options and subcommands (harness/lab): the rows of
// main.cpp's subcommand table that belong to it, and `run`'s lab options.
#pragma once

#include "subcommands.hpp"

#include <string>

namespace harness::cli {

// --baseline, --machine-type, --retries, --shard on `run`.
void add_lab_run_options(CLI::App &run, CliOptions &o);
// Parses --shard into the settings; error text on a malformed value.
std::string finish_lab_run_options(runner::RunSettings &s, const LabCli &lab);

void bisect_run_options(CLI::App &sub, CliOptions &o);
int bisect_run(CliOptions &o, const Invocation &inv);
void bisect_report_options(CLI::App &sub, CliOptions &o);
int bisect_report(CliOptions &o, const Invocation &inv);
void baseline_options(CLI::App &sub, CliOptions &o);
int baseline(CliOptions &o, const Invocation &inv);
void html_options(CLI::App &sub, CliOptions &o);
int html(CliOptions &o, const Invocation &inv);
void merge_options(CLI::App &sub, CliOptions &o);
int merge(CliOptions &o, const Invocation &inv);
void trend_options(CLI::App &sub, CliOptions &o);
int trend(CliOptions &o, const Invocation &inv);

} // namespace harness::cli
