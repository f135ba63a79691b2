#include "lab/html.hpp"

#include "html_parts.hpp"
#include "lab/run_summary.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;
using report::InstanceRecord;
using report::Status;

std::optional<Mismatch> parse_mismatch(const std::string &message) {
    static const std::regex re(
        R"(first at offset (\d+): (0x[0-9a-fA-F]+), expected (0x[0-9a-fA-F]+))");
    std::smatch m;
    if (!std::regex_search(message, m, re)) return std::nullopt;
    return Mismatch{std::stoull(m[1].str()), m[3].str(), m[2].str()};
}

std::optional<std::pair<int, int>> pair_of(const InstanceRecord &r) {
    for (const auto &[k, v] : r.params) {
        if (k != "pair") continue;
        int a = 0, b = 0;
        char c = 0;
        std::istringstream in(v);
        if (in >> a >> c >> b && c == '>') return std::make_pair(a, b);
    }
    return std::nullopt;
}

namespace html {

namespace {

std::string pair_list(const RunSummary &s, Outcome o) {
    std::string out;
    int shown = 0, more = 0;
    for (const auto &[p, t] : s.pairs) {
        if (t.worst != o) continue;
        if (++shown > 8) {
            ++more;
            continue;
        }
        out += fmt::format("{}<a href=\"#{}\">{}&rarr;{}</a> ({})", out.empty() ? "" : ", ",
                           pair_anchor(p.first, p.second), p.first, p.second,
                           o == Outcome::flaky ? t.flaky : t.fail);
    }
    if (s.unpaired.worst == o && s.unpaired.failing())
        out += std::string(out.empty() ? "" : ", ") +
               "<a href=\"#pair-machine\">the machine as a whole</a>";
    if (more) out += fmt::format(" and {} more", more);
    return out;
}

std::string family_list(const RunSummary &s, Outcome o) {
    std::string out;
    for (const auto &[f, t] : s.families)
        if (t.worst == o)
            out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", html_escape(f),
                               o == Outcome::flaky ? t.flaky : t.fail);
    return out;
}

} // namespace

std::string verdict_block(const RunSummary &s) {
    const Tally &t = s.total;
    std::string word, cls, text;
    if (t.count() == 0) {
        word = "EMPTY", cls = "skip", text = "no instance ran.";
    } else if (t.fail > 0) {
        word = s.judged ? "REGRESSION" : "FAIL", cls = "bad";
        text = s.judged ? fmt::format("{} regression(s) against the baseline", t.fail)
                        : fmt::format("{} of {} instances failed", t.fail, t.ran());
        text += fmt::format(". Failing pairs: {}. Families: {}.",
                            pair_list(s, Outcome::fail).empty() ? std::string("none")
                                                                : pair_list(s, Outcome::fail),
                            family_list(s, Outcome::fail));
    } else {
        word = "PASS", cls = t.flaky ? "flaky" : "good";
        text = s.judged ? "no regression against the baseline"
                        : fmt::format("all {} instances that ran passed", t.ran());
        text += ".";
    }
    if (t.flaky)
        text += fmt::format(" {} flaky (failed, then passed a retry): {}.", t.flaky,
                            pair_list(s, Outcome::flaky));
    if (t.expected) text += fmt::format(" {} expected failure(s) (baseline).", t.expected);
    text += fmt::format(" {} skipped.", t.skip);
    return fmt::format("<div id=\"verdict\" class=\"verdict {}\"><strong>{}</strong>: {}</div>\n",
                       cls, word, text);
}

} // namespace html

namespace {

constexpr const char *kStyle = R"(<style>
body{font-family:sans-serif;margin:.6em 1.5em}
h1{font-size:20px;margin:.2em 0}h2{font-size:17px}
.verdict{font-size:17px;padding:.4em .6em;margin:.3em 0;border-radius:4px}
.verdict.bad{background:#f4b6b6}.verdict.good{background:#bfe5bf}.verdict.flaky{background:#f7dc9c}
.verdict.skip{background:#ddd}
.context{font-size:13px;color:#333;margin:.2em 0 .5em}
.matrices{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}
table{border-collapse:collapse;margin:.3em 0 1em}
td,th{border:1px solid #999;padding:2px 5px;font-size:12px}
caption{font-size:12px;text-align:left;max-width:40em}
table.matrix td,table.heat td{min-width:3.6em;text-align:center;line-height:1.15}
.dev{font-weight:normal;font-size:10px}.n{font-size:10px}
.bw{font-size:11px}.pct,.link{font-size:10px;color:#333}
.good{background:#7c7}.bad,.fail{background:#e66}.skip{background:#ddd}.none{background:#fff;color:#bbb}
.flaky{background:#f5c542}.expected{background:#f0b0b0}.warn{background:#c9e07a}
.link-xgmi{background:#b9d4f5}.link-pcie{background:#e3d0f2}.link-local{background:#eee}
table.matrix a{color:#000}
tr.fail td{background:#fdd}tr.flaky td{background:#fdf0c8}tr.expected-fail td{background:#f6e4e4}
tr.group th{text-align:left;background:#eee}
code{font-size:11px}.repro{color:#036}
#bandwidth-by-link{font-size:12px;margin:0;padding-left:1.2em}
details.family{margin:.2em 0}details.family summary.fail{color:#b00}
</style>)";

std::string context_line(const RunResults &run, const RunSummary &s, const json &fp) {
    const json &m = run.metadata;
    std::string where = m.is_object() && !m.value("machine", "").empty()
                            ? m.value("machine", "")
                            : std::string("this machine");
    return fmt::format(
        "<p class=\"context\">{}{}: kernel {}, {} GPU(s), {} depth; {} instances: {} passed, {} "
        "failing, {} skipped. <a href=\"#failing\">Failing instances</a> &middot; <a "
        "href=\"#fingerprint\">fingerprint</a> &middot; <a href=\"#families\">per family</a></p>\n",
        html_escape(where),
        fp.is_object() && fp.value("on_simulator", false) ? " (amdgpu-sim)" : "",
        html_escape(fp.is_object() ? fp.value("kernel_release", "?") : std::string("?")), s.devices,
        m.is_object() ? html_escape(m.value("depth", "quick")) : "quick", s.total.count(),
        s.total.pass + s.total.warn, s.total.failing(), s.total.skip);
}

} // namespace

std::string render_html(const RunResults &run) {
    const json fp = run.metadata.is_object() ? run.metadata.value("fingerprint", json()) : json();
    const RunSummary s = summarize(run);
    const auto names = html::device_names(fp, s.devices);
    std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                    "<title>peer-harness report</title>";
    h += kStyle;
    h += "</head><body>\n<h1>peer-harness report</h1>\n";
    h += html::verdict_block(s) + context_line(run, s, fp);
    h += "<div class=\"matrices\">" + html::status_matrix(s, names) + "<div>" +
         html::bandwidth_matrix(s, names) + "</div></div>\n";
    h += html::failure_list(run, s);
    h += html::fingerprint_section(fp);
    h += html::family_tables(run, s);
    return h + "</body></html>\n";
}

std::string write_html_report(const std::string &dir) {
    auto r = read_run(dir);
    if (auto *e = std::get_if<std::string>(&r)) return *e;
    std::ofstream out(fs::path(dir) / files::kHtml);
    out << render_html(std::get<RunResults>(r));
    if (!out) return "cannot write " + (fs::path(dir) / files::kHtml).string();
    return {};
}

} // namespace harness::lab
