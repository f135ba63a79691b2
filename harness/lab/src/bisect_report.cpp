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

int bisect_report_command(const BisectReportOptions &o) {
    std::ifstream lf(o.log_file);
    if (!lf) {
        std::cerr << "peer-harness: cannot read " << o.log_file << "\n";
        return 2;
    }
    std::stringstream ls;
    ls << lf.rdbuf();
    const std::string log_text = ls.str();
    BisectLog log = parse_bisect_log(log_text);
    if (log.first_bad.empty()) {
        std::cerr << "peer-harness: " << o.log_file
                  << ": no '# first bad commit:' line (bisection not finished?)\n";
        return 2;
    }
    auto bad = load_step(o.steps_dir, log.first_bad);
    if (!bad) {
        std::cerr << "peer-harness: no step results for " << log.first_bad << " in " << o.steps_dir
                  << "\n";
        return 2;
    }
    const std::vector<std::string> command =
        bad->record.value("command", std::vector<std::string>{});

    std::optional<Shrunk> shrunk;
    std::string shrink_note;
    if (o.shrink && !bad->failing.empty()) {
        std::string head;
        {
            FILE *f = ::popen(("git -C '" + o.repo + "' rev-parse HEAD 2>/dev/null").c_str(), "r");
            char buf[128] = {};
            if (f && std::fgets(buf, sizeof buf, f)) head = buf;
            if (f) ::pclose(f);
            while (!head.empty() && (head.back() == '\n'))
                head.pop_back();
        }
        if (head != log.first_bad) {
            shrink_note = "not shrunk: " + o.repo + " is not checked out at the first bad commit";
        } else {
            const fs::path work = fs::path(o.steps_dir) / "shrink";
            fs::create_directories(work);
            // Start from the cheapest failing instance of the first bad commit.
            auto start = *std::min_element(bad->failing.begin(), bad->failing.end(),
                                           [](const auto &a, const auto &b) {
                                               return shrink_cost(a.name) < shrink_cost(b.name);
                                           });
            Shrunk s{start.name, start.name, 0, 0, 0, command, {}};
            report::InstanceRecord to_rec = start; // s.to's failing record
            // Two stages, each one run of all its candidates; the cheapest
            // that fails wins: (1) the same case and pair with a smaller size
            // or smaller offsets, (2) the same size on another (lower) pair.
            const std::vector<std::string> all = list_instances(command, work / "list.txt");
            auto param = [](const std::string &n, const char *k) {
                for (const auto &[pk, pv] : params_of(n))
                    if (pk == k) return pv;
                return std::string();
            };
            auto same_other_axes = [](const std::string &a, const std::string &b) {
                auto rest = [](const std::string &n) {
                    std::vector<std::pair<std::string, std::string>> r;
                    for (const auto &[k, v] : params_of(n))
                        if (k != "pair" && k != "size" && k != "bytes" &&
                            k.find("offset") == std::string::npos)
                            r.emplace_back(k, v);
                    return r;
                };
                return rest(a) == rest(b);
            };
            for (int stage = 1; stage <= 2; ++stage) {
                std::vector<std::string> cands;
                for (const auto &n : all) {
                    if (family_of(n) != family_of(s.to) || !(shrink_cost(n) < shrink_cost(s.to)))
                        continue;
                    // Only size, offsets and pair shrink; every other axis
                    // (peer mode, kernel path, ...) stays the failing one's.
                    if (!same_other_axes(n, s.to)) continue;
                    const bool same_pair = param(n, "pair") == param(s.to, "pair");
                    const bool same_size = shrink_cost(n)[0] == shrink_cost(s.to)[0];
                    if (stage == 1 ? same_pair : (!same_pair && same_size)) cands.push_back(n);
                }
                std::sort(cands.begin(), cands.end(), [](const auto &a, const auto &b) {
                    return shrink_cost(a) < shrink_cost(b);
                });
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
            // (3) fewer steps: the case without each step that does not
            // change the failure, run from a generated case file.
            std::vector<std::string> case_paths = bad->cases;
            for (size_t i = 0; case_paths.empty() && i + 1 < command.size(); ++i)
                if (command[i] == "--cases") case_paths.push_back(command[i + 1]);
            s.steps =
                shrink_steps(command, case_paths, to_rec, work.string(),
                             [&](const std::vector<std::string> &cmd,
                                 const std::string &dir) -> std::optional<report::InstanceRecord> {
                                 auto got = rerun(cmd, {s.to}, dir);
                                 if (!got.count(s.to)) return std::nullopt;
                                 return got[s.to];
                             });
            if (!s.steps.case_file.empty()) s.command = with_cases(command, s.steps.case_file);
            // Confirm (KernelCI confirms a culprit 3 times): the reproducer
            // must fail every time it is re-run.
            for (int i = 0; i < o.confirmations; ++i) {
                auto got = rerun(s.command, {s.to}, work / fmt::format("confirm-{}", i + 1));
                ++s.confirmations;
                if (got.count(s.to) && !report::is_success(got[s.to].status))
                    ++s.confirmations_failed;
            }
            shrunk = s;
        }
    }

    // Markdown
    std::string md = fmt::format("# Bisection report\n\n**First bad commit:** `{}` {}\n\n",
                                 log.first_bad, log.first_bad_subject);
    md += "## Steps\n\n| commit | git verdict | bisect-run exit | reason |\n|---|---|---|---|\n";
    std::string html_steps;
    for (const auto &[word, commit] : log.steps) {
        auto st = load_step(o.steps_dir, commit);
        const std::string reason = st ? st->record.value("reason", "") : "no step results";
        const std::string ex = st ? std::to_string(st->record.value("exit", -1)) : "-";
        md += fmt::format("| `{}` | {} | {} | {} |\n", commit.substr(0, 12), word, ex, reason);
        html_steps += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>"
                                  "</tr>",
                                  commit.substr(0, 12), word, ex, html_escape(reason));
    }
    md += fmt::format("\n## Failing instances at `{}` ({})\n\n", log.first_bad.substr(0, 12),
                      bad->failing.size());
    std::string html_fail;
    for (const auto &f : bad->failing) {
        md += fmt::format("- `{}`: {} — {}\n", f.name, report::status_name(f.status), f.reason);
        html_fail += fmt::format("<li><code>{}</code>: {} &mdash; {}</li>", html_escape(f.name),
                                 report::status_name(f.status), html_escape(f.reason));
    }
    const RuntimeVerdicts runtimes =
        runtime_verdicts(fs::path(o.steps_dir) / log.first_bad, bad->failing);
    md += runtime_verdicts_markdown(runtimes);
    std::string repro;
    if (shrunk) {
        std::vector<std::string> args = shrunk->command;
        args = without_test_specs(args);
        args.insert(args.end(), {"--results", "repro-results", exact_spec(shrunk->to)});
        repro = shell_join(args);
        const StepShrink &st = shrunk->steps;
        const std::string removed =
            st.removed > 0 ? fmt::format(" and {} of {} steps removed", st.removed, st.total) : "";
        const std::string file =
            st.case_file.empty()
                ? ""
                : fmt::format(" The reproducer runs `{}`: the case with only its remaining "
                              "steps.",
                              st.case_file);
        md += fmt::format("\n## Smallest failing instance\n\n`{}`\n\nshrunk from `{}` over {} "
                          "smaller instance(s) of the same case (sizes, offsets, pairs){}; it "
                          "failed {} of {} confirmation re-runs.{}\n\n### Reproduce\n\n"
                          "At commit `{}`:\n\n```sh\n{}\n```\n",
                          shrunk->to, shrunk->from, shrunk->tried, removed,
                          shrunk->confirmations_failed, shrunk->confirmations, file, log.first_bad,
                          repro);
    } else {
        md += "\n## Smallest failing instance\n\n" +
              (shrink_note.empty() ? std::string("not shrunk") : shrink_note) + "\n";
    }
    md += "\n## Fingerprint (first bad commit's run)\n\n```\n" +
          render_fingerprint_text(bad->fingerprint) + "```\n\n## git bisect log\n\n```\n" +
          log_text + "```\n";

    std::string html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Bisection "
                       "report</title><style>body{font-family:sans-serif;margin:1em 2em}td,th{"
                       "border:1px solid #999;padding:2px 6px}table{border-collapse:collapse}"
                       "</style></head><body><h1>Bisection report</h1>";
    html += fmt::format("<p id=\"first-bad\"><b>First bad commit:</b> <code>{}</code> {}</p>",
                        log.first_bad, html_escape(log.first_bad_subject));
    html += "<h2>Steps</h2><table><tr><th>commit</th><th>git verdict</th><th>exit</th><th>"
            "reason</th></tr>" +
            html_steps + "</table>";
    html += "<h2>Failing instances</h2><ul id=\"failing\">" + html_fail + "</ul>";
    html += runtime_verdicts_html(runtimes);
    if (shrunk) {
        const StepShrink &st = shrunk->steps;
        html += fmt::format(
            "<h2>Smallest failing instance</h2><p id=\"shrunk\"><code>{}</code> "
            "(from <code>{}</code>, {} candidates{}; failed {}/{} re-runs)</p>",
            html_escape(shrunk->to), html_escape(shrunk->from), shrunk->tried,
            st.removed > 0 ? fmt::format(", {} of {} steps removed", st.removed, st.total) : "",
            shrunk->confirmations_failed, shrunk->confirmations);
        if (!st.case_file.empty())
            html += fmt::format("<p id=\"steps-file\">Case file with the remaining steps: "
                                "<code>{}</code></p>",
                                html_escape(st.case_file));
        html += fmt::format("<h3>Reproduce at {}</h3><pre id=\"repro\">{}</pre>",
                            log.first_bad.substr(0, 12), html_escape(repro));
    } else
        html += "<h2>Smallest failing instance</h2><p>" + html_escape(shrink_note) + "</p>";
    html += "<h2>Fingerprint</h2><pre>" + html_escape(render_fingerprint_text(bad->fingerprint)) +
            "</pre><h2>git bisect log</h2><pre>" + html_escape(log_text) + "</pre></body></html>\n";
    std::ofstream(o.out_prefix + ".md") << md;
    std::ofstream(o.out_prefix + ".html") << html;
    std::cout << md;
    return 0;
}

} // namespace harness::lab
