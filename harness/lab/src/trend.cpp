#include "lab/trend.hpp"

#include "lab/fingerprint.hpp"
#include "report/tokens.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;

const char *change_kind_name(ChangePoint::Kind k) {
    switch (k) {
    case ChangePoint::Kind::family_failing:
        return "family-failing";
    case ChangePoint::Kind::pair_failing:
        return "pair-failing";
    case ChangePoint::Kind::slower:
        return "slower";
    case ChangePoint::Kind::recovered:
        return "recovered";
    }
    return "?";
}

namespace {

bool is_results_dir(const fs::path &p) {
    std::error_code ec;
    return fs::is_regular_file(p / report::tokens::kJournalFile, ec);
}

} // namespace

std::variant<std::vector<std::string>, std::string>
night_dirs(const std::vector<std::string> &args) {
    std::vector<std::string> out;
    for (const auto &a : args) {
        if (is_results_dir(a)) {
            out.push_back(a);
            continue;
        }
        std::error_code ec;
        std::vector<std::string> inside;
        for (const auto &e : fs::directory_iterator(a, ec))
            if (e.is_directory() && is_results_dir(e.path())) inside.push_back(e.path().string());
        if (ec) return a + ": " + ec.message();
        if (inside.empty())
            return a + ": not a results directory (no " + report::tokens::kJournalFile +
                   "), and no subdirectory is one";
        std::sort(inside.begin(), inside.end());
        out.insert(out.end(), inside.begin(), inside.end());
    }
    if (out.empty()) return std::string("no results directories given");
    return out;
}

std::vector<FieldChange> night_differences(const Night &before, const Night &after) {
    auto a = flatten_fingerprint(before.fingerprint), b = flatten_fingerprint(after.fingerprint);
    a["simulator.machine"] = before.machine, b["simulator.machine"] = after.machine;
    a["simulator.faults"] = before.faults, b["simulator.faults"] = after.faults;
    std::vector<FieldChange> out;
    for (const auto &[k, v] : a) {
        auto it = b.find(k);
        const std::string w = it == b.end() ? std::string() : it->second;
        if (v != w) out.push_back({k, v, w});
    }
    for (const auto &[k, w] : b)
        if (!a.count(k)) out.push_back({k, "", w});
    return out;
}

namespace {

// A family or pair "started failing": it ran the night before without a
// failure (flaky and expected failures aside) and fails now; "recovered" the
// other way round.
void failing_changes(const std::map<std::string, Tally> &before,
                     const std::map<std::string, Tally> &after, ChangePoint::Kind kind,
                     size_t night, std::vector<ChangePoint> &out) {
    for (const auto &[name, t] : after) {
        auto it = before.find(name);
        if (it == before.end() || it->second.ran() == 0 || t.ran() == 0) continue;
        const int was = it->second.fail, now = t.fail;
        if (was == 0 && now > 0)
            out.push_back({kind, night, name, fmt::format("0 -> {} of {} failing", now, t.ran())});
        else if (was > 0 && now == 0)
            out.push_back(
                {ChangePoint::Kind::recovered, night, name, fmt::format("{} -> 0 failing", was)});
    }
}

std::map<std::string, Tally> pairs_by_name(const RunSummary &s) {
    std::map<std::string, Tally> out;
    for (const auto &[p, t] : s.pairs)
        out[fmt::format("{}>{}", p.first, p.second)] = t;
    return out;
}

void slower_changes(const RunSummary &before, const RunSummary &after, double threshold_pct,
                    size_t night, std::vector<ChangePoint> &out) {
    for (const auto &[p, f] : after.best_copy) {
        auto it = before.best_copy.find(p);
        if (it == before.best_copy.end()) continue;
        const report::CopyFigure &was = it->second;
        if (was.simulated || f.simulated || was.clock != f.clock || was.gbps <= 0) continue;
        const double pct = (f.gbps - was.gbps) / was.gbps * 100.0;
        if (pct < -threshold_pct)
            out.push_back({ChangePoint::Kind::slower, night,
                           fmt::format("{}>{}", p.first, p.second),
                           fmt::format("{:.2f} -> {:.2f} GB/s ({:+.0f}%, threshold {:g}%)",
                                       was.gbps, f.gbps, pct, threshold_pct)});
    }
}

} // namespace

std::vector<ChangePoint> find_change_points(const std::vector<Night> &nights,
                                            double threshold_pct) {
    std::vector<ChangePoint> out;
    for (size_t i = 1; i < nights.size(); ++i) {
        const RunSummary &a = nights[i - 1].summary, &b = nights[i].summary;
        failing_changes(a.families, b.families, ChangePoint::Kind::family_failing, i, out);
        failing_changes(pairs_by_name(a), pairs_by_name(b), ChangePoint::Kind::pair_failing, i,
                        out);
        slower_changes(a, b, threshold_pct, i, out);
    }
    return out;
}

std::variant<Trend, std::string> load_trend(const std::vector<std::string> &args,
                                            double threshold_pct) {
    auto dirs = night_dirs(args);
    if (auto *e = std::get_if<std::string>(&dirs)) return *e;
    Trend t;
    t.threshold_pct = threshold_pct;
    for (const auto &d : std::get<std::vector<std::string>>(dirs)) {
        auto r = read_run(d);
        if (auto *e = std::get_if<std::string>(&r)) return *e;
        const RunResults &run = std::get<RunResults>(r);
        Night n;
        n.dir = d;
        n.label = fs::path(d).lexically_normal().filename().string();
        if (n.label.empty()) n.label = fs::path(d).lexically_normal().parent_path().filename();
        n.summary = summarize(run);
        if (run.metadata.is_object()) {
            n.fingerprint = run.metadata.value("fingerprint", json());
            if (run.metadata.value("on_simulator", false)) {
                n.machine = run.metadata.value("machine", "");
                n.faults = fs::path(run.metadata.value("faults", "")).filename().string();
            }
        }
        t.devices = std::max(t.devices, n.summary.devices);
        t.nights.push_back(std::move(n));
    }
    t.differs.resize(t.nights.size());
    for (size_t i = 1; i < t.nights.size(); ++i)
        t.differs[i] = night_differences(t.nights[i - 1], t.nights[i]);
    t.changes = find_change_points(t.nights, threshold_pct);
    return t;
}

} // namespace harness::lab
