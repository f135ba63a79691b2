#include "runner/applicability.hpp"

#include "manifest/rules.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <optional>

namespace harness::runner {

namespace {

using manifest::Manifest;

// A fault's `devices` and `pair` scopes as GPU indexes of the manifest
// (fixtures/faults/README.md, "Scopes"); -1 in a pair end is `any`.
struct Scope {
    std::vector<int> devices;
    bool has_pair = false;
    int first = -1, second = -1;
    std::string missing; // a GPU name the machine does not have
};

int gpu_index(const Manifest &m, const std::string &name) {
    for (size_t i = 0; i < m.gpus.size(); ++i)
        if (m.gpus[i].name == name) return static_cast<int>(i);
    return -1;
}

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

Scope scope_of(const Manifest &m, const YAML::Node &f) {
    Scope s;
    auto resolve = [&](const std::string &name) {
        if (name == "any") return -1;
        const int g = gpu_index(m, name);
        if (g < 0 && s.missing.empty()) s.missing = name;
        return g;
    };
    if (const YAML::Node d = f["devices"]; d && d.IsSequence())
        for (const auto &n : d)
            s.devices.push_back(resolve(n.as<std::string>("")));
    if (const YAML::Node p = f["pair"]; p && p.IsScalar()) {
        const std::string text = p.Scalar();
        const auto arrow = text.find("->");
        if (arrow != std::string::npos) {
            s.has_pair = true;
            s.first = resolve(trim(text.substr(0, arrow)));
            s.second = resolve(trim(text.substr(arrow + 2)));
        }
    }
    return s;
}

using PairTest = std::function<bool(int first, int second)>;

// Some ordered pair of two different GPUs inside the scope passes `test`;
// `first` is the end the `devices` scope names (the exporter, the owner).
bool any_pair(const Manifest &m, const Scope &s, const PairTest &test) {
    const int n = static_cast<int>(m.gpus.size());
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            if (!s.devices.empty() &&
                std::find(s.devices.begin(), s.devices.end(), a) == s.devices.end())
                continue;
            if (s.has_pair && ((s.first >= 0 && s.first != a) || (s.second >= 0 && s.second != b)))
                continue;
            if (test(a, b)) return true;
        }
    return false;
}

bool accessible(const Manifest &m, int owner, int accessor) {
    return manifest::same_hive(m, owner, accessor) ||
           manifest::pcie_peer_accessible(m, owner, accessor);
}

// Which ordered pairs may access each other, as the KFD topology publishes it.
std::vector<bool> access_matrix(const Manifest &m) {
    const cases::Topology t = manifest::expected_topology(m);
    const int n = static_cast<int>(m.gpus.size());
    std::vector<bool> out;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            out.push_back(a != b && t.can_access(a, b));
    return out;
}

// K10 / K11: the peer rule with one input forgotten or changed; the scenario
// can be seen only where that changes some pair's answer.
std::optional<Manifest> topology_variant(const Manifest &m, const std::string &kind,
                                         const YAML::Node &f) {
    Manifest v = m;
    if (kind == "peer_access_false_positive") {
        const std::string in = f["ignored_input"].as<std::string>("");
        for (size_t i = 0; i < v.gpus.size(); ++i) {
            manifest::Gpu &g = v.gpus[i];
            // Large BAR without moving the BAR's end (the DMA-mask check
            // still sees the real aperture).
            if (in == "large_bar" && g.visible_vram_bytes) g.vram_bytes = g.visible_vram_bytes;
            if (in == "large_bar" && !g.visible_vram_bytes) g.visible_vram_bytes = g.vram_bytes;
            if (in == "dma_mask") g.dma_mask_bits = 64;
            if (in == "iommu_mode") g.iommu_remapping = true;
            for (size_t j = 0; in == "p2pdma_distance" && j < i; ++j)
                v.pcie_p2p.emplace_back(static_cast<int>(j), static_cast<int>(i));
        }
        if (in == "pcie_p2p") v.kernel.param_pcie_p2p = true;
        if (in == "iommu_mode") v.kernel.iommu_remap_lifts_dma_mask_from = {0, 0};
        return v;
    }
    if (kind == "peer_access_false_negative") {
        const std::string cause = f["cause"].as<std::string>("");
        const int bits = f["dma_mask_bits"].as<int>(44);
        for (manifest::Gpu &g : v.gpus) {
            if (cause == "iommu_remap_ignored") g.iommu_remapping = false;
            if (cause == "narrow_dma_mask_bits")
                g.dma_mask_bits = std::min(g.dma_mask_bits > 0 ? g.dma_mask_bits : 48, bits);
        }
        return v;
    }
    return std::nullopt;
}

// The register-BAR rule of the other side of the all-BARs change.
Manifest other_side_of_all_bars(const Manifest &m) {
    Manifest v = m;
    const auto [bm, bn] = m.kernel.all_bars_peer_check_from;
    v.kernel.all_bars_peer_check_from =
        m.kernel.at_least(bm, bn) ? std::pair{999, 0} : std::pair{0, 0};
    return v;
}

std::string no_import_leaves_vram() {
    return "no import moves a VRAM buffer to GTT here: every importer reaches its exporter's "
           "VRAM directly (amdgpu_dma_buf_attach)";
}

std::string no_refused_pair() {
    return "no pair that kfd_mem_attach refuses: every GPU may map every other's VRAM";
}

// Why the kinds that act on imports, dependencies and resets cannot fire,
// or "" when they can.
std::string drm_reason(const Manifest &m, const std::string &kind, const YAML::Node &f,
                       const Scope &s) {
    using manifest::Placement;
    auto placement_is = [&](Placement p) {
        return [&m, p](int exporter, int importer) {
            return manifest::expected_import_placement(m, exporter, importer) == p;
        };
    };
    auto any = [](int, int) { return true; };
    if (kind == "move_notify_misordered")
        return any_pair(m, s, placement_is(Placement::gtt)) ? "" : no_import_leaves_vram();
    if (kind == "dmabuf_wrong_placement") {
        if (f["decision"].as<std::string>("force_gtt") == "force_gtt")
            return any_pair(m, s, placement_is(Placement::vram))
                       ? ""
                       : "no import stays in VRAM here (no XGMI or PCIe P2P pair), so none can "
                         "be forced to GTT";
        return any_pair(m, s, placement_is(Placement::gtt)) ? "" : no_import_leaves_vram();
    }
    if (kind == "dmabuf_lifetime_sg" || kind == "cross_device_dependency_ignored")
        return any_pair(m, s, any) ? "" : "no two GPUs in its scope: nothing crosses devices";
    if (kind == "hive_reset_inconsistency" && f["mode"].as<std::string>("") == "double_reset")
        return any_pair(m, s, [&](int a, int b) { return manifest::same_hive(m, a, b); })
                   ? ""
                   : "no XGMI hive of two or more GPUs in its scope";
    return "";
}

// The KFD topology and kfd_mem_attach kinds.
std::string kfd_reason(const Manifest &m, const std::string &kind, const YAML::Node &f,
                       const Scope &s) {
    if (auto v = topology_variant(m, kind, f))
        return access_matrix(*v) != access_matrix(m)
                   ? ""
                   : "the faulty rule gives every pair the answer the faithful one gives here "
                     "(the KFD topology stays as it is)";
    if (kind == "peer_access_asymmetric")
        return any_pair(m, s,
                        [&](int owner, int accessor) {
                            return !manifest::same_hive(m, owner, accessor) &&
                                   manifest::pcie_peer_accessible(m, owner, accessor);
                        })
                   ? ""
                   : "the pair has no PCIe p2p link to lose";
    if (kind == "topology_sysfs_malformed" && f["mode"].as<std::string>("") == "zero_xgmi_sdma") {
        for (size_t g = 0; g < m.gpus.size(); ++g) {
            const bool scoped = s.devices.empty() ||
                                std::count(s.devices.begin(), s.devices.end(), static_cast<int>(g));
            if (scoped && m.gpus[g].sdma_xgmi_engines != 0) return "";
        }
        return "no GPU in its scope has XGMI SDMA engines to report as 0";
    }
    const std::string decision = f["decision"].as<std::string>("");
    auto refused = [&](int owner, int mapper) { return !accessible(m, owner, mapper); };
    if (kind == "kfd_mem_attach_wrong" && decision == "refuse_legal")
        return any_pair(m, s, [&](int o, int p) { return accessible(m, o, p); })
                   ? ""
                   : "no pair that kfd_mem_attach accepts";
    if ((kind == "kfd_mem_attach_wrong" && decision == "allow_illegal") ||
        kind == "kfd_map_partial_reported_full")
        return any_pair(m, s, refused) ? "" : no_refused_pair();
    if (kind == "kfd_mem_attach_wrong" && decision == "bar_kind_confusion") {
        const Manifest other = other_side_of_all_bars(m);
        return any_pair(m, s,
                        [&](int o, int p) {
                            return manifest::register_bar_peer_accessible(m, o, p) !=
                                   manifest::register_bar_peer_accessible(other, o, p);
                        })
                   ? ""
                   : "the register-BAR rule answers every pair alike on both sides of the "
                     "all-BARs change";
    }
    return "";
}

std::string fault_reason(const Manifest &m, const YAML::Node &f) {
    const std::string kind = f["kind"].as<std::string>("");
    const Scope s = scope_of(m, f);
    if (!s.missing.empty()) return "it names " + s.missing + ", which this machine does not have";
    if (std::string r = drm_reason(m, kind, f, s); !r.empty()) return r;
    return kfd_reason(m, kind, f, s);
}

} // namespace

Applicability scenario_applicability_of(const Manifest &m, const std::string &yaml) {
    Applicability out;
    try {
        const YAML::Node faults = YAML::Load(yaml)["faults"];
        if (!faults || !faults.IsSequence() || faults.size() == 0) return out;
        for (const auto &f : faults) {
            const std::string why = fault_reason(m, f);
            if (why.empty()) return out;
            if (out.reason.empty()) out.reason = why;
        }
        out.applicable = false;
    } catch (const YAML::Exception &) {
        return Applicability{}; // the run reports the file
    }
    return out;
}

Applicability scenario_applicability(const Manifest &m, const std::string &path) {
    try {
        YAML::Node root = YAML::LoadFile(path);
        return scenario_applicability_of(m, YAML::Dump(root));
    } catch (const YAML::Exception &) {
        return Applicability{};
    }
}

} // namespace harness::runner
