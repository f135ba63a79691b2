#include "cases/topology.hpp"

namespace harness::cases {

const char *link_type_name(LinkType t) {
    switch (t) {
    case LinkType::none:
        return "none";
    case LinkType::self:
        return "self";
    case LinkType::xgmi:
        return "xgmi";
    case LinkType::pcie:
        return "pcie";
    }
    return "?";
}

Topology Topology::make(int n) {
    Topology t;
    t.device_count = n;
    t.link.assign(static_cast<size_t>(n * n), LinkType::none);
    t.direct.assign(static_cast<size_t>(n * n), false);
    t.small_bar.assign(static_cast<size_t>(n), false);
    t.cpu_link.assign(static_cast<size_t>(n), true);
    t.sdma_xgmi_engines.assign(static_cast<size_t>(n), -1);
    for (int i = 0; i < n; ++i) {
        t.link[static_cast<size_t>(i * n + i)] = LinkType::self;
        t.names.push_back("gpu" + std::to_string(i));
    }
    return t;
}

Topology Topology::xgmi_hive(int n) {
    Topology t = make(n);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b) t.set(a, b, LinkType::xgmi, true);
    return t;
}

void Topology::set(int a, int b, LinkType t, bool can) {
    link[static_cast<size_t>(a * device_count + b)] = t;
    direct[static_cast<size_t>(a * device_count + b)] = can;
}

std::optional<Topology> subset(const Topology &t, const std::vector<int> &keep) {
    const int n = static_cast<int>(keep.size());
    for (int i = 0; i < n; ++i) {
        if (keep[i] < 0 || keep[i] >= t.device_count) return std::nullopt;
        for (int j = 0; j < i; ++j)
            if (keep[j] == keep[i]) return std::nullopt;
    }
    Topology out = Topology::make(n);
    out.source = t.source;
    for (int i = 0; i < n; ++i) {
        const auto from = static_cast<size_t>(keep[i]);
        if (from < t.names.size()) out.names[i] = t.names[from];
        if (from < t.small_bar.size()) out.small_bar[i] = t.small_bar[from];
        if (from < t.cpu_link.size()) out.cpu_link[i] = t.cpu_link[from];
        if (from < t.sdma_xgmi_engines.size()) out.sdma_xgmi_engines[i] = t.sdma_xgmi_engines[from];
        for (int j = 0; j < n; ++j)
            if (i != j)
                out.set(i, j, t.link_type(keep[i], keep[j]), t.can_access(keep[i], keep[j]));
    }
    if (!t.import_vram.empty()) {
        out.import_vram.assign(static_cast<size_t>(n * n), false);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                out.import_vram[static_cast<size_t>(i * n + j)] =
                    t.import_vram[static_cast<size_t>(keep[i] * t.device_count + keep[j])];
    }
    if (t.knows_register_bar()) {
        out.register_bar.assign(static_cast<size_t>(n * n), false);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                out.register_bar[static_cast<size_t>(i * n + j)] =
                    t.register_bar[static_cast<size_t>(keep[i] * t.device_count + keep[j])];
    }
    return out;
}

namespace {

struct PairRule {
    const char *name;
    const char *meaning;
    bool (*keep)(const Topology &, int, int);
};

// One row per pair selector: its meaning (for skip reasons) and its rule.
const PairRule kPairRules[] = {
    {"all_pairs", "every ordered pair, self included",
     [](const Topology &, int, int) { return true; }},
    {"distinct_pairs", "every ordered pair of two different devices",
     [](const Topology &, int a, int b) { return a != b; }},
    {"self_pairs", "a device paired with itself",
     [](const Topology &, int a, int b) { return a == b; }},
    {"peer_capable", "pairs (a, b) where a can directly access b's memory",
     [](const Topology &t, int a, int b) { return t.can_access(a, b); }},
    {"incapable", "pairs of different devices where a cannot directly access b's memory",
     [](const Topology &t, int a, int b) { return a != b && !t.can_access(a, b); }},
    {"xgmi", "pairs linked by XGMI (same hive)",
     [](const Topology &t, int a, int b) { return a != b && t.link_type(a, b) == LinkType::xgmi; }},
    {"pcie", "pairs of different devices not linked by XGMI (traffic crosses PCIe)",
     [](const Topology &t, int a, int b) { return a != b && t.link_type(a, b) != LinkType::xgmi; }},
    {"pcie_p2p", "pairs where a reaches b's memory directly over PCIe (large BAR, P2P allowed)",
     [](const Topology &t, int a, int b) {
         return t.can_access(a, b) && t.link_type(a, b) != LinkType::xgmi;
     }},
    {"asymmetric", "pairs where a can access b but b cannot access a",
     [](const Topology &t, int a, int b) { return t.can_access(a, b) && !t.can_access(b, a); }},
    {"register_bar_capable",
     "pairs where a may map b's doorbell or MMIO page through KFD (machine manifest only)",
     [](const Topology &t, int a, int b) { return t.can_map_registers(a, b); }},
    {"register_bar_incapable",
     "pairs of different devices where a must not map b's doorbell or MMIO page through KFD "
     "(machine manifest only)",
     [](const Topology &t, int a, int b) {
         return a != b && t.knows_register_bar() && !t.can_map_registers(a, b);
     }},
    {"import_in_vram",
     "pairs of different devices where a dma-buf of a's VRAM imported by b stays in VRAM "
     "(machine manifest only)",
     [](const Topology &t, int a, int b) { return t.import_stays_in_vram(a, b); }},
    {"beyond_bar",
     "pairs of different devices not linked by XGMI where b has a small BAR (part of b's VRAM "
     "is beyond what a can reach over PCIe)",
     [](const Topology &t, int a, int b) {
         return a != b && t.link_type(a, b) != LinkType::xgmi &&
                t.small_bar[static_cast<size_t>(b)];
     }},
};

} // namespace

std::optional<std::vector<DeviceTuple>> select(const Topology &t, const std::string &selector) {
    std::vector<DeviceTuple> out;
    const int n = t.device_count;
    if (selector == "all_devices") {
        for (int a = 0; a < n; ++a)
            out.push_back({a, -1, -1});
        return out;
    }
    if (selector == "peer_capable_with_third") {
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                for (int c = 0; c < n; ++c)
                    if (t.can_access(a, b) && c != a && c != b) out.push_back({a, b, c});
        return out;
    }
    for (const auto &r : kPairRules) {
        if (selector != r.name) continue;
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (r.keep(t, a, b)) out.push_back({a, b, -1});
        return out;
    }
    return std::nullopt;
}

std::string describe_selector(const std::string &selector) {
    if (selector == "all_devices") return "every device";
    if (selector == "peer_capable_with_third")
        return "a peer-capable pair (a, b) and a third device c";
    for (const auto &r : kPairRules) {
        if (selector == r.name) return r.meaning;
    }
    return selector;
}

} // namespace harness::cases
