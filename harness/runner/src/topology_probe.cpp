#include "runner/topology_probe.hpp"

#include "runner/isolation.hpp"

#include <hsakmt.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <sys/stat.h>

namespace harness::runner {

using cases::LinkType;
using cases::Topology;

std::vector<int> apply_visible_devices(const std::vector<int> &devices, const char *list) {
    if (!list) return devices;
    std::vector<int> out;
    std::stringstream ss(list);
    std::string item;
    while (std::getline(ss, item, ',')) {
        char *end = nullptr;
        long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 0 || v >= static_cast<long>(devices.size())) break;
        out.push_back(devices[static_cast<size_t>(v)]);
    }
    return out;
}

namespace {

std::string utf16_name(const HSAuint16 *s) {
    std::string out;
    for (int i = 0; i < HSA_PUBLIC_NAME_SIZE && s[i]; ++i)
        out += s[i] < 128 ? static_cast<char>(s[i]) : '?';
    return out;
}

// Runs in the probe child.
nlohmann::json probe_in_child() {
    struct stat st;
    if (stat("/dev/kfd", &st) != 0) return {{"device_count", 0}, {"note", "no /dev/kfd"}};
    if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS)
        return {{"error", "hsaKmtOpenKFD failed (is /dev/kfd accessible to this user?)"}};
    HsaSystemProperties sys{};
    if (hsaKmtAcquireSystemProperties(&sys) != HSAKMT_STATUS_SUCCESS)
        return {{"error", "hsaKmtAcquireSystemProperties failed"}};
    std::vector<int> gpu_nodes;
    std::map<int, HsaNodeProperties> props;
    for (HSAuint32 n = 0; n < sys.NumNodes; ++n) {
        HsaNodeProperties p{};
        if (hsaKmtGetNodeProperties(n, &p) != HSAKMT_STATUS_SUCCESS)
            return {{"error", "hsaKmtGetNodeProperties(" + std::to_string(n) + ") failed"}};
        props[static_cast<int>(n)] = p;
        if (p.NumFComputeCores > 0) gpu_nodes.push_back(static_cast<int>(n));
    }
    gpu_nodes = apply_visible_devices(gpu_nodes, std::getenv("ROCR_VISIBLE_DEVICES"));
    gpu_nodes = apply_visible_devices(gpu_nodes, std::getenv("HIP_VISIBLE_DEVICES"));
    const int count = static_cast<int>(gpu_nodes.size());
    Topology t = Topology::make(count);
    t.source = "KFD topology via libhsakmt";
    std::map<int, int> device_of_node;
    for (int d = 0; d < count; ++d)
        device_of_node[gpu_nodes[static_cast<size_t>(d)]] = d;
    for (int d = 0; d < count; ++d) {
        const HsaNodeProperties &p = props[gpu_nodes[static_cast<size_t>(d)]];
        char loc[32];
        std::snprintf(loc, sizeof loc, "%04x:%02x:%02x.%x", p.Domain, (p.LocationId >> 8) & 0xff,
                      (p.LocationId >> 3) & 0x1f, p.LocationId & 7);
        std::string name = utf16_name(p.MarketingName);
        t.names[static_cast<size_t>(d)] = (name.empty() ? "gpu" : name) + " " + loc;
        std::vector<HsaIoLinkProperties> links(p.NumIOLinks);
        if (p.NumIOLinks &&
            hsaKmtGetNodeIoLinkProperties(static_cast<HSAuint32>(gpu_nodes[static_cast<size_t>(d)]),
                                          p.NumIOLinks, links.data()) != HSAKMT_STATUS_SUCCESS)
            return {{"error", "hsaKmtGetNodeIoLinkProperties failed"}};
        for (const auto &l : links) {
            auto to = device_of_node.find(static_cast<int>(l.NodeTo));
            if (to == device_of_node.end() || to->second == d) continue;
            LinkType type = l.IoLinkType == HSA_IOLINK_TYPE_XGMI ? LinkType::xgmi : LinkType::pcie;
            bool direct = l.Weight != 0 && !l.Flags.ui32.NoPeerToPeerDMA;
            // Several links to one peer: any direct one makes the pair direct,
            // and XGMI wins as the link type.
            bool was = t.can_access(d, to->second);
            LinkType prev = t.link_type(d, to->second);
            t.set(d, to->second, prev == LinkType::xgmi ? prev : type, was || direct);
        }
    }
    hsaKmtReleaseSystemProperties();
    hsaKmtCloseKFD();
    return topology_to_json(t);
}

} // namespace

nlohmann::json topology_to_json(const Topology &t) {
    nlohmann::json j;
    j["device_count"] = t.device_count;
    j["names"] = t.names;
    j["source"] = t.source;
    nlohmann::json links = nlohmann::json::array(), direct = nlohmann::json::array();
    for (int a = 0; a < t.device_count; ++a) {
        nlohmann::json lr = nlohmann::json::array(), dr = nlohmann::json::array();
        for (int b = 0; b < t.device_count; ++b) {
            lr.push_back(cases::link_type_name(t.link_type(a, b)));
            dr.push_back(t.can_access(a, b) ? 1 : 0);
        }
        links.push_back(lr);
        direct.push_back(dr);
    }
    j["links"] = links;
    j["direct"] = direct;
    return j;
}

std::variant<Topology, std::string> topology_from_json(const nlohmann::json &j) {
    if (!j.is_object()) return std::string("topology: expected a JSON object");
    if (j.contains("error")) return j["error"].get<std::string>();
    int n = j.value("device_count", -1);
    if (n < 0) return std::string("topology: missing device_count");
    Topology t = Topology::make(n);
    t.source = j.value("source", "");
    if (n == 0) return t;
    try {
        t.names = j.at("names").get<std::vector<std::string>>();
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                std::string l = j.at("links").at(a).at(b).get<std::string>();
                LinkType type = l == "xgmi"   ? LinkType::xgmi
                                : l == "pcie" ? LinkType::pcie
                                : l == "self" ? LinkType::self
                                              : LinkType::none;
                t.set(a, b, type, j.at("direct").at(a).at(b).get<int>() != 0);
            }
    } catch (const nlohmann::json::exception &e) {
        return std::string("topology: ") + e.what();
    }
    return t;
}

std::variant<Topology, std::string> probe_topology(double timeout_s) {
    ChildOutcome o = run_isolated([] { return probe_in_child().dump(); }, timeout_s, "");
    if (o.kind != ChildOutcome::Kind::finished) return "topology probe " + o.describe();
    auto j = nlohmann::json::parse(o.payload, nullptr, false);
    if (j.is_discarded()) return std::string("topology probe sent unreadable output");
    return topology_from_json(j);
}

} // namespace harness::runner
