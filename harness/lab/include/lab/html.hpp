// report.html: one static file, no scripts, no network access, that opens
// with the answer: the run's verdict, one device x device matrix of the worst
// outcome per ordered pair over every case family (failing cells link to
// their instances) and one of the fastest copy per pair (GB/s, % of the
// link's nominal peak, link type); then the failing and flaky instances,
// worst pairs first, each with its first failure, first mismatching byte,
// kernel-log lines and the command that reproduces it; then the fingerprint
// and, folded, each case family's own heat map. GPUs are named as the
// manifest names them. Derived from the results directory alone (lab.json
// adds the baseline's verdicts), like every other report.
#pragma once

#include "lab/results.hpp"
#include "report/markup.hpp"

#include <optional>
#include <string>

namespace harness::lab {

struct Mismatch {
    unsigned long long offset = 0;
    std::string expected, got;
};
// From a verify failure's message ("... first at offset N: 0xGG, expected 0xEE").
std::optional<Mismatch> parse_mismatch(const std::string &message);

// "a>b" of an instance's pair parameter, or nullopt.
std::optional<std::pair<int, int>> pair_of(const report::InstanceRecord &r);

// Text and attribute values: report::markup_escape, the one escape of every
// page and XML file the harness writes.
inline std::string html_escape(const std::string &s) {
    return report::markup_escape(s);
}

std::string render_html(const RunResults &run);
// Writes DIR/report.html; error text, empty on success.
std::string write_html_report(const std::string &dir);

} // namespace harness::lab
