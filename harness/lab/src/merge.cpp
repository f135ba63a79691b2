#include "lab/merge.hpp"

#include "lab/commands.hpp"
#include "lab/html.hpp"
#include "report/journal.hpp"
#include "report/tokens.hpp"
#include "runner/run.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The settings that must agree between shards: everything but the shard and
// the results directory, plus what the fingerprint says about the inputs.
json identity(const json &meta) {
    json j = meta;
    j.erase("shard");
    j.erase("fingerprint");
    json fp = meta.value("fingerprint", json::object());
    j["cases_hash"] = fp.value("cases_hash", json());
    j["topology_hash"] = fp.value("topology_hash", json());
    return j;
}

} // namespace

std::vector<std::string> check_shards(const std::vector<RunResults> &shards) {
    std::vector<std::string> errs;
    if (shards.empty()) return {"no shard directories given"};
    std::map<int, std::string> seen;
    int count = -1;
    for (const auto &s : shards) {
        if (!s.metadata.is_object() || !s.metadata.contains("shard")) {
            errs.push_back(s.dir + ": metadata.json has no shard (not a peer-harness run?)");
            continue;
        }
        int i = s.metadata["shard"].at(0).get<int>(), n = s.metadata["shard"].at(1).get<int>();
        if (count < 0) count = n;
        if (n != count)
            errs.push_back(
                fmt::format("{}: shard {}/{}, the others are of {}", s.dir, i, n, count));
        if (auto [it, fresh] = seen.emplace(i, s.dir); !fresh)
            errs.push_back(fmt::format("{}: shard {} again (also {})", s.dir, i, it->second));
        if (identity(s.metadata) != identity(shards.front().metadata))
            errs.push_back(s.dir + ": settings, cases or topology differ from " +
                           shards.front().dir + " (shards of another run?)");
    }
    for (int i = 1; i <= count; ++i)
        if (!seen.count(i)) errs.push_back(fmt::format("shard {}/{} is missing", i, count));
    return errs;
}

std::string write_merged(const std::vector<RunResults> &shards, const std::string &out) {
    std::error_code ec;
    const fs::path o(out);
    if (fs::exists(o / report::tokens::kJournalFile, ec))
        return out + " already holds a run; merge into a new directory";
    fs::create_directories(o / report::tokens::kLogsDir, ec);
    if (ec) return "cannot create " + out + ": " + ec.message();
    json meta = shards.front().metadata;
    meta["shard"] = {1, 1};
    json from = json::array();
    for (const auto &s : shards)
        from.push_back(s.dir);
    meta["merged_from"] = from;
    std::ofstream(o / report::tokens::kMetadataFile) << meta.dump(2) << "\n";
    fs::copy_file(fs::path(shards.front().dir) / report::tokens::kInstancesFile,
                  o / report::tokens::kInstancesFile, fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot copy instances.txt: " + ec.message();

    std::map<std::string, report::InstanceRecord> all;
    for (const auto &s : shards) {
        for (const auto &r : s.records) {
            if (all.count(r.name))
                return fmt::format("{} is in more than one shard ({})", r.name, s.dir);
            all[r.name] = r;
        }
        // Log files are named by instance index, so shards never collide.
        for (auto it = fs::directory_iterator(fs::path(s.dir) / report::tokens::kLogsDir, ec);
             !ec && it != fs::directory_iterator(); it.increment(ec))
            fs::copy_file(it->path(), o / report::tokens::kLogsDir / it->path().filename(),
                          fs::copy_options::overwrite_existing, ec);
    }
    std::vector<report::InstanceRecord> recs;
    for (auto &[name, r] : all)
        recs.push_back(std::move(r));
    std::sort(recs.begin(), recs.end(), [](const auto &a, const auto &b) {
        return a.index != b.index ? a.index < b.index : a.name < b.name;
    });
    auto w = report::JournalWriter::open((o / report::tokens::kJournalFile).string(), false);
    if (auto *e = std::get_if<std::string>(&w)) return *e;
    auto &journal = std::get<report::JournalWriter>(w);
    for (const auto &r : recs) {
        if (r.status == report::Status::incomplete) {
            // Stays a start without an end, as in the shard's journal.
            if (auto e = journal.start(r.index, r.name); !e.empty()) return e;
            continue;
        }
        if (r.status != report::Status::skip)
            if (auto e = journal.start(r.index, r.name); !e.empty()) return e;
        if (auto e = journal.end(r); !e.empty()) return e;
    }
    // The lab's verdicts, when the shards were judged against a baseline.
    json verdicts = json::array();
    json lab;
    for (const auto &s : shards) {
        std::ifstream in(fs::path(s.dir) / files::kLabJson);
        if (!in) continue;
        auto j = json::parse(in, nullptr, false);
        if (j.is_discarded()) continue;
        if (lab.is_null()) lab = j;
        for (const auto &v : j.value("verdicts", json::array()))
            verdicts.push_back(v);
    }
    if (!lab.is_null()) {
        std::sort(verdicts.begin(), verdicts.end(),
                  [](const json &a, const json &b) { return a["name"] < b["name"]; });
        lab["verdicts"] = verdicts;
        std::ofstream(o / files::kLabJson) << lab.dump(1) << "\n";
        std::string csv;
        for (const auto &v : verdicts)
            csv += v.value("name", "") + "," + v.value("verdict", "") + "\n";
        std::ofstream(o / files::kBaselineCsv) << csv;
    }
    return {};
}

std::vector<std::string> record_differences(const std::vector<report::InstanceRecord> &a,
                                            const std::vector<report::InstanceRecord> &b) {
    auto key = [](const report::InstanceRecord &r) {
        json j = report::to_json(r);
        j.erase("duration_s");
        j.erase("step_ms");
        j.erase("log");
        // Measured times differ between any two runs; what was copied, on
        // which clock and link, must not.
        if (j.contains("copies"))
            for (auto &c : j["copies"]) {
                c.erase("ns");
                c.erase("gbps");
            }
        return j;
    };
    std::map<std::string, json> ma, mb;
    for (const auto &r : a)
        ma[r.name] = key(r);
    for (const auto &r : b)
        mb[r.name] = key(r);
    std::vector<std::string> out;
    for (const auto &[n, j] : ma) {
        auto it = mb.find(n);
        if (it == mb.end())
            out.push_back("only in the first: " + n);
        else if (it->second != j)
            out.push_back("differs: " + n + ": " + j.dump() + " vs " + it->second.dump());
    }
    for (const auto &[n, j] : mb)
        if (!ma.count(n)) out.push_back("only in the second: " + n);
    return out;
}

int merge_command(const std::string &out, const std::vector<std::string> &dirs) {
    std::vector<RunResults> shards;
    for (const auto &d : dirs) {
        auto r = read_run(d);
        if (auto *e = std::get_if<std::string>(&r)) {
            std::cerr << "peer-harness: " << *e << "\n";
            return 2;
        }
        shards.push_back(std::get<RunResults>(std::move(r)));
    }
    auto errs = check_shards(shards);
    for (const auto &e : errs)
        std::cerr << "peer-harness: merge: " << e << "\n";
    if (!errs.empty()) return 2;
    if (auto e = write_merged(shards, out); !e.empty()) {
        std::cerr << "peer-harness: merge: " << e << "\n";
        return 2;
    }
    // Re-derives junit.xml, results.csv and summary.txt from the merged journal.
    const int rc = runner::summary_command(out);
    if (auto e = write_html_report(out); !e.empty()) std::cerr << "peer-harness: " << e << "\n";
    std::cerr << "merged " << shards.size() << " shard(s) into " << out << "\n";
    return rc == 2 ? 2 : 0;
}

} // namespace harness::lab
