#include "lab/trend.hpp"

#include <fmt/format.h>

namespace harness::lab {

namespace {

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csv(const std::string &s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string render_trend_csv(const Trend &t) {
    std::string out = "night,label,pair,src,dst,outcome,worst_status,passed,failing,flaky,"
                      "skipped,best_gbps,link,peak_gbps,pct_peak,simulated\n";
    for (size_t i = 0; i < t.nights.size(); ++i) {
        const RunSummary &s = t.nights[i].summary;
        for (const auto &[p, x] : s.pairs) {
            std::string bw = ",,,,";
            if (auto c = s.best_copy.find(p); c != s.best_copy.end()) {
                const report::CopyFigure &f = c->second;
                bw = fmt::format("{:.3f},{},{:.1f},{},{}", f.gbps, csv(f.link), f.peak_gbps,
                                 f.peak_gbps > 0 ? fmt::format("{:.1f}", 100 * f.gbps / f.peak_gbps)
                                                 : std::string(),
                                 f.simulated ? "simulated" : "measured");
            }
            out += fmt::format("{},{},{}>{},{},{},{},{},{},{},{},{},{}\n", i + 1,
                               csv(t.nights[i].label), p.first, p.second, p.first, p.second,
                               outcome_name(x.worst),
                               x.worst_status ? report::status_name(*x.worst_status) : "",
                               x.pass + x.warn, x.fail + x.expected, x.flaky, x.skip, bw);
        }
    }
    return out;
}

std::string render_trend_families_csv(const Trend &t) {
    std::string out = "night,label,family,outcome,passed,failing,flaky,skipped\n";
    for (size_t i = 0; i < t.nights.size(); ++i)
        for (const auto &[f, x] : t.nights[i].summary.families)
            out += fmt::format("{},{},{},{},{},{},{},{}\n", i + 1, csv(t.nights[i].label), csv(f),
                               outcome_name(x.worst), x.pass + x.warn, x.fail + x.expected, x.flaky,
                               x.skip);
    return out;
}

std::string render_trend_changes_csv(const Trend &t) {
    std::string out = "night,label,previous_label,kind,subject,detail,fingerprint_changes\n";
    for (const auto &c : t.changes) {
        std::string diff;
        for (const auto &d : t.differs[c.night])
            diff += (diff.empty() ? "" : "; ") + d.field + ": " + d.before + " -> " + d.after;
        out += fmt::format("{},{},{},{},{},{},{}\n", c.night + 1, csv(t.nights[c.night].label),
                           csv(t.nights[c.night - 1].label), change_kind_name(c.kind),
                           csv(c.subject), csv(c.detail), csv(diff));
    }
    return out;
}

} // namespace harness::lab
