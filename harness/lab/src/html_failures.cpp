#include "html_parts.hpp"

#include "lab/html.hpp"
#include "lab/reproducer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace harness::lab::html {

namespace fs = std::filesystem;
using report::InstanceRecord;

namespace {

// amdgpu / drm lines of the instance's captured output: the kernel-log
// lines the peer layer echoed, plus peerLastKernelError of failing steps.
std::vector<std::string> kernel_lines(const std::string &dir, const InstanceRecord &r) {
    std::vector<std::string> out(r.kernel_errors.begin(), r.kernel_errors.end());
    if (r.log.empty()) return out;
    std::ifstream in(fs::path(dir) / r.log);
    std::string line;
    while (std::getline(in, line))
        if (line.find("amdgpu") != std::string::npos || line.find("[drm]") != std::string::npos)
            out.push_back(line);
    return out;
}

std::string failure_row(const RunResults &run, const RunSummary &s, const InstanceRecord &r) {
    std::string why, mism;
    for (const auto &f : r.failures) {
        why += fmt::format("<code>{}:{}</code> step {}: {}<br>", html_escape(f.file), f.line,
                           f.step, html_escape(f.message));
        if (mism.empty())
            if (auto m = parse_mismatch(f.message))
                mism = fmt::format("{} (0x{:x}), expected {}, got {}", m->offset, m->offset,
                                   m->expected, m->got);
    }
    if (why.empty()) why = html_escape(r.reason);
    std::string kl;
    for (const auto &l : kernel_lines(run.dir, r))
        kl += "<code>" + html_escape(l) + "</code><br>";
    auto v = s.verdicts.find(r.name);
    const Outcome o = s.outcome(r);
    return fmt::format(
        "<tr class=\"{}\"><td>{}<br><code class=\"repro\">{}</code></td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td></tr>\n",
        o == Outcome::fail ? "fail" : outcome_name(o), html_escape(r.name),
        html_escape(reproducer_command(run.metadata, r.name)), report::status_name(r.status),
        v == s.verdicts.end() ? "" : html_escape(v->second), why, html_escape(mism), kl);
}

struct Group {
    std::optional<DevicePair> pair;
    Outcome worst = Outcome::skip;
    std::vector<const InstanceRecord *> rows;
};

} // namespace

std::string failure_list(const RunResults &run, const RunSummary &s) {
    std::map<std::optional<DevicePair>, Group> groups;
    for (const auto &r : run.records) {
        const Outcome o = s.outcome(r);
        if (o < Outcome::expected) continue;
        Group &g = groups[devices_of(r)];
        g.pair = devices_of(r);
        g.worst = std::max(g.worst, o);
        g.rows.push_back(&r);
    }
    std::vector<Group *> order;
    for (auto &[k, g] : groups) {
        std::stable_sort(g.rows.begin(), g.rows.end(),
                         [&](auto *x, auto *y) { return s.outcome(*x) > s.outcome(*y); });
        order.push_back(&g);
    }
    // Worst pairs first; instances of no pair after the pairs of their rank.
    std::stable_sort(order.begin(), order.end(),
                     [](const Group *x, const Group *y) { return x->worst > y->worst; });
    std::string h = fmt::format("<h2 id=\"failing\">Failing and flaky instances ({})</h2>\n",
                                s.total.failing());
    if (order.empty()) return h + "<p id=\"failures\">None.</p>\n";
    h += "<table id=\"failures\"><tr><th>instance and the command that reproduces it</th>"
         "<th>status</th><th>verdict</th><th>failure</th><th>first mismatch (offset, expected, "
         "got)</th><th>kernel log</th></tr>\n";
    for (const Group *g : order) {
        const std::string id =
            g->pair ? pair_anchor(g->pair->first, g->pair->second) : std::string("pair-machine");
        const std::string title =
            g->pair ? fmt::format("pair {} &rarr; {}", g->pair->first, g->pair->second)
                    : std::string("the machine as a whole");
        h += fmt::format("<tbody id=\"{}\"><tr class=\"group\"><th colspan=\"6\">{}: {} "
                         "instance(s)</th></tr>\n",
                         id, title, g->rows.size());
        for (const InstanceRecord *r : g->rows)
            h += failure_row(run, s, *r);
        h += "</tbody>\n";
    }
    return h + "</table>\n";
}

} // namespace harness::lab::html
