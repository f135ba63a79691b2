#include "html_parts.hpp"

#include "lab/html.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace harness::lab::html {

using nlohmann::json;

std::vector<std::string> device_names(const json &fp, int devices) {
    std::vector<std::string> out(static_cast<size_t>(std::max(devices, 0)));
    if (!fp.is_object() || !fp.contains("gpus") || !fp["gpus"].is_array()) return out;
    const json &gpus = fp["gpus"];
    for (size_t i = 0; i < out.size() && i < gpus.size(); ++i)
        if (gpus[i].is_object())
            out[i] = gpus[i].value("manifest_product", gpus[i].value("product", ""));
    return out;
}

namespace {

const char *outcome_class(Outcome o) {
    switch (o) {
    case Outcome::skip:
        return "skip";
    case Outcome::pass:
        return "good";
    case Outcome::warn:
        return "warn";
    case Outcome::expected:
        return "expected";
    case Outcome::flaky:
        return "flaky";
    case Outcome::fail:
        return "bad";
    }
    return "none";
}

std::string header_row(const std::vector<std::string> &names) {
    std::string h = "<tr><th></th>";
    for (size_t b = 0; b < names.size(); ++b) {
        std::string shown = names[b].rfind("AMD ", 0) == 0 ? names[b].substr(4) : names[b];
        h += fmt::format("<th title=\"{}\">{}<br><span class=\"dev\">{}</span></th>",
                         html_escape(names[b]), b, html_escape(shown));
    }
    return h + "</tr>";
}

std::string row_header(int a, const std::vector<std::string> &names) {
    return fmt::format("<th title=\"{}\">{}</th>", html_escape(names[static_cast<size_t>(a)]), a);
}

// "3/12 fail", "12/12 pass": the worst outcome's share of what ran.
std::string tally_text(const Tally &t) {
    if (t.ran() == 0) return "skip";
    const std::string word =
        t.worst_status && t.worst >= Outcome::expected
            ? (t.worst == Outcome::flaky ? std::string("flaky")
                                         : report::status_name(*t.worst_status))
            : std::string(outcome_name(t.worst));
    const int n = t.worst >= Outcome::expected ? t.failing() : t.pass + t.warn;
    return fmt::format("{}<br><span class=\"n\">{}/{}</span>", word, n, t.ran());
}

std::string tally_title(const Tally &t) {
    return fmt::format("{} pass, {} fail, {} flaky, {} expected fail, {} skip", t.pass + t.warn,
                       t.fail, t.flaky, t.expected, t.skip);
}

} // namespace

std::string pair_anchor(int a, int b) {
    return fmt::format("pair-{}-{}", a, b);
}

std::string status_matrix(const RunSummary &s, const std::vector<std::string> &names) {
    std::string h = "<table id=\"status-matrix\" class=\"matrix\"><caption>Every case family: "
                    "worst outcome per ordered device pair (row &rarr; column; the diagonal "
                    "holds one-device instances), failing/run</caption>" +
                    header_row(names);
    for (int a = 0; a < s.devices; ++a) {
        h += "<tr>" + row_header(a, names);
        for (int b = 0; b < s.devices; ++b) {
            auto it = s.pairs.find({a, b});
            if (it == s.pairs.end()) {
                h += "<td class=\"none\">&middot;</td>";
                continue;
            }
            const Tally &t = it->second;
            std::string body = tally_text(t);
            if (t.failing() > 0)
                body = fmt::format("<a href=\"#{}\">{}</a>", pair_anchor(a, b), body);
            h += fmt::format("<td class=\"{}\" data-pair=\"{}&gt;{}\" title=\"{}\">{}</td>",
                             outcome_class(t.worst), a, b, tally_title(t), body);
        }
        h += "</tr>";
    }
    h += "</table>";
    if (s.unpaired.count() > 0)
        h += fmt::format("<p id=\"unpaired\" class=\"{}\">Instances about the machine as a whole "
                         "(no device pair): {}{}</p>",
                         outcome_class(s.unpaired.worst), tally_title(s.unpaired),
                         s.unpaired.failing() ? " &mdash; <a href=\"#pair-machine\">failing "
                                                "instances</a>"
                                              : "");
    return h;
}

namespace {

std::string bandwidth_cell(const report::CopyFigure &f) {
    std::string pct = f.peak_gbps > 0 ? fmt::format("{:.0f}% of {:.0f}",
                                                    100.0 * f.gbps / f.peak_gbps, f.peak_gbps)
                                      : std::string("peak unknown");
    return fmt::format("<td class=\"link-{}\" data-gbps=\"{:.3f}\" data-link=\"{}\" title=\"{} "
                       "bytes in {} ns, {} clock{}\"><span class=\"bw\">{:.2f} GB/s</span><br>"
                       "<span class=\"pct\">{}</span><br><span class=\"link\">{}</span></td>",
                       html_escape(f.link), f.gbps, html_escape(f.link), f.bytes, f.ns,
                       html_escape(f.clock), f.simulated ? ", simulated" : "", f.gbps, pct,
                       html_escape(f.link));
}

// One line per link type: how many pairs, their range of GB/s and of % of peak.
std::string by_link_type(const RunSummary &s) {
    std::map<std::string, std::vector<const report::CopyFigure *>> links;
    for (const auto &[p, f] : s.best_copy)
        links[f.link].push_back(&f);
    std::string h = "<ul id=\"bandwidth-by-link\">";
    for (const auto &[link, fs] : links) {
        auto [lo, hi] = std::minmax_element(fs.begin(), fs.end(),
                                            [](auto *x, auto *y) { return x->gbps < y->gbps; });
        // "a" or "a&ndash;b": the range of the pairs' figures.
        auto range = [](double a, double b, const char *fmt_one) {
            std::string one = fmt::format(fmt::runtime(fmt_one), a);
            return a == b ? one : one + "&ndash;" + fmt::format(fmt::runtime(fmt_one), b);
        };
        std::string pct;
        if ((*lo)->peak_gbps > 0 && (*hi)->peak_gbps > 0)
            pct = ", " +
                  range(100.0 * (*lo)->gbps / (*lo)->peak_gbps,
                        100.0 * (*hi)->gbps / (*hi)->peak_gbps, "{:.0f}") +
                  "% of peak";
        h += fmt::format("<li class=\"link-{}\" data-link=\"{}\">{}: {} pair(s), {} GB/s{}</li>",
                         html_escape(link), html_escape(link), html_escape(link), fs.size(),
                         range((*lo)->gbps, (*hi)->gbps, "{:.2f}"), pct);
    }
    return h + "</ul>";
}

} // namespace

std::string bandwidth_matrix(const RunSummary &s, const std::vector<std::string> &names) {
    bool simulated = false, host_clock = false;
    for (const auto &[p, f] : s.best_copy) {
        simulated = simulated || f.simulated;
        host_clock = host_clock || f.clock != "sdma-timestamp";
    }
    std::string h = fmt::format(
        "<table id=\"bandwidth-matrix\" class=\"matrix\"><caption>Fastest copy per ordered pair "
        "(source row &rarr; destination column): GB/s (10<sup>9</sup> B/s), % of the link's "
        "nominal peak (KFD io_link), link type{}{}</caption>",
        simulated ? "; SIMULATED: amdgpu-sim's own speed, not hardware" : "",
        host_clock ? "; some on the host clock (no SDMA timestamps)" : "");
    h += header_row(names);
    for (int a = 0; a < s.devices; ++a) {
        h += "<tr>" + row_header(a, names);
        for (int b = 0; b < s.devices; ++b) {
            auto it = s.best_copy.find({a, b});
            h += it == s.best_copy.end() ? std::string("<td class=\"none\">&middot;</td>")
                                         : bandwidth_cell(it->second);
        }
        h += "</tr>";
    }
    h += "</table>";
    if (s.best_copy.empty()) return h + "<p id=\"bandwidth-by-link\">No copy step was timed.</p>";
    return h + by_link_type(s);
}

} // namespace harness::lab::html
