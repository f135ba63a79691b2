#include "runner/settings.hpp"

#include "report/tokens.hpp"

#include <cstdio>

namespace harness::runner {

nlohmann::json settings_to_json(const RunSettings &s) {
    return {{"version", report::tokens::kMetadataVersion},
            {"cases", s.case_paths},
            {"depth", cases::depth_name(s.depth)},
            {"seed", s.seed},
            {"timeout_s", s.timeout_s},
            {"jobs", s.jobs},
            {"isolation", s.isolation},
            {"batch_size", s.batch_size},
            {"max_failures", s.max_failures},
            {"allow_disruptive", s.allow_disruptive},
            {"on_simulator", s.on_simulator},
            {"machine", s.machine},
            {"sync", s.sync},
            {"manifest", s.manifest},
            {"faults", s.faults},
            {"catch_args", s.catch_args},
            {"skip_patterns", s.skip_patterns},
            {"shard", {s.shard_index, s.shard_count}},
            {"runtime", runtime_name(s.runtime)},
            {"record_answers", s.record_answers},
            {"devices", s.devices}};
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
        // Runs recorded before batches existed ran one process per instance.
        s.isolation = j.value("isolation", std::string("process"));
        s.batch_size = j.value("batch_size", 1);
        s.max_failures = j.value("max_failures", 0);
        s.allow_disruptive = j.at("allow_disruptive").get<bool>();
        s.on_simulator = j.at("on_simulator").get<bool>();
        s.machine = j.at("machine").get<std::string>();
        s.sync = j.at("sync").get<bool>();
        s.manifest = j.value("manifest", "");
        s.faults = j.value("faults", "");
        s.catch_args = j.at("catch_args").get<std::vector<std::string>>();
        // Optional: metadata written before the lab workflow existed has neither.
        if (j.contains("skip_patterns"))
            s.skip_patterns =
                j["skip_patterns"].get<std::vector<std::pair<std::string, std::string>>>();
        if (j.contains("shard")) {
            s.shard_index = j["shard"].at(0).get<int>();
            s.shard_count = j["shard"].at(1).get<int>();
        }
        // Optional: runs recorded before differential runs used the harness.
        const std::string runtime = j.value("runtime", std::string("harness"));
        if (runtime != "harness" && runtime != "rocm") {
            error = "runtime '" + runtime + "', expected harness or rocm";
            return std::nullopt;
        }
        s.runtime = runtime == "rocm" ? RuntimeKind::rocm : RuntimeKind::harness;
        s.record_answers = j.value("record_answers", false);
        s.devices = j.value("devices", std::vector<int>{});
        return s;
    } catch (const nlohmann::json::exception &e) {
        error = std::string("malformed metadata: ") + e.what();
        return std::nullopt;
    }
}

bool running_on_simulator() {
    // Asked of the kernel interface this process really reaches, never of its
    // environment: a real kernel has no amdgpu_sim module and sysfs cannot be
    // written by anyone, so a lab machine cannot pass this check however
    // PEER_HARNESS_SIMULATOR or LD_PRELOAD are set. A simulator that failed
    // to start hides the file too (fixtures/amdgpu-sim fails closed).
    FILE *f = std::fopen(kSimulatorIdentification, "re");
    if (!f) return false;
    char name[256] = {};
    bool named = std::fgets(name, sizeof name, f) != nullptr && name[0] != '\n';
    std::fclose(f);
    return named;
}

} // namespace harness::runner
