#include "runner/settings.hpp"

#include "report/tokens.hpp"

#include <cstdlib>
#include <cstring>

namespace harness::runner {

nlohmann::json settings_to_json(const RunSettings &s) {
    return {{"version", report::tokens::kMetadataVersion},
            {"cases", s.case_paths},
            {"depth", cases::depth_name(s.depth)},
            {"seed", s.seed},
            {"timeout_s", s.timeout_s},
            {"jobs", s.jobs},
            {"allow_disruptive", s.allow_disruptive},
            {"on_simulator", s.on_simulator},
            {"machine", s.machine},
            {"sync", s.sync},
            {"catch_args", s.catch_args},
            {"skip_patterns", s.skip_patterns},
            {"shard", {s.shard_index, s.shard_count}}};
}

bool in_shard(size_t position, int index, int count) {
    if (count <= 1) return true;
    return static_cast<int>(position % static_cast<size_t>(count)) == index - 1;
}

std::optional<RunSettings> settings_from_json(const nlohmann::json &j, std::string &error) {
    try {
        if (j.at("version").get<int>() != report::tokens::kMetadataVersion) {
            error = "metadata version " + j.at("version").dump() + ", expected " +
                    std::to_string(report::tokens::kMetadataVersion);
            return std::nullopt;
        }
        RunSettings s;
        s.case_paths = j.at("cases").get<std::vector<std::string>>();
        std::string depth = j.at("depth").get<std::string>();
        if (depth != "quick" && depth != "full") {
            error = "depth '" + depth + "', expected quick or full";
            return std::nullopt;
        }
        s.depth = depth == "quick" ? cases::Depth::quick : cases::Depth::full;
        s.seed = j.at("seed").get<uint64_t>();
        s.timeout_s = j.at("timeout_s").get<double>();
        s.jobs = j.value("jobs", 1);
        s.allow_disruptive = j.at("allow_disruptive").get<bool>();
        s.on_simulator = j.at("on_simulator").get<bool>();
        s.machine = j.at("machine").get<std::string>();
        s.sync = j.at("sync").get<bool>();
        s.catch_args = j.at("catch_args").get<std::vector<std::string>>();
        // Optional: metadata written before the lab workflow existed has neither.
        if (j.contains("skip_patterns"))
            s.skip_patterns =
                j["skip_patterns"].get<std::vector<std::pair<std::string, std::string>>>();
        if (j.contains("shard")) {
            s.shard_index = j["shard"].at(0).get<int>();
            s.shard_count = j["shard"].at(1).get<int>();
        }
        return s;
    } catch (const nlohmann::json::exception &e) {
        error = std::string("malformed metadata: ") + e.what();
        return std::nullopt;
    }
}

bool running_on_simulator() {
    if (std::getenv("PEER_HARNESS_SIMULATOR")) return true;
    const char *pre = std::getenv("LD_PRELOAD");
    return pre && std::strstr(pre, "amdgpu-sim") != nullptr;
}

} // namespace harness::runner
