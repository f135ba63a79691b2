#include "report/csv.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace harness::report {

namespace {

std::string field(const std::string &s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

const char *csv_status(Status s) {
    switch (s) {
    case Status::pass:
        return "Pass";
    case Status::fail:
        return "Fail";
    case Status::skip:
        return "Skip";
    case Status::crash:
        return "Crash";
    case Status::timeout:
        return "Timeout";
    case Status::incomplete:
        return "Incomplete";
    case Status::dmesg_warn:
        return "DmesgWarn";
    case Status::dmesg_fail:
        return "DmesgFail";
    }
    return "?";
}

std::string render_csv(const std::vector<InstanceRecord> &records) {
    std::vector<const InstanceRecord *> sorted;
    for (const auto &r : records)
        sorted.push_back(&r);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto *a, const auto *b) { return a->name < b->name; });
    std::string out;
    for (const auto *r : sorted)
        out += fmt::format("{},{},{:.3f}\n", field(r->name), csv_status(r->status), r->duration_s);
    return out;
}

std::string render_bandwidth_csv(const std::vector<InstanceRecord> &records) {
    std::vector<const InstanceRecord *> sorted;
    for (const auto &r : records)
        if (!r.copies.empty()) sorted.push_back(&r);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto *a, const auto *b) { return a->name < b->name; });
    std::string out = "name,step,src,dst,bytes,ns,gbps,clock,link,peak_gbps,pct_peak,simulated\n";
    for (const auto *r : sorted)
        for (const auto &c : r->copies) {
            const std::string peak = c.peak_gbps > 0 ? fmt::format("{:.3f}", c.peak_gbps) : "";
            const std::string pct =
                c.peak_gbps > 0 ? fmt::format("{:.1f}", 100.0 * c.gbps / c.peak_gbps) : "";
            out += fmt::format("{},{},{},{},{},{},{:.3f},{},{},{},{},{}\n", field(r->name), c.step,
                               c.src, c.dst, c.bytes, c.ns, c.gbps, c.clock, c.link, peak, pct,
                               c.simulated ? "simulated" : "measured");
        }
    return out;
}

} // namespace harness::report
