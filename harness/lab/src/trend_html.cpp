#include "lab/html.hpp"
#include "lab/trend.hpp"
#include "trend_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace harness::lab {

using trend::is_change_night;

namespace {

constexpr const char *kStyle = R"(<style>
body{font-family:sans-serif;margin:.6em 1.5em}
h1{font-size:20px;margin:.2em 0}h2{font-size:17px}
table{border-collapse:collapse;margin:.3em 0 1em}
td,th{border:1px solid #999;padding:2px 5px;font-size:12px}
#change-points li{margin:.3em 0}li.change{color:#900}li.recovered{color:#060}
ul.differs{color:#333;font-size:12px;margin:.1em 0}
tr.change td{background:#fbe3e3}
.pass{background:#7c7}.fail{background:#e66}.flaky{background:#f5c542}.expected-fail{background:#f0b0b0}
.warn{background:#c9e07a}.skip{background:#ddd}.none{background:#fff;color:#bbb}
td.changed{outline:3px solid #900}
rect.pass{fill:#5b5}rect.fail{fill:#d33}rect.flaky{fill:#f5c542}rect.expected-fail{fill:#f0b0b0}
rect.warn{fill:#c9e07a}rect.skip{fill:#ccc}rect.none{fill:#fff;stroke:#ccc}
ul.what{margin:.1em 0}
.pairs{display:flex;flex-wrap:wrap;gap:.6em}
svg.pair{border:1px solid #ccc;background:#fff}
svg text{font-size:10px;font-family:sans-serif}
</style>)";

std::string night_name(const Trend &t, size_t i) {
    return fmt::format("night {} ({})", i + 1, html_escape(t.nights[i].label));
}

std::string differs_list(const std::vector<FieldChange> &d) {
    if (d.empty()) return "<ul class=\"differs\"><li>no fingerprint field differs</li></ul>";
    std::string h = "<ul class=\"differs\">";
    size_t shown = 0;
    for (const auto &c : d) {
        if (++shown > 20) break;
        h += fmt::format("<li data-field=\"{}\"><code>{}</code>: {} &rarr; {}</li>",
                         html_escape(c.field), html_escape(c.field),
                         c.before.empty() ? "(none)" : html_escape(c.before),
                         c.after.empty() ? "(none)" : html_escape(c.after));
    }
    if (d.size() > 20) h += fmt::format("<li>and {} more</li>", d.size() - 20);
    return h + "</ul>";
}

std::string change_sentence(const ChangePoint &c) {
    switch (c.kind) {
    case ChangePoint::Kind::family_failing:
        return "family " + html_escape(c.subject) + " started failing";
    case ChangePoint::Kind::pair_failing:
        return "pair " + html_escape(c.subject) + " started failing";
    case ChangePoint::Kind::slower:
        return "pair " + html_escape(c.subject) + " copies slower";
    case ChangePoint::Kind::recovered:
        return html_escape(c.subject) + " passes again";
    }
    return "";
}

// One entry per night with changes: what changed, then the fingerprint
// fields that differ from the night before.
std::string change_points(const Trend &t) {
    std::string h = "<h2>Change points</h2>\n<ul id=\"change-points\">";
    for (size_t i = 1; i < t.nights.size(); ++i) {
        std::string what;
        bool real = false;
        for (const auto &c : t.changes) {
            if (c.night != i) continue;
            const bool recovered = c.kind == ChangePoint::Kind::recovered;
            real = real || !recovered;
            what +=
                fmt::format("<li class=\"{}\" data-kind=\"{}\" data-subject=\"{}\">{} ({})</li>",
                            recovered ? "recovered" : "change", change_kind_name(c.kind),
                            html_escape(c.subject), change_sentence(c), html_escape(c.detail));
        }
        if (what.empty()) continue;
        h += fmt::format("<li class=\"{}\" data-night=\"{}\"><strong>{}</strong>:<ul "
                         "class=\"what\">{}</ul>Fingerprint fields that differ from {}: {}</li>\n",
                         real ? "change" : "recovered", i + 1, night_name(t, i), what,
                         night_name(t, i - 1), differs_list(t.differs[i]));
    }
    if (t.changes.empty()) h += "<li>none: no family or pair started failing, no slowdown.</li>";
    return h + "</ul>\n";
}

std::string nights_table(const Trend &t) {
    std::string h = "<table id=\"nights\"><tr><th>#</th><th>night</th><th>kernel</th><th>machine "
                    "/ faults</th><th>instances</th><th>passed</th><th>failing</th><th>flaky</th>"
                    "<th>skipped</th><th>fingerprint fields changed</th></tr>\n";
    for (size_t i = 0; i < t.nights.size(); ++i) {
        const Night &n = t.nights[i];
        const Tally &s = n.summary.total;
        const std::string where =
            n.machine.empty() ? "hardware" : n.machine + (n.faults.empty() ? "" : " / " + n.faults);
        h += fmt::format(
            "<tr{} data-night=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            is_change_night(t, i) ? " class=\"change\"" : "", i + 1, i + 1, html_escape(n.label),
            html_escape(n.fingerprint.is_object() ? n.fingerprint.value("kernel_release", "?")
                                                  : std::string("?")),
            html_escape(where), s.count(), s.pass + s.warn, s.fail + s.expected, s.flaky, s.skip,
            i == 0 ? 0 : t.differs[i].size());
    }
    return h + "</table>\n";
}

std::string families_table(const Trend &t) {
    std::set<std::string> names;
    for (const auto &n : t.nights)
        for (const auto &[f, tally] : n.summary.families)
            names.insert(f);
    std::string h = "<h2>Case families per night</h2>\n<table id=\"families\"><tr><th>family</th>";
    for (size_t i = 0; i < t.nights.size(); ++i)
        h += fmt::format("<th title=\"{}\">{}</th>", html_escape(t.nights[i].label), i + 1);
    h += "</tr>\n";
    for (const auto &f : names) {
        h += "<tr><td>" + html_escape(f) + "</td>";
        for (size_t i = 0; i < t.nights.size(); ++i) {
            auto it = t.nights[i].summary.families.find(f);
            if (it == t.nights[i].summary.families.end()) {
                h += "<td class=\"none\">&middot;</td>";
                continue;
            }
            const Tally &x = it->second;
            h += fmt::format("<td class=\"{}{}\" data-night=\"{}\">{}/{}</td>",
                             outcome_name(x.worst), is_change_night(t, i, f) ? " changed" : "",
                             i + 1, x.pass + x.warn, x.ran());
        }
        h += "</tr>\n";
    }
    return h + "</table>\n";
}

std::string pair_charts(const Trend &t) {
    std::set<DevicePair> pairs;
    for (const auto &n : t.nights)
        for (const auto &[p, tally] : n.summary.pairs)
            if (p.first != p.second) pairs.insert(p);
    // Pairs with a change point first.
    std::vector<DevicePair> order(pairs.begin(), pairs.end());
    auto changed = [&](const DevicePair &p) {
        for (size_t i = 0; i < t.nights.size(); ++i)
            if (is_change_night(t, i, fmt::format("{}>{}", p.first, p.second))) return true;
        return false;
    };
    std::stable_partition(order.begin(), order.end(), changed);
    std::string h = "<h2>Ordered pairs</h2>\n<p>Per pair: the worst outcome of each night (top "
                    "row) and the GB/s of its fastest copy per night, with the link's nominal "
                    "peak dashed; a red line marks a change point.";
    bool simulated = false;
    for (const auto &n : t.nights)
        for (const auto &[p, f] : n.summary.best_copy)
            simulated = simulated || f.simulated;
    if (simulated)
        h += " GB/s SIMULATED: amdgpu-sim's own speed (the host's memcpy), never marked as a "
             "slowdown.";
    h += "</p>\n<div class=\"pairs\">";
    for (const auto &p : order)
        h += trend::pair_chart(t, p.first, p.second);
    return h + "</div>\n";
}

} // namespace

std::string render_trend_html(const Trend &t) {
    std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>peer-harness "
                    "trend</title>";
    h += kStyle;
    h += "</head><body>\n";
    h += fmt::format("<h1>peer-harness trend: {} nights, {} to {}</h1>\n", t.nights.size(),
                     html_escape(t.nights.front().label), html_escape(t.nights.back().label));
    size_t real = 0;
    for (const auto &c : t.changes)
        real += c.kind != ChangePoint::Kind::recovered;
    h += fmt::format("<p id=\"summary\">{} change point(s); slowdown threshold {:g}% of the "
                     "previous night's GB/s.</p>\n",
                     real, t.threshold_pct);
    h += change_points(t) + nights_table(t) + pair_charts(t) + families_table(t);
    return h + "</body></html>\n";
}

} // namespace harness::lab
