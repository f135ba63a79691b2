#include "manifest/manifest.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

namespace harness::manifest {

namespace {

struct Error {
    cases::Diagnostic d;
};

class Reader {
  public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const YAML::Node &n, const std::string &what) const {
        const YAML::Mark m = n.Mark();
        throw Error{{{file_, m.line + 1, m.column + 1}, what}};
    }
    YAML::Node need(const YAML::Node &map, const char *key) const {
        YAML::Node v = map[key];
        if (!v) fail(map, std::string("expected key '") + key + "'");
        return v;
    }
    std::string str(const YAML::Node &n, const char *what) const {
        if (!n.IsScalar()) fail(n, std::string("expected ") + what + " (a string)");
        return n.Scalar();
    }
    bool boolean(const YAML::Node &n) const {
        const std::string s = n.IsScalar() ? n.Scalar() : "";
        if (s == "true") return true;
        if (s == "false") return false;
        fail(n, "expected true or false");
    }
    // 64Gi, 256Mi, 0x100000000000, 48
    uint64_t size(const YAML::Node &n) const {
        if (!n.IsScalar() || n.Scalar().empty()) fail(n, "expected a size (e.g. 64Gi)");
        std::string s = n.Scalar();
        uint64_t mult = 1;
        static const std::map<std::string, uint64_t> suffix{
            {"Ki", 1ull << 10}, {"Mi", 1ull << 20}, {"Gi", 1ull << 30}, {"Ti", 1ull << 40}};
        if (s.size() > 2)
            if (auto it = suffix.find(s.substr(s.size() - 2)); it != suffix.end()) {
                mult = it->second;
                s.resize(s.size() - 2);
            }
        char *end = nullptr;
        errno = 0;
        unsigned long long v = std::strtoull(s.c_str(), &end, 0);
        if (errno || !end || *end || s.empty() || s[0] == '-' || (mult > 1 && v > ~0ull / mult))
            fail(n, "expected a size (a number with an optional Ki/Mi/Gi/Ti suffix)");
        return v * mult;
    }

  private:
    std::string file_;
};

void read_kernel(const Reader &r, const YAML::Node &k, Kernel &out) {
    const YAML::Node v = r.need(k, "version");
    const std::string ver = r.str(v, "a kernel version like \"6.10\"");
    if (std::sscanf(ver.c_str(), "%d.%d", &out.major, &out.minor) != 2)
        r.fail(v, "expected a kernel version like \"6.10\"");
    if (const YAML::Node c = k["config"]) {
        if (!c.IsMap()) r.fail(c, "expected a map of CONFIG_* options");
        if (c["CONFIG_PCI_P2PDMA"]) out.pci_p2pdma = r.boolean(c["CONFIG_PCI_P2PDMA"]);
        if (c["CONFIG_DMABUF_MOVE_NOTIFY"])
            out.dmabuf_move_notify = r.boolean(c["CONFIG_DMABUF_MOVE_NOTIFY"]);
        if (c["CONFIG_HSA_AMD_P2P"]) out.hsa_amd_p2p = r.boolean(c["CONFIG_HSA_AMD_P2P"]);
    }
    if (const YAML::Node p = k["params"]) {
        if (!p.IsMap()) r.fail(p, "expected a map of module parameters");
        if (p["amdgpu.pcie_p2p"]) out.param_pcie_p2p = r.boolean(p["amdgpu.pcie_p2p"]);
    }
}

// A GPU entry's ASIC (`asic: NAME`): fixtures/machines/asics/NAME.yaml,
// looked for beside the manifest first (asics/), then in the repository's
// own folder, so a manifest copied elsewhere still finds it. The facts in it
// are the ASIC's alone: a GPU entry that repeats one is an error.
struct Asic {
    std::optional<Reader> reader; // errors in the ASIC file name that file
    YAML::Node node;
};

std::string asic_path(const std::string &manifest, const std::string &name) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path beside = fs::path(manifest).parent_path() / "asics" / (name + ".yaml");
    if (fs::is_regular_file(beside, ec)) return beside.string();
    return (fs::path(PEER_MANIFEST_FACTS_DIR) / "asics" / (name + ".yaml")).string();
}

Asic load_asic(const Reader &r, const YAML::Node &gpu, const std::string &manifest) {
    Asic a;
    const YAML::Node ref = gpu["asic"];
    if (!ref) return a;
    const std::string name = r.str(ref, "an ASIC name (a file of fixtures/machines/asics)");
    const std::string path = asic_path(manifest, name);
    try {
        a.node = YAML::LoadFile(path);
    } catch (const YAML::BadFile &) {
        r.fail(ref, "unknown ASIC '" + name + "': expected a file " + path);
    } catch (const YAML::ParserException &e) {
        throw Error{{{path, e.mark.line + 1, e.mark.column + 1}, "expected YAML: " + e.msg}};
    }
    a.reader.emplace(path);
    if (!a.node.IsMap()) a.reader->fail(a.node, "expected an ASIC file (a map of facts)");
    for (const auto &kv : a.node) {
        const std::string key = kv.first.Scalar();
        if (gpu[key])
            r.fail(gpu[key], "expected no '" + key + "' here: it is a fact of ASIC '" + name +
                                 "' (" + path + ")");
    }
    return a;
}

// One GPU fact: from the entry, else from its ASIC (read by that file's Reader).
struct Fact {
    const Reader &reader;
    YAML::Node node;
    explicit operator bool() const { return static_cast<bool>(node); }
};

Fact fact(const Reader &r, const YAML::Node &g, const Asic &a, const char *key) {
    if (g[key] || !a.reader) return {r, g[key]};
    return {*a.reader, a.node[key]};
}

Fact need_fact(const Reader &r, const YAML::Node &g, const Asic &a, const char *key) {
    Fact f = fact(r, g, a, key);
    if (!f)
        r.fail(g, std::string("expected key '") + key + "'" +
                      (a.reader ? " (here or in its ASIC file)" : ""));
    return f;
}

Gpu read_gpu(const Reader &r, const YAML::Node &g, const std::string &path) {
    if (!g.IsMap()) r.fail(g, "expected a GPU (a map)");
    const Asic a = load_asic(r, g, path);
    Gpu out;
    out.name = r.str(r.need(g, "name"), "the GPU's symbolic name");
    const Fact product = need_fact(r, g, a, "product");
    out.product = product.reader.str(product.node, "the product name");
    const Fact family = need_fact(r, g, a, "family");
    out.family = static_cast<int>(family.reader.size(family.node));
    const Fact vram = need_fact(r, g, a, "vram");
    out.vram_bytes = vram.reader.size(vram.node);
    out.visible_vram_bytes = g["visible_vram"] ? r.size(g["visible_vram"]) : out.vram_bytes;
    if (g["bar_address"]) out.bar_address = r.size(g["bar_address"]);
    if (const Fact d = fact(r, g, a, "dma_mask_bits")) {
        uint64_t b = d.reader.size(d.node);
        if (b < 32 || b > 64) d.reader.fail(d.node, "expected 32..64 bits");
        out.dma_mask_bits = static_cast<int>(b);
    }
    if (g["iommu_remapping"]) out.iommu_remapping = r.boolean(g["iommu_remapping"]);
    if (const Fact x = fact(r, g, a, "sdma_xgmi_engines"))
        out.sdma_xgmi_engines = static_cast<int>(x.reader.size(x.node));
    return out;
}

// fixtures/machines/kernel/releases.yaml, beside the manifest first.
void read_kernel_releases(const std::string &manifest, Kernel &k) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path path = fs::path(manifest).parent_path() / "kernel" / "releases.yaml";
    if (!fs::is_regular_file(path, ec))
        path = fs::path(PEER_MANIFEST_FACTS_DIR) / "kernel" / "releases.yaml";
    YAML::Node root;
    try {
        root = YAML::LoadFile(path.string());
    } catch (const YAML::BadFile &) {
        throw Error{{{path.string(), 0, 0}, "cannot open the kernel releases file"}};
    } catch (const YAML::ParserException &e) {
        throw Error{
            {{path.string(), e.mark.line + 1, e.mark.column + 1}, "expected YAML: " + e.msg}};
    }
    const Reader r(path.string());
    auto release = [&](const char *key) {
        const YAML::Node v = r.need(root, key);
        std::pair<int, int> out;
        char tail = 0;
        if (std::sscanf(r.str(v, "a kernel release").c_str(), "%d.%d%c", &out.first, &out.second,
                        &tail) != 2)
            r.fail(v, "expected a kernel release like \"7.2\"");
        return out;
    };
    k.iommu_remap_lifts_dma_mask_from = release("iommu_remap_lifts_dma_mask");
    k.all_bars_peer_check_from = release("all_bars_peer_check");
}

Manifest read(const std::string &path) {
    Reader r(path);
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile &) {
        throw Error{{{path, 0, 0}, "cannot open the machine manifest"}};
    } catch (const YAML::ParserException &e) {
        throw Error{{{path, e.mark.line + 1, e.mark.column + 1}, "expected YAML: " + e.msg}};
    }
    if (!root.IsMap()) r.fail(root, "expected a machine file (a map with name, kernel, gpus)");
    Manifest m;
    m.file = path;
    m.name = r.str(r.need(root, "name"), "the machine's name");
    read_kernel(r, r.need(root, "kernel"), m.kernel);
    read_kernel_releases(path, m.kernel);
    const YAML::Node gpus = r.need(root, "gpus");
    if (!gpus.IsSequence()) r.fail(gpus, "expected a list of GPUs");
    std::map<std::string, int> index;
    for (const auto &g : gpus) {
        Gpu out = read_gpu(r, g, path);
        if (!index.emplace(out.name, static_cast<int>(m.gpus.size())).second)
            r.fail(g["name"], "expected a GPU name not used before");
        m.gpus.push_back(out);
    }
    m.hive_of.assign(m.gpus.size(), 0);
    auto gpu_ref = [&](const YAML::Node &n) {
        auto it = index.find(r.str(n, "a GPU name"));
        if (it == index.end()) r.fail(n, "expected the name of a GPU of this machine");
        return it->second;
    };
    if (const YAML::Node hives = root["xgmi_hives"]) {
        if (!hives.IsSequence()) r.fail(hives, "expected a list of hives");
        for (const auto &h : hives) {
            if (!h.IsMap()) r.fail(h, "expected a hive {hive_id, members}");
            uint64_t id = r.size(r.need(h, "hive_id"));
            if (id == 0) r.fail(h["hive_id"], "expected a non-zero hive id");
            const YAML::Node mem = r.need(h, "members");
            if (!mem.IsSequence()) r.fail(mem, "expected a list of GPU names");
            for (const auto &x : mem) {
                int g = gpu_ref(x);
                if (m.hive_of[static_cast<size_t>(g)] != 0)
                    r.fail(x, "expected a GPU that is in no other hive");
                m.hive_of[static_cast<size_t>(g)] = id;
            }
        }
    }
    if (const YAML::Node p2p = root["pcie_p2p"]) {
        if (!p2p.IsSequence()) r.fail(p2p, "expected a list of GPU pairs");
        for (const auto &pr : p2p) {
            if (!pr.IsSequence() || pr.size() != 2) r.fail(pr, "expected a pair [gpuX, gpuY]");
            const int a = gpu_ref(pr[0]); // first operand's error first
            m.pcie_p2p.emplace_back(a, gpu_ref(pr[1]));
        }
    }
    return m;
}

} // namespace

std::variant<Manifest, cases::Diagnostic> load_manifest(const std::string &path) {
    try {
        return read(path);
    } catch (const Error &e) {
        return e.d;
    } catch (const YAML::Exception &e) {
        return cases::Diagnostic{{path, e.mark.line + 1, e.mark.column + 1}, e.msg};
    }
}

std::string resolve_manifest_path(const std::string &name_or_path, const std::string &dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
    return (fs::path(dir) / (name_or_path + ".yaml")).string();
}

} // namespace harness::manifest
