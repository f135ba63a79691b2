#include "lab/bisect_differential.hpp"

#include "lab/html.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace harness::lab {

namespace fs = std::filesystem;

RuntimeVerdicts runtime_verdicts(const fs::path &step_dir,
                                 const std::vector<report::InstanceRecord> &failing) {
    RuntimeVerdicts v;
    std::ifstream in(step_dir / "differential" / "differential.json");
    if (!in) return v;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object()) return v;
    v.available = true;
    v.summary = fmt::format("{} steps compared, {} documented differences, {} unexplained, {} "
                            "not comparable",
                            j.value("compared", 0), j.value("documented", 0),
                            j.value("unexplained", 0), j.value("not_comparable", 0));
    std::set<std::string> both;
    for (const auto &n : j.value("both_failed_instances", nlohmann::json::array()))
        if (n.is_string()) both.insert(n.get<std::string>());
    std::map<std::string, const nlohmann::json *> differs;
    const nlohmann::json differences = j.value("differences", nlohmann::json::array());
    for (const auto &d : differences)
        differs.emplace(d.value("instance", ""), &d);
    for (const auto &f : failing) {
        RuntimeVerdict r{f.name, "not compared", "the differential run did not compare it"};
        if (both.count(f.name)) {
            r.verdict = "both runtimes";
            r.detail = "ROCm's HIP fails the same step: the kernel, or what both runtimes do";
        } else if (auto it = differs.find(f.name); it != differs.end()) {
            const nlohmann::json &d = *it->second;
            r.verdict = "this harness only";
            r.detail = fmt::format("step {} {}: ROCm's HIP answers {}{}", d.value("step", 0),
                                   d.value("kind", ""), d.value("rocm", ""),
                                   d.value("documented", false)
                                       ? " (CONTRACT.md §4: " + d.value("contract", "") + ")"
                                       : "");
        }
        v.rows.push_back(std::move(r));
    }
    return v;
}

std::string runtime_verdicts_markdown(const RuntimeVerdicts &v) {
    if (!v.available) return {};
    std::string md = "\n## Which runtime (differential run at the first bad commit)\n\n" +
                     v.summary + "\n\n| instance | fails in | detail |\n|---|---|---|\n";
    for (const auto &r : v.rows)
        md += fmt::format("| `{}` | {} | {} |\n", r.instance, r.verdict, r.detail);
    return md;
}

std::string runtime_verdicts_html(const RuntimeVerdicts &v) {
    if (!v.available) return {};
    std::string html = "<h2>Which runtime</h2><p>" + html_escape(v.summary) +
                       "</p><table id=\"runtime-verdicts\"><tr><th>instance</th><th>fails "
                       "in</th><th>detail</th></tr>";
    for (const auto &r : v.rows)
        html += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                            html_escape(r.instance), html_escape(r.verdict), html_escape(r.detail));
    return html + "</table>";
}

} // namespace harness::lab
