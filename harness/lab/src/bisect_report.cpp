#include "lab/bisect.hpp"
#include "lab/bisect_differential.hpp"
#include "lab/fingerprint.hpp"
#include "lab/html.hpp"
#include "lab/process.hpp"
#include "lab/results.hpp"
#include "lab/shrink_steps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// "4Mi+1" -> 4194305; "64Ki-1"; plain numbers. -1 when not a size.
double parse_size(const std::string &v) {
    size_t i = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])))
        ++i;
    if (i == 0) return -1;
    double n = std::stod(v.substr(0, i));
    std::string rest = v.substr(i);
    for (auto [suffix, mul] : {std::pair{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}})
        if (rest.rfind(suffix, 0) == 0) {
            n *= mul;
            rest = rest.substr(2);
            break;
        }
    if (!rest.empty()) n += std::stod(rest); // "+1", "-1"
    return n;
}

std::vector<std::pair<std::string, std::string>> params_of(const std::string &name) {
    std::vector<std::pair<std::string, std::string>> out;
    std::stringstream ss(name);
    std::string seg;
    while (std::getline(ss, seg, '/'))
        if (auto eq = seg.find('='); eq != std::string::npos)
            out.emplace_back(seg.substr(0, eq), seg.substr(eq + 1));
    return out;
}

std::string family_of(const std::string &name) {
    size_t a = name.find('/');
    size_t b = a == std::string::npos ? a : name.find('/', a + 1);
    return name.substr(0, b);
}

struct Step {
    json record; // bisect-step.json
    std::vector<report::InstanceRecord> failing;
    json fingerprint;
    std::vector<std::string> cases; // the run's case paths (metadata.json, absolute)
};

std::optional<Step> load_step(const std::string &steps_dir, const std::string &commit) {
    fs::path d = fs::path(steps_dir) / commit;
    std::ifstream in(d / "bisect-step.json");
    if (!in) return std::nullopt;
    Step s;
    s.record = json::parse(in, nullptr, false);
    auto r = read_run((d / "results").string());
    if (auto *run = std::get_if<RunResults>(&r)) {
        for (const auto &x : run->records)
            if (!report::is_success(x.status)) s.failing.push_back(x);
        s.fingerprint = run->metadata.value("fingerprint", json());
        if (run->metadata.is_object() && run->metadata.contains("cases"))
            s.cases = run->metadata["cases"].get<std::vector<std::string>>();
    }
    return s;
}

// The step's command without the Catch2 test specs it was given (bare words
// after `run`): a spec added to it would be OR-ed with them, and a re-run or
// reproducer must run exactly the instances it names. Options of `run`
// (harness/cli) and of Catch2 that take their value as the next word keep it.
std::vector<std::string> without_test_specs(const std::vector<std::string> &command) {
    static const std::set<std::string> valued = {
        "--cases", "--machine", "--depth", "--seed", "--expect", "--results", "--timeout", "--jobs",
        "-j", "--isolation", "--batch-size", "--max-failures", "--faults", "--baseline",
        "--machine-type", "--retries", "--shard",
        // Catch2 v2 options with a value
        "-r", "--reporter", "-o", "--out", "-d", "--durations", "-x", "--abortx", "-w", "--warn",
        "--order", "--rng-seed", "--use-colour", "-c", "--section", "--wait-for-keypress", "-v",
        "--verbosity"};
    auto run = std::find(command.begin(), command.end(), "run");
    if (run == command.end()) return command;
    std::vector<std::string> out(command.begin(), run + 1);
    for (auto it = run + 1; it != command.end(); ++it) {
        if (it->empty() || (*it)[0] != '-') continue; // a test spec
        out.push_back(*it);
        if (it->find('=') == std::string::npos && valued.count(*it) && it + 1 != command.end())
            out.push_back(*++it);
    }
    return out;
}

// Runs `specs` with the step's command into `dir`; the records by name.
std::map<std::string, report::InstanceRecord> rerun(const std::vector<std::string> &command,
                                                    const std::vector<std::string> &names,
                                                    const fs::path &dir) {
    std::vector<std::string> args = without_test_specs(command);
    std::string spec;
    for (const auto &n : names)
        spec += (spec.empty() ? "" : ",") + exact_spec(n);
    args.insert(args.end(), {"--results", dir.string(), "--overwrite", spec});
    run_process(args, dir.string() + ".log");
    std::map<std::string, report::InstanceRecord> out;
    auto r = read_run(dir.string());
    if (auto *run = std::get_if<RunResults>(&r))
        for (const auto &x : run->records)
            out[x.name] = x;
    return out;
}

// Every instance name the step's command would run (peer-harness list).
std::vector<std::string> list_instances(const std::vector<std::string> &command,
                                        const fs::path &out) {
    std::vector<std::string> args = command;
    auto it = std::find(args.begin(), args.end(), "run");
    if (it == args.end()) return {};
    *it = "list";
    // list takes no test specs or run-only options: keep case selection only.
    std::vector<std::string> keep(args.begin(), it + 1);
    for (auto a = it + 1; a != args.end(); ++a) {
        if ((*a == "--cases" || *a == "--depth" || *a == "--seed" || *a == "--machine") &&
            a + 1 != args.end()) {
            keep.push_back(*a);
            keep.push_back(*++a);
        }
    }
    std::error_code ec;
    fs::remove(out, ec);
    run_process(keep, out.string());
    std::vector<std::string> names;
    std::ifstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto sp = line.find("  ");
        if (line.find("SKIP:") != std::string::npos) continue;
        names.push_back(line.substr(0, sp));
    }
    return names;
}

struct Shrunk {
    std::string from, to;
    int tried = 0;
    int confirmations_failed = 0, confirmations = 0;
    std::vector<std::string> command;
    StepShrink steps; // stage 3
};

} // namespace

std::vector<double> shrink_cost(const std::string &instance) {
    double size = 0, offsets = 0, pair = 0;
    for (const auto &[k, v] : params_of(instance)) {
        if (k == "size" || k == "bytes") size = std::max(0.0, parse_size(v));
        if (k.find("offset") != std::string::npos) offsets += std::max(0.0, parse_size(v));
        if (k == "pair") {
            int a = 0, b = 0;
            char c = 0;
            std::istringstream in(v);
            if (in >> a >> c >> b) pair = a * 64 + b;
        }
    }
    return {size, offsets, pair};
}

namespace {

// The bisection as bisect-report reads it: the log, the first bad commit's
// step and the command that step ran.
struct Findings {
    std::string log_text;
    BisectLog log;
    Step bad;
    std::vector<std::string> command;
    struct Row {
        std::string word, commit, exit, reason;
    };
    std::vector<Row> steps; // every step of the log, as bisect-run recorded it
};

// 0 with `f` filled, else the exit code (2: bad input).
int read_findings(const BisectReportOptions &o, Findings &f) {
    std::ifstream lf(o.log_file);
    if (!lf) {
        std::cerr << "peer-harness: cannot read " << o.log_file << "\n";
        return 2;
    }
    std::stringstream ls;
    ls << lf.rdbuf();
    f.log_text = ls.str();
    f.log = parse_bisect_log(f.log_text);
    if (f.log.first_bad.empty()) {
        std::cerr << "peer-harness: " << o.log_file
                  << ": no '# first bad commit:' line (bisection not finished?)\n";
        return 2;
    }
    auto bad = load_step(o.steps_dir, f.log.first_bad);
    if (!bad) {
        std::cerr << "peer-harness: no step results for " << f.log.first_bad << " in "
                  << o.steps_dir << "\n";
        return 2;
    }
    f.bad = std::move(*bad);
    f.command = f.bad.record.value("command", std::vector<std::string>{});
    for (const auto &[word, commit] : f.log.steps) {
        auto st = load_step(o.steps_dir, commit);
        f.steps.push_back({word, commit, st ? std::to_string(st->record.value("exit", -1)) : "-",
                           st ? st->record.value("reason", "") : "no step results"});
    }
    return 0;
}

std::string param_of(const std::string &name, const char *key) {
    for (const auto &[k, v] : params_of(name))
        if (k == key) return v;
    return {};
}

// Whether a and b agree on every axis but pair, size and offsets (peer mode,
// kernel path, ...): only those three shrink.
bool same_other_axes(const std::string &a, const std::string &b) {
    auto rest = [](const std::string &n) {
        std::vector<std::pair<std::string, std::string>> r;
        for (const auto &[k, v] : params_of(n))
            if (k != "pair" && k != "size" && k != "bytes" && k.find("offset") == std::string::npos)
                r.emplace_back(k, v);
        return r;
    };
    return rest(a) == rest(b);
}

// Stages 1 and 2, each one run of all its candidates; the cheapest that
// fails wins: (1) the same case and pair with a smaller size or smaller
// offsets, (2) the same size on another (lower) pair.
void shrink_instance(const std::vector<std::string> &command, const fs::path &work, Shrunk &s,
                     report::InstanceRecord &to_rec) {
    const std::vector<std::string> all = list_instances(command, work / "list.txt");
    for (int stage = 1; stage <= 2; ++stage) {
        std::vector<std::string> cands;
        for (const auto &n : all) {
            if (family_of(n) != family_of(s.to) || !(shrink_cost(n) < shrink_cost(s.to))) continue;
            if (!same_other_axes(n, s.to)) continue;
            const bool same_pair = param_of(n, "pair") == param_of(s.to, "pair");
            const bool same_size = shrink_cost(n)[0] == shrink_cost(s.to)[0];
            if (stage == 1 ? same_pair : (!same_pair && same_size)) cands.push_back(n);
        }
        std::sort(cands.begin(), cands.end(),
                  [](const auto &a, const auto &b) { return shrink_cost(a) < shrink_cost(b); });
        s.tried += static_cast<int>(cands.size());
        if (cands.empty()) continue;
        auto got = rerun(command, cands, work / fmt::format("stage-{}", stage));
        for (const auto &c : cands)
            if (got.count(c) && !report::is_success(got[c].status)) {
                s.to = c;
                to_rec = got[c];
                break;
            }
    }
}

// Stage 3, fewer steps (the case without each step that does not change the
// failure, run from a generated case file), then the confirmations (KernelCI
// confirms a culprit 3 times): the reproducer must fail every time.
void shrink_steps_and_confirm(const BisectReportOptions &o, const Findings &f, const fs::path &work,
                              Shrunk &s, const report::InstanceRecord &to_rec) {
    std::vector<std::string> case_paths = f.bad.cases;
    for (size_t i = 0; case_paths.empty() && i + 1 < f.command.size(); ++i)
        if (f.command[i] == "--cases") case_paths.push_back(f.command[i + 1]);
    s.steps = shrink_steps(f.command, case_paths, to_rec, work.string(),
                           [&](const std::vector<std::string> &cmd,
                               const std::string &dir) -> std::optional<report::InstanceRecord> {
                               auto got = rerun(cmd, {s.to}, dir);
                               if (!got.count(s.to)) return std::nullopt;
                               return got[s.to];
                           });
    if (!s.steps.case_file.empty()) s.command = with_cases(f.command, s.steps.case_file);
    for (int i = 0; i < o.confirmations; ++i) {
        auto got = rerun(s.command, {s.to}, work / fmt::format("confirm-{}", i + 1));
        ++s.confirmations;
        if (got.count(s.to) && !report::is_success(got[s.to].status)) ++s.confirmations_failed;
    }
}

// The smallest failing instance, from the cheapest failing instance of the
// first bad commit; nullopt with `note` saying why not.
std::optional<Shrunk> shrink_failure(const BisectReportOptions &o, const Findings &f,
                                     std::string &note) {
    if (!o.shrink || f.bad.failing.empty()) return std::nullopt;
    if (git_head(o.repo) != f.log.first_bad) {
        note = "not shrunk: " + o.repo + " is not checked out at the first bad commit";
        return std::nullopt;
    }
    const fs::path work = fs::path(o.steps_dir) / "shrink";
    fs::create_directories(work);
    const auto start = *std::min_element(
        f.bad.failing.begin(), f.bad.failing.end(),
        [](const auto &a, const auto &b) { return shrink_cost(a.name) < shrink_cost(b.name); });
    Shrunk s{start.name, start.name, 0, 0, 0, f.command, {}};
    report::InstanceRecord to_rec = start; // s.to's failing record
    shrink_instance(f.command, work, s, to_rec);
    shrink_steps_and_confirm(o, f, work, s, to_rec);
    return s;
}

// The reproducer's command line.
std::string reproducer(const Shrunk &s) {
    std::vector<std::string> args = without_test_specs(s.command);
    args.insert(args.end(), {"--results", "repro-results", exact_spec(s.to)});
    return shell_join(args);
}

std::string markdown_steps(const Findings &f) {
    std::string md =
        "## Steps\n\n| commit | git verdict | bisect-run exit | reason |\n|---|---|---|---|\n";
    for (const auto &r : f.steps)
        md += fmt::format("| `{}` | {} | {} | {} |\n", r.commit.substr(0, 12), r.word, r.exit,
                          r.reason);
    return md;
}

std::string markdown_shrunk(const Findings &f, const std::optional<Shrunk> &shrunk,
                            const std::string &note) {
    if (!shrunk)
        return "\n## Smallest failing instance\n\n" +
               (note.empty() ? std::string("not shrunk") : note) + "\n";
    const StepShrink &st = shrunk->steps;
    const std::string removed =
        st.removed > 0 ? fmt::format(" and {} of {} steps removed", st.removed, st.total) : "";
    const std::string file = st.case_file.empty()
                                 ? ""
                                 : fmt::format(" The reproducer runs `{}`: the case with only its "
                                               "remaining steps.",
                                               st.case_file);
    return fmt::format("\n## Smallest failing instance\n\n`{}`\n\nshrunk from `{}` over {} "
                       "smaller instance(s) of the same case (sizes, offsets, pairs){}; it failed "
                       "{} of {} confirmation re-runs.{}\n\n### Reproduce\n\nAt commit `{}`:\n\n"
                       "```sh\n{}\n```\n",
                       shrunk->to, shrunk->from, shrunk->tried, removed,
                       shrunk->confirmations_failed, shrunk->confirmations, file, f.log.first_bad,
                       reproducer(*shrunk));
}

std::string markdown_report(const Findings &f, const RuntimeVerdicts &runtimes,
                            const std::optional<Shrunk> &shrunk, const std::string &note) {
    std::string md = fmt::format("# Bisection report\n\n**First bad commit:** `{}` {}\n\n",
                                 f.log.first_bad, f.log.first_bad_subject);
    md += markdown_steps(f);
    md += fmt::format("\n## Failing instances at `{}` ({})\n\n", f.log.first_bad.substr(0, 12),
                      f.bad.failing.size());
    for (const auto &x : f.bad.failing)
        md += fmt::format("- `{}`: {} — {}\n", x.name, report::status_name(x.status), x.reason);
    md += runtime_verdicts_markdown(runtimes);
    md += markdown_shrunk(f, shrunk, note);
    md += "\n## Fingerprint (first bad commit's run)\n\n```\n" +
          render_fingerprint_text(f.bad.fingerprint) + "```\n\n## git bisect log\n\n```\n" +
          f.log_text + "```\n";
    return md;
}

std::string html_shrunk(const Findings &f, const std::optional<Shrunk> &shrunk,
                        const std::string &note) {
    if (!shrunk) return "<h2>Smallest failing instance</h2><p>" + html_escape(note) + "</p>";
    const StepShrink &st = shrunk->steps;
    std::string html = fmt::format(
        "<h2>Smallest failing instance</h2><p id=\"shrunk\"><code>{}</code> "
        "(from <code>{}</code>, {} candidates{}; failed {}/{} re-runs)</p>",
        html_escape(shrunk->to), html_escape(shrunk->from), shrunk->tried,
        st.removed > 0 ? fmt::format(", {} of {} steps removed", st.removed, st.total) : "",
        shrunk->confirmations_failed, shrunk->confirmations);
    if (!st.case_file.empty())
        html += fmt::format("<p id=\"steps-file\">Case file with the remaining steps: "
                            "<code>{}</code></p>",
                            html_escape(st.case_file));
    return html + fmt::format("<h3>Reproduce at {}</h3><pre id=\"repro\">{}</pre>",
                              f.log.first_bad.substr(0, 12), html_escape(reproducer(*shrunk)));
}

std::string html_report(const Findings &f, const RuntimeVerdicts &runtimes,
                        const std::optional<Shrunk> &shrunk, const std::string &note) {
    std::string html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Bisection "
                       "report</title><style>body{font-family:sans-serif;margin:1em 2em}td,th{"
                       "border:1px solid #999;padding:2px 6px}table{border-collapse:collapse}"
                       "</style></head><body><h1>Bisection report</h1>";
    html += fmt::format("<p id=\"first-bad\"><b>First bad commit:</b> <code>{}</code> {}</p>",
                        f.log.first_bad, html_escape(f.log.first_bad_subject));
    html += "<h2>Steps</h2><table><tr><th>commit</th><th>git verdict</th><th>exit</th><th>"
            "reason</th></tr>";
    for (const auto &r : f.steps)
        html += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                            r.commit.substr(0, 12), r.word, r.exit, html_escape(r.reason));
    html += "</table><h2>Failing instances</h2><ul id=\"failing\">";
    for (const auto &x : f.bad.failing)
        html += fmt::format("<li><code>{}</code>: {} &mdash; {}</li>", html_escape(x.name),
                            report::status_name(x.status), html_escape(x.reason));
    html += "</ul>" + runtime_verdicts_html(runtimes) + html_shrunk(f, shrunk, note);
    html += "<h2>Fingerprint</h2><pre>" + html_escape(render_fingerprint_text(f.bad.fingerprint)) +
            "</pre><h2>git bisect log</h2><pre>" + html_escape(f.log_text) +
            "</pre></body></html>\n";
    return html;
}

} // namespace

int bisect_report_command(const BisectReportOptions &o) {
    Findings f;
    if (int rc = read_findings(o, f)) return rc;
    std::string note;
    const std::optional<Shrunk> shrunk = shrink_failure(o, f, note);
    const RuntimeVerdicts runtimes =
        runtime_verdicts(fs::path(o.steps_dir) / f.log.first_bad, f.bad.failing);
    const std::string md = markdown_report(f, runtimes, shrunk, note);
    std::ofstream(o.out_prefix + ".md") << md;
    std::ofstream(o.out_prefix + ".html") << html_report(f, runtimes, shrunk, note);
    std::cout << md;
    return 0;
}

} // namespace harness::lab
