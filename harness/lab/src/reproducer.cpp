#include "lab/reproducer.hpp"

#include "lab/process.hpp"
#include "lab/results.hpp"

#include <cstdint>
#include <vector>

namespace harness::lab {

std::string reproducer_command(const nlohmann::json &metadata, const std::string &instance) {
    std::vector<std::string> args{"peer-harness", "run"};
    if (!metadata.is_object()) return shell_join({"peer-harness", "run", exact_spec(instance)});
    const std::string machine = metadata.value("machine", "");
    if (metadata.value("on_simulator", false) && !machine.empty()) {
        args.insert(args.end(), {"--machine", machine});
        if (const std::string f = metadata.value("faults", ""); !f.empty())
            args.insert(args.end(), {"--faults", f});
    } else if (const std::string m = metadata.value("manifest", ""); !m.empty()) {
        args.insert(args.end(), {"--expect", m});
    }
    for (const auto &c : metadata.value("cases", nlohmann::json::array()))
        if (c.is_string()) args.insert(args.end(), {"--cases", c.get<std::string>()});
    // Quick depth picks instances by a covering array of this seed: the same
    // depth and seed name the same instance.
    if (const std::string d = metadata.value("depth", "quick"); d != "quick")
        args.insert(args.end(), {"--depth", d});
    if (const uint64_t seed = metadata.value("seed", uint64_t{1}); seed != 1)
        args.insert(args.end(), {"--seed", std::to_string(seed)});
    args.push_back(exact_spec(instance));
    return shell_join(args);
}

} // namespace harness::lab
