#include "runner/topology_probe.hpp"

#include "runner/isolation.hpp"

#include "kmd/topology.hpp"

#include <hsakmt.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <sys/stat.h>

namespace harness::runner {

using cases::LinkType;
using cases::Topology;

namespace {

// Whether KFD node `node` has an io_link to a CPU node (simd_count 0) as the
// kernel publishes it in sysfs. libhsakmt's own link list is not enough: it
// adds indirect links of its own (a GPU reaching the CPU through an XGMI
// peer), which hide a GPU whose direct CPU link the kernel lost (K13).
// nullopt when sysfs cannot be read (then libhsakmt's answer stands).
std::optional<bool> sysfs_cpu_link(uint32_t node) {
    const std::string nodes = "/sys/class/kfd/kfd/topology/nodes/";
    auto value = [](const std::string &file, const std::string &key) -> std::optional<long long> {
        std::ifstream in(file);
        if (!in) return std::nullopt;
        std::string k;
        long long v = 0;
        while (in >> k >> v)
            if (k == key) return v;
        return std::nullopt;
    };
    const auto count = value(nodes + std::to_string(node) + "/properties", "io_links_count");
    if (!count) return std::nullopt;
    for (long long i = 0; i < *count; ++i) {
        const auto to =
            value(nodes + std::to_string(node) + "/io_links/" + std::to_string(i) + "/properties",
                  "node_to");
        if (!to) continue;
        const auto simds = value(nodes + std::to_string(*to) + "/properties", "simd_count");
        if (simds && *simds == 0) return true;
    }
    return false;
}

// Runs in the probe child. The GPU list, the visible-devices filter and the
// per-link rule are kmd's (one implementation, shared with the peer API's
// device enumeration): the runner and the API under test cannot disagree on
// which devices exist or on spaces, duplicates or the Override flag.
nlohmann::json probe_in_child() {
    struct stat st;
    if (stat("/dev/kfd", &st) != 0)
        return {{"device_count", 0}, {"source", "no /dev/kfd: amdgpu/KFD did not come up"}};
    kmd::Topology kt;
    if (kmd::Status s = kmd::read_topology(kt); !s.ok())
        return {{"error", s.describe() + " (is /dev/kfd accessible to this user?)"}};
    const auto order = kmd::visible_devices(kt.gpus.size(), std::getenv("ROCR_VISIBLE_DEVICES"),
                                            std::getenv("HIP_VISIBLE_DEVICES"));
    const int count = static_cast<int>(order.size());
    Topology t = Topology::make(count);
    t.source = "KFD topology via libhsakmt";
    std::map<uint32_t, int> device_of_node;
    for (int d = 0; d < count; ++d)
        device_of_node[kt.gpus[order[static_cast<size_t>(d)]].node] = d;
    for (int d = 0; d < count; ++d) {
        const kmd::GpuNode &g = kt.gpus[order[static_cast<size_t>(d)]];
        t.names[static_cast<size_t>(d)] =
            (g.name.empty() ? "gpu" : g.name) + " " + kmd::pci_slot_name(g.domain, g.location_id);
        t.small_bar[static_cast<size_t>(d)] = g.small_bar;
        t.cpu_link[static_cast<size_t>(d)] = sysfs_cpu_link(g.node).value_or(g.cpu_link);
        t.sdma_xgmi_engines[static_cast<size_t>(d)] = static_cast<int>(g.sdma_xgmi_engines);
        for (const auto &l : g.links) {
            auto to = device_of_node.find(l.to_node);
            if (to == device_of_node.end() || to->second == d) continue;
            LinkType type = l.type == HSA_IOLINK_TYPE_XGMI ? LinkType::xgmi : LinkType::pcie;
            bool direct = kmd::link_allows_peer_access(l);
            // Several links to one peer: any direct one makes the pair direct,
            // and XGMI wins as the link type.
            bool was = t.can_access(d, to->second);
            LinkType prev = t.link_type(d, to->second);
            t.set(d, to->second, prev == LinkType::xgmi ? prev : type, was || direct);
        }
    }
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
    std::vector<int> small;
    for (bool s : t.small_bar)
        small.push_back(s ? 1 : 0);
    j["small_bar"] = small;
    std::vector<int> cpu;
    for (bool c : t.cpu_link)
        cpu.push_back(c ? 1 : 0);
    j["cpu_link"] = cpu;
    j["sdma_xgmi_engines"] = t.sdma_xgmi_engines;
    if (t.knows_register_bar()) {
        nlohmann::json rb = nlohmann::json::array();
        for (int a = 0; a < t.device_count; ++a) {
            nlohmann::json row = nlohmann::json::array();
            for (int b = 0; b < t.device_count; ++b)
                row.push_back(t.can_map_registers(a, b) ? 1 : 0);
            rb.push_back(row);
        }
        j["register_bar"] = rb;
    }
    if (!t.import_vram.empty()) {
        nlohmann::json iv = nlohmann::json::array();
        for (int a = 0; a < t.device_count; ++a) {
            nlohmann::json row = nlohmann::json::array();
            for (int b = 0; b < t.device_count; ++b)
                row.push_back(t.import_stays_in_vram(a, b) ? 1 : 0);
            iv.push_back(row);
        }
        j["import_vram"] = iv;
    }
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
        // Optional: results written before the field existed lack it.
        if (j.contains("small_bar"))
            for (int a = 0; a < n; ++a)
                t.small_bar[static_cast<size_t>(a)] = j.at("small_bar").at(a).get<int>() != 0;
        if (j.contains("cpu_link"))
            for (int a = 0; a < n; ++a)
                t.cpu_link[static_cast<size_t>(a)] = j.at("cpu_link").at(a).get<int>() != 0;
        if (j.contains("sdma_xgmi_engines"))
            for (int a = 0; a < n; ++a)
                t.sdma_xgmi_engines[static_cast<size_t>(a)] =
                    j.at("sdma_xgmi_engines").at(a).get<int>();
        if (j.contains("import_vram")) {
            t.import_vram.assign(static_cast<size_t>(n * n), false);
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b)
                    t.import_vram[static_cast<size_t>(a * n + b)] =
                        j.at("import_vram").at(a).at(b).get<int>() != 0;
        }
        if (j.contains("register_bar")) {
            t.register_bar.assign(static_cast<size_t>(n * n), false);
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b)
                    t.register_bar[static_cast<size_t>(a * n + b)] =
                        j.at("register_bar").at(a).at(b).get<int>() != 0;
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
