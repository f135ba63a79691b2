#include "report/compare.hpp"

#include <fmt/format.h>

#include <map>

namespace harness::report {

Comparison compare_runs(const std::vector<InstanceRecord> &before,
                        const std::vector<InstanceRecord> &after) {
    std::map<std::string, Status> b, a;
    for (const auto &r : before)
        b[r.name] = r.status;
    for (const auto &r : after)
        a[r.name] = r.status;
    Comparison c;
    for (const auto &[name, sb] : b) {
        auto it = a.find(name);
        if (it == a.end()) {
            c.only_before.push_back(name);
            continue;
        }
        Status sa = it->second;
        if (sa == sb) continue;
        // A skip that starts running (or stops) is not a verdict change.
        const bool ok_b = is_success(sb), ok_a = is_success(sa);
        if (ok_b && !ok_a)
            c.regressions.push_back({name, sb, sa});
        else if (sa == Status::skip)
            c.new_skips.push_back({name, sb, sa});
        else if (sb == Status::skip)
            c.unskipped.push_back({name, sb, sa});
        else if (!ok_b && ok_a)
            c.fixes.push_back({name, sb, sa});
        else
            c.other.push_back({name, sb, sa});
    }
    for (const auto &[name, sa] : a)
        if (!b.count(name)) c.only_after.push_back(name);
    return c;
}

std::string render_comparison(const Comparison &c) {
    std::string out;
    auto section = [&](const char *title, const std::vector<Change> &v) {
        if (v.empty()) return;
        out += fmt::format("{} ({}):\n", title, v.size());
        for (const auto &x : v)
            out += fmt::format("  {:<10} -> {:<10} {}\n", status_name(x.before),
                               status_name(x.after), x.name);
    };
    section("new failures", c.regressions);
    section("fixed", c.fixes);
    section("newly skipped", c.new_skips);
    section("no longer skipped", c.unskipped);
    section("changed", c.other);
    if (!c.only_before.empty())
        out += fmt::format("only in the first run: {} instance(s)\n", c.only_before.size());
    if (!c.only_after.empty())
        out += fmt::format("only in the second run: {} instance(s)\n", c.only_after.size());
    out +=
        fmt::format("{} new failure(s), {} fixed, {} newly skipped, {} gone\n",
                    c.regressions.size(), c.fixes.size(), c.new_skips.size(), c.only_before.size());
    out +=
        c.gates() ? "gate: FAIL (new failures, new skips or missing instances)\n" : "gate: pass\n";
    return out;
}

} // namespace harness::report
