#include "report/timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace harness::report {

Timing time_by_family(const std::vector<InstanceRecord> &records, const std::string &by) {
    std::map<std::pair<std::string, std::string>, FamilyTime> rows;
    Timing t;
    for (const auto &r : records) {
        std::string group;
        if (!by.empty()) {
            group = "-";
            for (const auto &[k, v] : r.params)
                if (k == by) group = v;
        }
        FamilyTime &f = rows[{r.suite + "/" + r.kase, group}];
        ++f.instances;
        f.seconds += r.duration_s;
        for (const StepTime &s : r.step_times) {
            StepTotal &st = f.steps[s.step];
            st.ms += s.ms;
            ++st.runs;
        }
        ++t.instances;
        t.seconds += r.duration_s;
    }
    for (auto &[key, f] : rows) {
        f.family = key.first;
        f.group = key.second;
        t.rows.push_back(std::move(f));
    }
    std::stable_sort(t.rows.begin(), t.rows.end(), [](const FamilyTime &a, const FamilyTime &b) {
        return a.seconds > b.seconds;
    });
    return t;
}

std::string render_timing(const Timing &t, const std::string &by, size_t top,
                          const StepNamer &name) {
    std::string out =
        fmt::format("instance time {:.1f} s over {} instances, by case family{}, largest first\n",
                    t.seconds, t.instances, by.empty() ? "" : " and " + by);
    out += fmt::format("{:>6} {:>9} {:>9} {:>9}  {}\n", "share", "seconds", "instances", "mean ms",
                       "family");
    const size_t n = top == 0 ? t.rows.size() : std::min(top, t.rows.size());
    for (size_t i = 0; i < n; ++i) {
        const FamilyTime &f = t.rows[i];
        const double share = t.seconds > 0 ? 100.0 * f.seconds / t.seconds : 0.0;
        const double mean_ms = f.instances ? 1000.0 * f.seconds / f.instances : 0.0;
        out +=
            fmt::format("{:>5.1f}% {:>9.1f} {:>9} {:>9.3f}  {}{}\n", share, f.seconds, f.instances,
                        mean_ms, f.family, by.empty() ? "" : fmt::format(" ({}={})", by, f.group));
        double in_steps_ms = 0;
        for (const auto &[step, s] : f.steps) {
            const std::string kind = name ? name(f.family, step) : "";
            out +=
                fmt::format("{:>26} step {:>2} {:<22} {:>9.1f} s, {:.3f} ms each\n", "", step,
                            kind.empty() ? "?" : kind, s.ms / 1000.0, s.runs ? s.ms / s.runs : 0.0);
            in_steps_ms += s.ms;
        }
        // The rest of an instance's time is the runner's own work inside it:
        // the kernel-log check and the result, and with one process per
        // instance the child's start. (A batch's reset between two instances
        // belongs to neither.)
        if (!f.steps.empty())
            out += fmt::format("{:>26} {:<30} {:>9.1f} s\n", "", "outside the steps",
                               f.seconds - in_steps_ms / 1000.0);
    }
    if (n < t.rows.size())
        out += fmt::format("({} more rows: --top 0 lists all)\n", t.rows.size() - n);
    return out;
}

} // namespace harness::report
