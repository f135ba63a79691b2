#include "html_parts.hpp"

#include "lab/html.hpp"

#include <fmt/format.h>

namespace harness::lab::html {

using nlohmann::json;
using report::InstanceRecord;
using report::Status;

namespace {

struct Cell {
    int pass = 0, fail = 0, skip = 0;
    // The fastest copy between the pair, as TransferBench reports a pair's
    // best (the slower ones are small copies measuring latency, or the
    // staged path of another peer mode).
    const report::CopyFigure *copy = nullptr;
};

const char *cell_class(const Cell &c) {
    if (c.fail) return "bad";
    if (c.pass) return "good";
    if (c.skip) return "skip";
    return "none";
}

std::map<DevicePair, Cell> family_cells(const std::vector<const InstanceRecord *> &rs,
                                        bool &simulated, bool &host_clock) {
    std::map<DevicePair, Cell> cells;
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
    for (const auto *r : rs)
        for (const auto &f : r->copies) {
            if (f.src < 0 || f.dst < 0 || f.gbps <= 0) continue;
            auto it = cells.find({f.src, f.dst});
            if (it == cells.end()) continue;
            if (!it->second.copy || f.gbps > it->second.copy->gbps) it->second.copy = &f;
            simulated = simulated || f.simulated;
            host_clock = host_clock || f.clock != "sdma-timestamp";
        }
    return cells;
}

std::string heat_cell(const Cell &c) {
    const int run = c.pass + c.fail;
    std::string bw_attr, bw;
    if (c.copy) {
        const report::CopyFigure &f = *c.copy;
        bw_attr =
            fmt::format(" data-gbps=\"{:.3f}\" data-bw=\"{} bytes in {} ns, {}, {} link{}{}\"",
                        f.gbps, f.bytes, f.ns, f.clock, f.link,
                        f.peak_gbps > 0 ? fmt::format(" peak {:.1f} GB/s", f.peak_gbps)
                                        : std::string(" peak unknown"),
                        f.simulated ? ", simulated" : "");
        bw = fmt::format("<br><span class=\"bw\">{:.2f} GB/s</span>", f.gbps);
        if (f.peak_gbps > 0)
            bw += fmt::format("<br><span class=\"pct\">{:.0f}% of {:.0f}</span>",
                              100.0 * f.gbps / f.peak_gbps, f.peak_gbps);
    }
    return fmt::format("<td class=\"{}\" title=\"{} pass, {} fail, {} skip\"{}>{}{}</td>",
                       cell_class(c), c.pass, c.fail, c.skip, bw_attr,
                       run ? fmt::format("{}/{}", c.pass, run) : std::string("skip"), bw);
}

std::string heat_map(const std::string &family, const std::vector<const InstanceRecord *> &rs,
                     int devices) {
    bool simulated = false, host_clock = false;
    const auto cells = family_cells(rs, simulated, host_clock);
    if (cells.empty()) return "<p>No instance of this family is about a device pair.</p>";
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
            h += it == cells.end() ? std::string("<td class=\"none\">&middot;</td>")
                                   : heat_cell(it->second);
        }
        h += "</tr>";
    }
    return h + "</table>\n";
}

} // namespace

std::string family_tables(const RunResults &run, const RunSummary &s) {
    std::map<std::string, std::vector<const InstanceRecord *>> families;
    for (const auto &r : run.records)
        families[r.suite + "/" + r.kase].push_back(&r);
    std::string h = "<h2 id=\"families\">Per case family</h2>\n<p>Each family's device &times; "
                    "device map (passed/run per ordered pair and the GB/s of its fastest copy with "
                    "its share of the link's nominal peak), folded; failing families first.</p>\n";
    std::vector<std::string> order;
    for (const auto &[family, rs] : families)
        order.push_back(family);
    std::stable_sort(order.begin(), order.end(), [&](const auto &x, const auto &y) {
        return s.families.at(x).worst > s.families.at(y).worst;
    });
    for (const auto &family : order) {
        const Tally &t = s.families.at(family);
        h += fmt::format("<details class=\"family\" data-family=\"{}\"><summary class=\"{}\">{}: "
                         "{} passed, {} failing, {} skipped</summary>\n{}</details>\n",
                         html_escape(family), outcome_name(t.worst), html_escape(family),
                         t.pass + t.warn, t.failing(), t.skip,
                         heat_map(family, families.at(family), s.devices));
    }
    return h;
}

namespace {

std::string text_of(const json &v) {
    if (v.is_string()) return v.get<std::string>();
    if (!v.is_object()) return v.dump();
    std::string out;
    for (auto it = v.begin(); it != v.end(); ++it)
        out += (out.empty() ? "" : " ") + it.key() + "=" + text_of(it.value());
    return out;
}

std::string gpu_row(const json &g) {
    std::string fw;
    if (g.contains("firmware") && g["firmware"].is_object())
        for (auto it = g["firmware"].begin(); it != g["firmware"].end(); ++it)
            if (it.value().value("version", "0x00000000") != "0x00000000")
                fw += fmt::format("{}={} ", it.key(), it.value().value("version", "?"));
    return fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "<td>{}</td></tr>",
                       g.value("node", 0), html_escape(g.value("pci_slot", "")),
                       html_escape(g.value("pci_id", "")), html_escape(g.value("pci_revision", "")),
                       html_escape(g.value("manifest_product", "")),
                       html_escape(g.value("product", "")),
                       html_escape(fw.empty() ? "none loaded" : fw));
}

} // namespace

std::string fingerprint_section(const json &fp) {
    std::string h = "<h2 id=\"fingerprint\">Fingerprint</h2>\n";
    if (!fp.is_object()) return h + "<p>No fingerprint recorded.</p>";
    h += "<table class=\"fp\">";
    for (const char *k : {"kernel_release", "kernel_version", "on_simulator", "kernel_config",
                          "amdgpu_parameters", "kfd_interface", "libdrm_amdgpu", "libhsakmt",
                          "harness_version", "cases_hash", "topology_hash"})
        if (fp.contains(k))
            h += fmt::format("<tr><th>{}</th><td>{}</td></tr>", k, html_escape(text_of(fp[k])));
    h += "</table><table class=\"fp\"><tr><th>node</th><th>PCI slot</th><th>PCI id</th>"
         "<th>rev</th><th>product (manifest)</th><th>libdrm's name</th><th>firmware (non-zero)"
         "</th></tr>";
    if (fp.contains("gpus") && fp["gpus"].is_array())
        for (const json &g : fp["gpus"])
            h += gpu_row(g);
    return h + "</table>\n";
}

} // namespace harness::lab::html
