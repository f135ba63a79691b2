#include "report/summary.hpp"

#include <fmt/format.h>

namespace harness::report {

int Counts::total() const {
    int t = 0;
    for (int c : by_status)
        t += c;
    return t;
}

int Counts::failures() const {
    return total() - of(Status::pass) - of(Status::skip) - of(Status::dmesg_warn);
}

Summary summarise(const std::vector<InstanceRecord> &records) {
    Summary s;
    for (const auto &r : records) {
        auto &fam = s.families[r.suite + "/" + r.kase];
        fam.by_status[static_cast<size_t>(r.status)]++;
        s.total.by_status[static_cast<size_t>(r.status)]++;
        if (!is_success(r.status)) s.failed.push_back(&r);
        if (r.status == Status::skip) s.skip_reasons[r.reason]++;
    }
    return s;
}

std::string render_summary(const Summary &s, double wall_s) {
    std::string out;
    size_t width = 6;
    for (const auto &[name, c] : s.families)
        width = std::max(width, name.size());
    out += fmt::format("{:<{}}  {:>5} {:>5} {:>5} {:>5} {:>7} {:>10}\n", "family", width, "pass",
                       "fail", "skip", "crash", "timeout", "incomplete");
    auto line = [&](const std::string &name, const Counts &c) {
        return fmt::format("{:<{}}  {:>5} {:>5} {:>5} {:>5} {:>7} {:>10}\n", name, width,
                           c.of(Status::pass), c.of(Status::fail), c.of(Status::skip),
                           c.of(Status::crash), c.of(Status::timeout), c.of(Status::incomplete));
    };
    for (const auto &[name, c] : s.families)
        out += line(name, c);
    out += line("total", s.total);
    if (!s.failed.empty()) {
        out += fmt::format("\n{} instance(s) did not pass:\n", s.failed.size());
        for (const auto *r : s.failed) {
            out += fmt::format("  {:<10} {}\n", status_name(r->status), r->name);
            std::string why = r->reason;
            if (!r->failures.empty())
                why = fmt::format("{}:{}: {}", r->failures.front().file, r->failures.front().line,
                                  r->failures.front().message);
            if (!why.empty()) out += fmt::format("             {}\n", why);
        }
    }
    if (!s.skip_reasons.empty()) {
        out += "\nskipped, with reasons:\n";
        for (const auto &[reason, n] : s.skip_reasons)
            out += fmt::format("  {:>4} x {}\n", n, reason);
    }
    out += fmt::format("\n{} instances: {} passed, {} failed, {} skipped", s.total.total(),
                       s.total.of(Status::pass), s.total.failures(), s.total.of(Status::skip));
    if (wall_s >= 0) out += fmt::format(", wall time {:.1f} s", wall_s);
    out += "\n";
    return out;
}

} // namespace harness::report
