#include "lab/baseline.hpp"

#include "report/csv.hpp"
#include "report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace harness::lab {

namespace fs = std::filesystem;
using report::InstanceRecord;
using report::Status;

std::string status_word(Status s) {
    return report::csv_status(s);
}

bool known_status_word(const std::string &w) {
    for (size_t i = 0; i < report::kStatusCount; ++i)
        if (w == report::csv_status(static_cast<Status>(i))) return true;
    return false;
}

namespace {

std::string trim(const std::string &s, size_t &lead) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) {
        lead = s.size();
        return {};
    }
    size_t e = s.find_last_not_of(" \t\r");
    lead = b;
    return s.substr(b, e - b + 1);
}

} // namespace

void parse_expectation_text(const std::string &text, const std::string &file,
                            const std::string &kind, LoadedExpectations &into) {
    std::istringstream in(text);
    std::string raw;
    int lineno = 0;
    while (std::getline(in, raw)) {
        ++lineno;
        size_t lead = 0;
        std::string line = trim(raw, lead);
        if (line.empty() || line[0] == '#') continue;
        const std::string where = fmt::format("{}:{}", file, lineno);
        if (kind == "fails") {
            size_t comma = line.rfind(',');
            if (comma == std::string::npos || comma == 0) {
                into.errors.push_back(
                    fmt::format("{}:{}: expected 'name,Status'", where, lead + 1));
                continue;
            }
            std::string name = line.substr(0, comma), word = line.substr(comma + 1);
            if (!known_status_word(word)) {
                into.errors.push_back(fmt::format(
                    "{}:{}: expected a status word of results.csv (Fail, Crash, Timeout, ...), "
                    "got '{}'",
                    where, lead + comma + 2, word));
                continue;
            }
            if (word == "Pass" || word == "Skip") {
                into.errors.push_back(fmt::format(
                    "{}:{}: expected a failing status; '{}' is not an expectation of failure",
                    where, lead + comma + 2, word));
                continue;
            }
            into.exp.fails[name] = word;
            into.exp.fails_where[name] = where;
        } else {
            try {
                Pattern p{line, where, std::regex(line, std::regex::ECMAScript)};
                (kind == "flakes" ? into.exp.flakes : into.exp.skips).push_back(std::move(p));
            } catch (const std::regex_error &e) {
                into.errors.push_back(fmt::format("{}:{}: expected a regular expression: {}", where,
                                                  lead + 1, e.what()));
            }
        }
    }
}

LoadedExpectations load_expectations(const std::string &dir, const std::string &machine_type) {
    LoadedExpectations out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        out.errors.push_back(dir + ":1:1: expected a directory of expectation files");
        return out;
    }
    for (const char *kind : {"fails", "flakes", "skips"}) {
        fs::path p = fs::path(dir) / fmt::format("{}-{}.txt", machine_type, kind);
        if (!fs::exists(p, ec)) continue;
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        parse_expectation_text(ss.str(), p.string(), kind, out);
        out.exp.files.push_back(p.string());
    }
    return out;
}

const Pattern *match(const std::vector<Pattern> &ps, const std::string &name) {
    for (const auto &p : ps)
        if (std::regex_match(name, p.re)) return &p;
    return nullptr;
}

const char *verdict_name(Verdict v) {
    switch (v) {
    case Verdict::pass:
        return "Pass";
    case Verdict::skip:
        return "Skip";
    case Verdict::expected_fail:
        return "ExpectedFail";
    case Verdict::unexpected_pass:
        return "UnexpectedPass";
    case Verdict::flake:
        return "Flake";
    case Verdict::regression:
        return "Regression";
    }
    return "?";
}

bool gates(Verdict v) {
    return v == Verdict::regression;
}

std::vector<Judged> judge(const std::vector<InstanceRecord> &records, const Expectations &exp,
                          int retries, const RetryExecutor &rerun) {
    std::vector<Judged> out;
    std::vector<size_t> to_retry;
    for (const auto &r : records) {
        Judged j{r.name, r.status, status_word(r.status), Verdict::pass, {}, {}};
        auto f = exp.fails.find(r.name);
        if (r.status == Status::skip) {
            j.verdict = Verdict::skip;
        } else if (report::is_success(r.status)) {
            if (f != exp.fails.end()) {
                j.verdict = Verdict::unexpected_pass;
                j.why = fmt::format("expected {} ({})", f->second, exp.fails_where.at(r.name));
            }
        } else if (f != exp.fails.end() && f->second == j.status_word) {
            j.verdict = Verdict::expected_fail;
            j.why = exp.fails_where.at(r.name);
        } else if (const Pattern *p = match(exp.flakes, r.name)) {
            j.verdict = Verdict::flake;
            j.why = fmt::format("known flake /{}/ ({})", p->text, p->where);
        } else {
            j.verdict = Verdict::regression;
            if (f != exp.fails.end())
                j.why = fmt::format("expected {} ({}), got {}", f->second,
                                    exp.fails_where.at(r.name), j.status_word);
            to_retry.push_back(out.size());
        }
        out.push_back(std::move(j));
    }
    // deqp-runner's flake detection: re-run what failed unexpectedly; a pass
    // on any attempt shows the result depends on chance, not on the code.
    for (int attempt = 1; attempt <= retries && !to_retry.empty(); ++attempt) {
        std::vector<std::string> names;
        for (size_t i : to_retry)
            names.push_back(out[i].name);
        auto got = rerun(names, attempt);
        std::vector<size_t> still;
        for (size_t i : to_retry) {
            auto it = got.find(out[i].name);
            Status st = it == got.end() ? Status::incomplete : it->second;
            out[i].retries.push_back(st);
            if (report::is_success(st) && st != Status::skip) {
                out[i].verdict = Verdict::flake;
                out[i].why =
                    fmt::format("failed ({}), passed on retry {}", out[i].status_word, attempt);
            } else {
                still.push_back(i);
            }
        }
        to_retry = std::move(still);
    }
    return out;
}

int regressions(const std::vector<Judged> &j) {
    return static_cast<int>(
        std::count_if(j.begin(), j.end(), [](const Judged &x) { return gates(x.verdict); }));
}

std::string render_fails_file(const std::vector<InstanceRecord> &records,
                              const std::vector<Judged> *judged, const std::string &header) {
    std::set<std::string> flakes;
    if (judged)
        for (const auto &j : *judged)
            if (j.verdict == Verdict::flake) flakes.insert(j.name);
    std::vector<std::string> lines;
    for (const auto &r : records)
        if (!report::is_success(r.status) && !flakes.count(r.name))
            lines.push_back(r.name + "," + status_word(r.status));
    std::sort(lines.begin(), lines.end());
    std::string out;
    std::istringstream h(header);
    std::string l;
    while (std::getline(h, l))
        out += "# " + l + "\n";
    for (const auto &x : lines)
        out += x + "\n";
    return out;
}

std::string render_judged_csv(const std::vector<Judged> &js) {
    std::vector<std::string> lines;
    for (const auto &j : js) {
        // A regression keeps its raw status word (Fail, Crash, ...), as in deqp-runner.
        const std::string word =
            j.verdict == Verdict::regression ? j.status_word : verdict_name(j.verdict);
        lines.push_back(j.name + "," + word);
    }
    std::sort(lines.begin(), lines.end());
    std::string out;
    for (const auto &l : lines)
        out += l + "\n";
    return out;
}

std::string render_judged_summary(const std::vector<Judged> &js) {
    std::map<Verdict, int> n;
    for (const auto &j : js)
        ++n[j.verdict];
    std::string out = fmt::format(
        "baseline: {} pass, {} skip, {} expected-fail, {} flake, {} unexpected-pass, {} "
        "regression(s)\n",
        n[Verdict::pass], n[Verdict::skip], n[Verdict::expected_fail], n[Verdict::flake],
        n[Verdict::unexpected_pass], n[Verdict::regression]);
    for (const auto &j : js)
        if (j.verdict != Verdict::pass && j.verdict != Verdict::skip)
            out += fmt::format("  {:<14} {}{}\n",
                               j.verdict == Verdict::regression ? j.status_word
                                                                : verdict_name(j.verdict),
                               j.name, j.why.empty() ? "" : "  (" + j.why + ")");
    return out;
}

} // namespace harness::lab
