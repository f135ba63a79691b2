// The comparison half of `peer-harness differential` (differential.hpp):
// pure functions over two runs' records.
#include "runner/differential.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

namespace harness::runner {

using report::InstanceRecord;
using report::Status;

namespace {

constexpr const char *kNotComparable = "not comparable: ";

bool crashed(const InstanceRecord &r) {
    return r.status == Status::crash || r.status == Status::timeout;
}

// One runtime's view of one instance, step by step.
struct Side {
    std::map<int, std::string> answers;
    int failed_at = 0;  // the step whose check failed (0: none)
    int crashed_in = 0; // the step during which the process died
    std::string failure;

    Side(const InstanceRecord &r, const Trace &trace) {
        for (const auto &a : r.answers)
            answers[a.step] = a.answer;
        if (!r.failures.empty()) {
            failed_at = r.failures.front().step;
            failure = r.failures.front().message;
        }
        if (!crashed(r)) return;
        for (const auto &a : trace.answers)
            answers[a.step] = a.answer;
        if (trace.crashed_in > 0) {
            crashed_in = trace.crashed_in;
            answers[crashed_in] = "crash (" + r.reason + ")";
        }
    }
    std::string answer(int step) const {
        auto it = answers.find(step);
        return it == answers.end() ? "" : it->second;
    }
    bool failed(int step) const { return failed_at == step || crashed_in == step; }
    // The answer as the table shows it: a failed check says so.
    std::string shown(int step) const {
        std::string a = answer(step);
        if (failed_at == step && !failure.empty()) a += " (failed: " + failure + ")";
        return a;
    }
};

const DocumentedDifference *documented(std::span<const DocumentedDifference> rules,
                                       const InstanceRecord &h, const StepInfo &info,
                                       const std::string &ha, const std::string &ra,
                                       const cases::Topology *topology) {
    const std::string family = h.suite + "/" + h.kase;
    for (const auto &r : rules) {
        if (*r.step_kind && info.kind != r.step_kind) continue;
        if (*r.harness && ha != r.harness) continue;
        const bool rocm_ok =
            std::string(r.rocm) == "crash" ? ra.rfind("crash", 0) == 0 : ra == r.rocm;
        if (!rocm_ok) continue;
        if (*r.case_pattern && family.find(r.case_pattern) == std::string::npos) continue;
        if (r.applies && !r.applies(DiffContext{topology, &h})) continue;
        return &r;
    }
    return nullptr;
}

void not_comparable(DiffSummary &d, const std::string &reason, size_t n = 1) {
    if (n == 0) return;
    d.not_comparable += n;
    d.not_comparable_reasons[reason] += n;
}

void compare_instance(DiffSummary &d, const InstanceRecord &h, const Side &hs, const Side &rs,
                      const StepLookup &steps, const cases::Topology *topology,
                      std::span<const DocumentedDifference> rules) {
    std::set<int> all;
    for (const auto &[k, v] : hs.answers)
        all.insert(k);
    for (const auto &[k, v] : rs.answers)
        all.insert(k);
    for (auto it = all.begin(); it != all.end(); ++it) {
        const int step = *it;
        const std::string ha = hs.answer(step), ra = rs.answer(step);
        if (ha.rfind(kNotComparable, 0) == 0 || ra.rfind(kNotComparable, 0) == 0) {
            not_comparable(d, (ha.rfind(kNotComparable, 0) == 0 ? ha : ra).substr(16));
            continue;
        }
        if (ha.empty() || ra.empty()) {
            not_comparable(d,
                           std::string("not reached by ") + (ha.empty() ? "the harness" : "ROCm"));
            continue;
        }
        ++d.compared;
        const bool hf = hs.failed(step), rf = rs.failed(step);
        if (ha == ra && hf == rf) {
            if (!hf) continue;
            ++d.both_failed; // the same answer and both checks failed: a fault both see
            d.both_failed_instances.push_back(h.name);
            not_comparable(d, "follows a step that failed in both runtimes",
                           static_cast<size_t>(std::distance(std::next(it), all.end())));
            return;
        }
        DiffRow row;
        row.instance = h.name;
        row.step = step;
        row.info = steps(h.suite, h.kase, step);
        row.harness = hs.shown(step);
        row.rocm = rs.shown(step);
        if (const auto *rule = documented(rules, h, row.info, ha, ra, topology)) {
            row.documented = true;
            row.contract = rule->contract;
        }
        d.rows.push_back(std::move(row));
        not_comparable(d, "follows a difference in its instance",
                       static_cast<size_t>(std::distance(std::next(it), all.end())));
        return;
    }
}

} // namespace

size_t DiffSummary::documented() const {
    return static_cast<size_t>(
        std::count_if(rows.begin(), rows.end(), [](const DiffRow &r) { return r.documented; }));
}
size_t DiffSummary::unexplained() const {
    return rows.size() - documented();
}

std::string differential_key(const std::string &instance) {
    static const std::regex path("/path=[^/]*");
    return std::regex_replace(instance, path, "");
}

Trace trace_of(const std::string &log_text) {
    static const std::regex begun(R"(^step (\d+)$)"), answered(R"(^answer (\d+): (.*)$)");
    Trace t;
    int last_begun = 0, last_answered = 0;
    size_t at = 0;
    while (at < log_text.size()) {
        size_t end = log_text.find('\n', at);
        if (end == std::string::npos) end = log_text.size();
        const std::string line = log_text.substr(at, end - at);
        std::smatch m;
        if (std::regex_match(line, m, begun)) last_begun = std::stoi(m[1]);
        if (std::regex_match(line, m, answered)) {
            last_answered = std::stoi(m[1]);
            t.answers.push_back({last_answered, m[2]});
        }
        at = end + 1;
    }
    t.crashed_in = last_begun > last_answered ? last_begun : 0;
    return t;
}

DiffSummary compare_runs(const std::vector<InstanceRecord> &harness,
                         const std::vector<InstanceRecord> &rocm, const StepLookup &steps,
                         const std::function<Trace(const InstanceRecord &)> &trace,
                         const cases::Topology *topology,
                         std::span<const DocumentedDifference> rules) {
    std::map<std::string, const InstanceRecord *> theirs;
    for (const auto &r : rocm)
        if (r.status != Status::skip || !theirs.count(differential_key(r.name)))
            theirs[differential_key(r.name)] = &r;
    std::vector<const InstanceRecord *> ours;
    for (const auto &h : harness)
        ours.push_back(&h);
    std::sort(ours.begin(), ours.end(),
              [](const auto *a, const auto *b) { return a->index < b->index; });
    DiffSummary d;
    for (const InstanceRecord *h : ours) {
        if (h->status == Status::skip) continue; // nothing ran on this machine
        auto it = theirs.find(differential_key(h->name));
        const size_t n = std::max<size_t>(h->answers.size(), 1);
        if (it == theirs.end()) {
            not_comparable(d, "ROCm's run has no such instance", n);
            continue;
        }
        const InstanceRecord &r = *it->second;
        if (r.status == Status::skip) {
            not_comparable(d, "ROCm's run skipped it: " + r.reason, n);
            continue;
        }
        compare_instance(d, *h, Side(*h, trace(*h)), Side(r, trace(r)), steps, topology, rules);
    }
    return d;
}

std::string render_differential(const DiffSummary &d) {
    std::string out;
    for (const bool doc : {false, true}) {
        for (const auto &r : d.rows) {
            if (r.documented != doc) continue;
            out += fmt::format("{:<12} {}\n", doc ? "documented" : "UNEXPLAINED", r.instance);
            out += fmt::format("             step {} {}{}\n", r.step,
                               r.info.kind.empty() ? "?" : r.info.kind,
                               r.info.where.empty() ? "" : " (" + r.info.where + ")");
            out += fmt::format("             harness: {}\n             ROCm:    {}\n", r.harness,
                               r.rocm);
            if (doc) out += fmt::format("             CONTRACT.md §4: \"{}\"\n", r.contract);
        }
    }
    if (d.both_failed)
        out += fmt::format("seen by both runtimes: {} step(s) failed alike (first: {})\n",
                           d.both_failed, d.both_failed_instances.front());
    if (!d.not_comparable_reasons.empty()) {
        out += "not comparable, by reason:\n";
        for (const auto &[reason, n] : d.not_comparable_reasons)
            out += fmt::format("  {:>6} x {}\n", n, reason);
    }
    out += fmt::format("{} steps compared, {} documented differences, {} unexplained, {} not "
                       "comparable\n",
                       d.compared, d.documented(), d.unexplained(), d.not_comparable);
    return out;
}

} // namespace harness::runner
