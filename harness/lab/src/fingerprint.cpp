#include "lab/fingerprint.hpp"

#include "kmd/device.hpp"
#include "kmd/firmware.hpp"
#include "kmd/topology.hpp"
#include "lab/kernel_identity.hpp"
#include "lab/version.hpp"
#include "manifest/manifest.hpp"
#include "runner/isolation.hpp"
#include "runner/settings.hpp"

#include <fmt/format.h>
#include <hsakmt.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;

uint64_t fnv1a(const std::string &bytes, uint64_t seed) {
    uint64_t h = seed;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string hex64(uint64_t v) {
    return fmt::format("{:016x}", v);
}

const char *harness_version() {
    return PEER_HARNESS_GIT_DESCRIBE;
}

std::variant<std::string, std::string> hash_case_files(const std::vector<std::string> &paths) {
    // path relative to its root -> content; a map keeps the order stable.
    std::map<std::string, std::string> files;
    for (const auto &root : paths) {
        std::error_code ec;
        auto add = [&](const fs::path &p, const std::string &rel) {
            std::ifstream in(p, std::ios::binary);
            std::stringstream ss;
            ss << in.rdbuf();
            files[rel] = ss.str();
        };
        if (fs::is_directory(root, ec)) {
            for (auto it = fs::recursive_directory_iterator(root, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
                if (it->is_regular_file() && it->path().extension() == ".yaml")
                    add(it->path(), fs::relative(it->path(), root).generic_string());
        } else if (fs::is_regular_file(root, ec)) {
            add(root, fs::path(root).filename().generic_string());
        }
    }
    if (files.empty())
        return std::variant<std::string, std::string>(std::in_place_index<1>,
                                                      "no case files found");
    uint64_t h = fnv1a("peer-harness cases");
    for (const auto &[rel, content] : files) {
        h = fnv1a(rel, h);
        h = fnv1a(std::string(1, '\0'), h);
        h = fnv1a(content, h);
    }
    return std::variant<std::string, std::string>(std::in_place_index<0>, hex64(h));
}

namespace {

std::string hex4(uint32_t v) {
    return fmt::format("{:04x}", v);
}

// The shape of the machine: device ids, PCI locations, memory, hive
// membership (as a group index, not the random hive id) and every link.
std::string topology_hash(const kmd::Topology &t) {
    std::map<uint64_t, int> hives;
    json j = json::array();
    for (const auto &g : t.gpus) {
        int hive = 0;
        if (g.hive_id)
            hive = hives.emplace(g.hive_id, static_cast<int>(hives.size()) + 1).first->second;
        json links = json::array();
        for (const auto &l : g.links)
            links.push_back({l.to_node, l.type, l.weight, l.flags});
        j.push_back({g.node, g.device_id, kmd::pci_slot_name(g.domain, g.location_id),
                     g.local_mem_bytes, hive, links});
    }
    return hex64(fnv1a(j.dump()));
}

json gpu_fingerprint(const kmd::GpuNode &g) {
    json out = {{"node", g.node},
                {"pci_slot", kmd::pci_slot_name(g.domain, g.location_id)},
                {"pci_id", "1002:" + hex4(g.device_id)},
                {"render_minor", g.render_minor}};
    std::unique_ptr<kmd::Device> dev;
    if (kmd::Status s = kmd::Device::open(g.render_minor, dev); !s) {
        out["product"] = g.name;
        out["error"] = s.describe();
        return out;
    }
    // libdrm's name table (amdgpu.ids): products it lacks read "AMD Radeon
    // Graphics"; the manifest's name goes beside it (collect_fingerprint).
    const char *marketing = amdgpu_get_marketing_name(dev->handle());
    out["product"] = marketing && *marketing ? marketing : g.name;
    // DEV_INFO: pci_rev is the PCI revision (pdev->revision), external_rev
    // the ASIC's revision id plus its per-family offset.
    amdgpu_gpu_info gi{};
    if (amdgpu_query_gpu_info(dev->handle(), &gi) == 0)
        out["pci_revision"] = fmt::format("{:02x}", gi.pci_rev_id);
    out["external_rev"] = fmt::format("{:02x}", dev->info().external_rev);
    out["family"] = dev->info().family;
    std::vector<kmd::FirmwareVersion> fw;
    if (kmd::Status s = kmd::query_firmware_versions(*dev, fw); !s) {
        out["firmware_error"] = s.describe();
    } else {
        json f = json::object();
        for (const auto &v : fw)
            f[v.engine] = {{"version", fmt::format("0x{:08x}", v.version)}, {"feature", v.feature}};
        out["firmware"] = f;
    }
    return out;
}

// What the lab's manifest calls each GPU, in HIP device order (the KFD
// topology's order): a name for the report, never a reading of the kernel.
void add_manifest_products(json &gpus, const std::string &manifest_path) {
    if (manifest_path.empty() || !gpus.is_array()) return;
    auto m = manifest::load_manifest(manifest_path);
    const auto *man = std::get_if<manifest::Manifest>(&m);
    if (!man) return;
    for (size_t i = 0; i < gpus.size() && i < man->gpus.size(); ++i)
        if (!man->gpus[i].product.empty()) gpus[i]["manifest_product"] = man->gpus[i].product;
}

// Runs in the child: everything that touches the kernel driver.
json device_part() {
    json out;
    kmd::Topology t;
    if (kmd::Status s = kmd::read_topology(t); !s) {
        out["gpus"] = json::array();
        out["topology_hash"] = nullptr;
        out["topology_error"] = s.describe();
        return out;
    }
    out["topology_hash"] = topology_hash(t);
    json gpus = json::array();
    for (const auto &g : t.gpus)
        gpus.push_back(gpu_fingerprint(g));
    out["gpus"] = gpus;
    // The KFD ioctl interface version the library negotiated.
    if (hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS) {
        HsaVersionInfo v{};
        if (hsaKmtGetVersion(&v) == HSAKMT_STATUS_SUCCESS)
            out["kfd_interface"] =
                fmt::format("{}.{}", v.KernelInterfaceMajorVersion, v.KernelInterfaceMinorVersion);
        hsaKmtCloseKFD();
    }
    return out;
}

} // namespace

json collect_fingerprint(const std::vector<std::string> &case_paths,
                         const std::string &manifest_path) {
    // The kernel this process reaches: under amdgpu-sim the simulated one.
    json fp = kernel_fingerprint();
    fp["on_simulator"] = runner::running_on_simulator();
    // Build-time versions: neither library exposes its own version at run time.
    fp["libdrm_amdgpu"] = PEER_HARNESS_LIBDRM_AMDGPU_VERSION;
    fp["libhsakmt"] = PEER_HARNESS_LIBHSAKMT_VERSION;
    fp["harness_version"] = harness_version();
    auto h = hash_case_files(case_paths);
    if (h.index() == 0)
        fp["cases_hash"] = std::get<0>(h);
    else
        fp["cases_hash"] = {{"error", std::get<1>(h)}};
    runner::ChildOutcome o = runner::run_isolated([] { return device_part().dump(); }, 30, "");
    json dev = o.kind == runner::ChildOutcome::Kind::finished
                   ? json::parse(o.payload, nullptr, false)
                   : json();
    if (!dev.is_object()) {
        fp["gpus"] = json::array();
        fp["topology_hash"] = nullptr;
        fp["topology_error"] = "fingerprint probe: " + o.describe();
    } else {
        fp.update(dev);
    }
    add_manifest_products(fp["gpus"], manifest_path);
    return fp;
}

std::vector<std::string> missing_fingerprint_fields(const json &fp) {
    std::vector<std::string> missing;
    for (const char *k :
         {"kernel_release", "kernel_version", "kernel_config", "amdgpu_parameters", "on_simulator",
          "libdrm_amdgpu", "libhsakmt", "harness_version", "cases_hash", "topology_hash", "gpus"})
        if (!fp.is_object() || !fp.contains(k)) missing.emplace_back(k);
    return missing;
}

namespace {

void flatten_into(const json &j, const std::string &prefix,
                  std::map<std::string, std::string> &out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            flatten_into(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    } else if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i)
            flatten_into(j[i], prefix + "[" + std::to_string(i) + "]", out);
    } else {
        out[prefix] = j.is_string() ? j.get<std::string>() : j.dump();
    }
}

std::string joined(const json &obj, const char *sep) {
    std::string out;
    if (!obj.is_object()) return out;
    for (auto it = obj.begin(); it != obj.end(); ++it)
        out +=
            fmt::format("{}{}={}", out.empty() ? "" : sep, it.key(),
                        it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    return out;
}

} // namespace

std::map<std::string, std::string> flatten_fingerprint(const json &fp) {
    std::map<std::string, std::string> out;
    flatten_into(fp, "", out);
    return out;
}

std::string render_fingerprint_text(const json &fp) {
    if (!fp.is_object()) return "fingerprint: none recorded\n";
    auto s = [&](const char *k) {
        if (!fp.contains(k) || fp[k].is_null()) return std::string("-");
        return fp[k].is_string() ? fp[k].get<std::string>() : fp[k].dump();
    };
    const json cfg = fp.value("kernel_config", json::object());
    std::string config = cfg.contains("error") ? cfg.value("error", "")
                                               : joined(cfg.value("options", json()), " ") + " (" +
                                                     cfg.value("source", "?") + ")";
    std::string out = fmt::format(
        "kernel {} ({}){}\nkernel config: {}\namdgpu parameters: {}\n"
        "libdrm_amdgpu {}, libhsakmt {} (KFD interface {}), harness {}\n"
        "cases {}, topology {}\n",
        s("kernel_release"), s("kernel_version"),
        fp.value("on_simulator", false) ? ", simulated by amdgpu-sim" : "", config,
        joined(fp.value("amdgpu_parameters", json()), " "), s("libdrm_amdgpu"), s("libhsakmt"),
        s("kfd_interface"), s("harness_version"), s("cases_hash"), s("topology_hash"));
    if (!fp.contains("gpus") || !fp["gpus"].is_array()) return out;
    for (const json &g : fp["gpus"]) {
        std::string fw;
        if (g.contains("firmware") && g["firmware"].is_object())
            for (auto it = g["firmware"].begin(); it != g["firmware"].end(); ++it)
                fw += fmt::format(" {}={}", it.key(), it.value().value("version", "?"));
        out += fmt::format("gpu {} {} [{}] {}{}\n", g.value("node", 0), g.value("pci_slot", ""),
                           g.value("pci_id", ""),
                           g.value("manifest_product", g.value("product", "")), fw);
    }
    return out;
}

} // namespace harness::lab
