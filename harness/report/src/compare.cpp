#include "report/compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace harness::report {

namespace {

void compare_bandwidth(const InstanceRecord &rb, const InstanceRecord &ra, double threshold,
                       Comparison &c) {
    for (const auto &fb : rb.copies)
        for (const auto &fa : ra.copies) {
            if (fa.step != fb.step || fa.bytes != fb.bytes) continue;
            if (fb.gbps <= 0 || fa.gbps <= 0) break;
            if (fa.clock != fb.clock) {
                ++c.bandwidth_clock_changed;
                break;
            }
            const double pct = (fa.gbps - fb.gbps) / fb.gbps * 100.0;
            if (std::abs(pct) > threshold) {
                BandwidthChange x{
                    rb.name, fb.step, fb.bytes, fb.gbps, fa.gbps, pct, fa.simulated || fb.simulated,
                    false};
                x.gates = pct < 0 && !x.simulated;
                c.bandwidth.push_back(x);
            }
            break;
        }
}

} // namespace

Comparison compare_runs(const std::vector<InstanceRecord> &before,
                        const std::vector<InstanceRecord> &after, const CompareOptions &opt) {
    std::map<std::string, Status> b, a;
    std::map<std::string, const InstanceRecord *> rb, ra;
    for (const auto &r : before) {
        b[r.name] = r.status;
        rb[r.name] = &r;
    }
    for (const auto &r : after) {
        a[r.name] = r.status;
        ra[r.name] = &r;
    }
    Comparison c;
    c.bandwidth_threshold_pct = opt.bandwidth_threshold_pct;
    for (const auto &[name, r] : rb)
        if (auto it = ra.find(name); it != ra.end())
            compare_bandwidth(*r, *it->second, opt.bandwidth_threshold_pct, c);
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
    int slower = 0, simulated = 0;
    std::string listed;
    for (const auto &x : c.bandwidth) {
        slower += x.gates ? 1 : 0;
        // The simulator's speed is the host's: counted, not listed one by
        // one (a simulated suite would list most of its copies every time).
        if (x.simulated) {
            ++simulated;
            continue;
        }
        listed += fmt::format("  {:>9.3f} -> {:>9.3f} GB/s {:+6.1f}% {} step {} ({} bytes)\n",
                              x.before, x.after, x.percent, x.name, x.step, x.bytes);
    }
    if (!listed.empty())
        out += fmt::format("bandwidth beyond {:g}% ({}):\n{}", c.bandwidth_threshold_pct,
                           c.bandwidth.size() - static_cast<size_t>(simulated), listed);
    if (simulated)
        out += fmt::format("bandwidth of {} simulated copy step(s) moved beyond {:g}% (the "
                           "simulator's speed: not listed, not gated)\n",
                           simulated, c.bandwidth_threshold_pct);
    if (c.bandwidth_clock_changed)
        out += fmt::format("bandwidth not compared for {} copy step(s): the clock differs "
                           "(sdma-timestamp vs host-fence)\n",
                           c.bandwidth_clock_changed);
    out += fmt::format("{} new failure(s), {} fixed, {} newly skipped, {} gone, {} slower copy "
                       "step(s)\n",
                       c.regressions.size(), c.fixes.size(), c.new_skips.size(),
                       c.only_before.size(), slower);
    out += c.gates() ? "gate: FAIL (new failures, new skips, missing instances or slower "
                       "copies)\n"
                     : "gate: pass\n";
    return out;
}

} // namespace harness::report
