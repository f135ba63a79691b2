#include "runner/results_dir.hpp"

#include "report/tokens.hpp"
#include "runner/topology_probe.hpp"

#include <filesystem>
#include <fstream>

namespace harness::runner {

namespace fs = std::filesystem;
namespace tokens = report::tokens;

std::string start_results_dir(const RunSettings &s, const cases::Topology &t,
                              const std::vector<cases::Instance> &instances) {
    std::error_code ec;
    fs::path dir(s.results_dir);
    if (fs::exists(dir / tokens::kJournalFile, ec)) {
        if (!s.overwrite)
            return "results directory " + s.results_dir +
                   " already holds a run: use --resume to continue it or --overwrite to replace it";
        for (const char *f : {tokens::kJournalFile, tokens::kMetadataFile, tokens::kInstancesFile,
                              tokens::kJunitFile, tokens::kSummaryFile, tokens::kCsvFile,
                              tokens::kBandwidthCsvFile})
            fs::remove(dir / f, ec);
        fs::remove_all(dir / tokens::kLogsDir, ec);
    }
    fs::create_directories(dir / tokens::kLogsDir, ec);
    if (ec) return "cannot create " + (dir / tokens::kLogsDir).string() + ": " + ec.message();
    nlohmann::json meta = settings_to_json(s);
    meta["topology"] = topology_to_json(t);
    if (!s.fingerprint.is_null()) meta["fingerprint"] = s.fingerprint;
    {
        std::ofstream m(dir / tokens::kMetadataFile);
        m << meta.dump(2) << "\n";
        if (!m) return "cannot write " + (dir / tokens::kMetadataFile).string();
    }
    std::ofstream l(dir / tokens::kInstancesFile);
    for (const auto &in : instances)
        l << in.name << "\n";
    if (!l) return "cannot write " + (dir / tokens::kInstancesFile).string();
    return {};
}

std::variant<SavedRun, std::string> read_results_dir(const std::string &dir) {
    fs::path d(dir);
    std::ifstream m(d / tokens::kMetadataFile);
    if (!m) return "cannot resume: " + (d / tokens::kMetadataFile).string() + " not found";
    auto j = nlohmann::json::parse(m, nullptr, false);
    if (j.is_discarded()) return (d / tokens::kMetadataFile).string() + ": not valid JSON";
    std::string err;
    auto s = settings_from_json(j, err);
    if (!s) return (d / tokens::kMetadataFile).string() + ": " + err;
    if (!j.contains("topology")) return (d / tokens::kMetadataFile).string() + ": no topology";
    auto t = topology_from_json(j["topology"]);
    if (auto *e = std::get_if<std::string>(&t))
        return (d / tokens::kMetadataFile).string() + ": " + *e;
    SavedRun run{*s, std::get<cases::Topology>(t), {}};
    run.settings.results_dir = dir;
    std::ifstream l(d / tokens::kInstancesFile);
    std::string line;
    while (std::getline(l, line))
        if (!line.empty()) run.instance_names.push_back(line);
    return run;
}

} // namespace harness::runner
