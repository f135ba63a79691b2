// report.html: one static file, no scripts, no network
// access: the fingerprint, per case family a device x device heat map of the
// instances' statuses, the failing instances with the first mismatching byte
// (offset, expected, got) and the kernel-log lines, and the lab's verdicts
// when the run was judged against a baseline. Derived from the results
// directory alone, like every other report.
#pragma once

#include "lab/results.hpp"

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

// <, >, & and " as HTML entities (text and attribute values).
std::string html_escape(const std::string &s);

std::string render_html(const RunResults &run);
// Writes DIR/report.html; error text, empty on success.
std::string write_html_report(const std::string &dir);

} // namespace harness::lab
