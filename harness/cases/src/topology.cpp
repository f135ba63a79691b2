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

void Topology::set(int a, int b, LinkType t, bool can) {
    link[static_cast<size_t>(a * device_count + b)] = t;
    direct[static_cast<size_t>(a * device_count + b)] = can;
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
