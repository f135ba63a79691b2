#include "lab/html.hpp"

#include "lab/fingerprint.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
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

std::string html_escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

namespace {

struct Cell {
    int pass = 0, fail = 0, skip = 0;
    // The cell's representative copy: the fastest between the pair, as
    // TransferBench reports a pair's best (the slower ones are small copies
    // measuring latency, or the staged path of another peer mode).
    const report::CopyFigure *copy = nullptr;
};

void consider(Cell &c, const report::CopyFigure &f) {
    if (!c.copy || f.gbps > c.copy->gbps) c.copy = &f;
}

std::string bandwidth_text(const report::CopyFigure &f) {
    std::string t = fmt::format("<br><span class=\"bw\">{:.2f} GB/s</span>", f.gbps);
    if (f.peak_gbps > 0)
        t += fmt::format("<br><span class=\"pct\">{:.0f}% of {:.0f}</span>",
                         100.0 * f.gbps / f.peak_gbps, f.peak_gbps);
    return t;
}

const char *cell_class(const Cell &c) {
    if (c.fail) return "bad";
    if (c.pass) return "good";
    if (c.skip) return "skip";
    return "none";
}

std::string heat_map(const std::string &family, const std::vector<const InstanceRecord *> &rs,
                     int devices) {
    std::map<std::pair<int, int>, Cell> cells;
    for (const auto *r : rs) {
        auto p = pair_of(*r);
        if (!p) continue;
        Cell &c = cells[*p];
        if (r->status == Status::skip)
            ++c.skip;
        else if (report::is_success(r->status))
            ++c.pass;
        else
            ++c.fail;
    }
    // Bandwidth by each copy's own direction, into the cells of this family.
    bool simulated = false, host_clock = false;
    for (const auto *r : rs)
        for (const auto &f : r->copies) {
            if (f.src < 0 || f.dst < 0 || f.gbps <= 0) continue;
            auto it = cells.find({f.src, f.dst});
            if (it == cells.end()) continue;
            consider(it->second, f);
            simulated = simulated || f.simulated;
            host_clock = host_clock || f.clock != "sdma-timestamp";
        }
    if (cells.empty()) return {};
    std::string h = fmt::format(
        "<table class=\"heat\" data-family=\"{}\"><caption>{}: source device (row) &rarr; "
        "destination device (column), passed/run{}{}</caption><tr><th></th>",
        html_escape(family), html_escape(family),
        simulated ? "; GB/s SIMULATED (amdgpu-sim's own speed, not hardware)" : "",
        host_clock ? "; some GB/s on the host clock (no SDMA timestamps)" : "");
    for (int b = 0; b < devices; ++b)
        h += fmt::format("<th>{}</th>", b);
    h += "</tr>";
    for (int a = 0; a < devices; ++a) {
        h += fmt::format("<tr><th>{}</th>", a);
        for (int b = 0; b < devices; ++b) {
            auto it = cells.find({a, b});
            if (it == cells.end()) {
                h += "<td class=\"none\">&middot;</td>";
                continue;
            }
            const Cell &c = it->second;
            const int run = c.pass + c.fail;
            std::string bw_attr, bw;
            if (c.copy) {
                const report::CopyFigure &f = *c.copy;
                bw_attr =
                    fmt::format(" data-gbps=\"{:.3f}\" data-bw=\"{} bytes in {} ns, {}, {} "
                                "link{}{}\"",
                                f.gbps, f.bytes, f.ns, f.clock, f.link,
                                f.peak_gbps > 0 ? fmt::format(" peak {:.1f} GB/s", f.peak_gbps)
                                                : std::string(" peak unknown"),
                                f.simulated ? ", simulated" : "");
                bw = bandwidth_text(f);
            }
            h += fmt::format("<td class=\"{}\" title=\"{} pass, {} fail, {} skip\"{}>{}{}</td>",
                             cell_class(c), c.pass, c.fail, c.skip, bw_attr,
                             run ? fmt::format("{}/{}", c.pass, run) : std::string("skip"), bw);
        }
        h += "</tr>";
    }
    return h + "</table>\n";
}

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

std::string fingerprint_table(const json &fp) {
    if (!fp.is_object()) return "<p>No fingerprint recorded.</p>";
    std::string h = "<table class=\"fp\">";
    for (const char *k : {"kernel_release", "libdrm_amdgpu", "libhsakmt", "kfd_interface",
                          "harness_version", "cases_hash", "topology_hash"})
        if (fp.contains(k))
            h += fmt::format(
                "<tr><th>{}</th><td>{}</td></tr>", k,
                html_escape(fp[k].is_string() ? fp[k].get<std::string>() : fp[k].dump()));
    h += "</table><table class=\"fp\"><tr><th>node</th><th>PCI slot</th><th>PCI id</th>"
         "<th>product</th><th>firmware</th></tr>";
    if (fp.contains("gpus") && fp["gpus"].is_array())
        for (const json &g : fp["gpus"]) {
            std::string fw;
            if (g.contains("firmware") && g["firmware"].is_object())
                for (auto it = g["firmware"].begin(); it != g["firmware"].end(); ++it)
                    fw += fmt::format("{}={} ", it.key(), it.value().value("version", "?"));
            h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                             g.value("node", 0), html_escape(g.value("pci_slot", "")),
                             html_escape(g.value("pci_id", "")),
                             html_escape(g.value("product", "")), html_escape(fw));
        }
    return h + "</table>";
}

constexpr const char *kStyle = R"(<style>
body{font-family:sans-serif;margin:1em 2em}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #999;padding:2px 6px;font-size:13px}
table.heat td{min-width:3.5em;text-align:center}
.bw{font-size:11px}.pct{font-size:10px;color:#333}
.good{background:#7c7}.bad{background:#e66}.skip{background:#ddd}.none{background:#fff;color:#bbb}
.fail{background:#fdd}
code{font-size:12px}
</style>)";

} // namespace

std::string render_html(const RunResults &run) {
    const json fp = run.metadata.value("fingerprint", json());
    int devices =
        run.metadata.contains("topology") ? run.metadata["topology"].value("device_count", 0) : 0;
    std::map<std::string, std::vector<const InstanceRecord *>> families;
    int failed = 0, passed = 0, skipped = 0;
    for (const auto &r : run.records) {
        families[r.suite + "/" + r.kase].push_back(&r);
        if (auto p = pair_of(r)) devices = std::max(devices, std::max(p->first, p->second) + 1);
        if (r.status == Status::skip)
            ++skipped;
        else if (report::is_success(r.status))
            ++passed;
        else
            ++failed;
    }
    std::map<std::string, std::string> verdicts;
    std::ifstream lj(fs::path(run.dir) / files::kLabJson);
    if (lj) {
        auto j = json::parse(lj, nullptr, false);
        if (!j.is_discarded())
            for (const auto &v : j.value("verdicts", json::array()))
                verdicts[v.value("name", "")] = v.value("verdict", "");
    }

    std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                    "<title>peer-harness report</title>";
    h += kStyle;
    h += "</head><body>\n<h1>peer-harness report</h1>\n";
    h += fmt::format("<p id=\"totals\">{} instances: {} passed, {} failed, {} skipped.</p>\n",
                     run.records.size(), passed, failed, skipped);
    h += "<h2>Fingerprint</h2>\n" + fingerprint_table(fp) + "\n";
    h += "<h2>Heat maps per case family</h2>\n<p>Cells show passed/run instances of each "
         "ordered device pair and, where a copy step ran between them, the GB/s of the fastest "
         "copy (10<sup>9</sup> bytes/s, on the GPU's SDMA timestamp counter unless the caption "
         "says otherwise) with its share of the link's nominal peak (KFD io_link "
         "max_bandwidth).</p>\n";
    for (const auto &[family, rs] : families)
        h += heat_map(family, rs, devices);

    h += "<h2>Failing instances</h2>\n<table id=\"failures\"><tr><th>instance</th><th>status"
         "</th><th>verdict</th><th>failure</th><th>first mismatch (offset, expected, got)</th>"
         "<th>kernel log</th></tr>\n";
    for (const auto &r : run.records) {
        if (report::is_success(r.status)) continue;
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
        auto v = verdicts.find(r.name);
        h += fmt::format("<tr class=\"fail\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}"
                         "</td><td>{}</td></tr>\n",
                         html_escape(r.name), report::status_name(r.status),
                         v == verdicts.end() ? "" : html_escape(v->second), why, html_escape(mism),
                         kl);
    }
    h += "</table>\n</body></html>\n";
    return h;
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
