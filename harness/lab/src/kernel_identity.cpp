#include "lab/kernel_identity.hpp"

#include "lab/fingerprint.hpp"

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/utsname.h>

namespace harness::lab {

namespace fs = std::filesystem;
using nlohmann::json;

json parse_kernel_config(const std::string &text) {
    json out = json::object();
    for (const char *o : kKernelConfigOptions)
        out[o] = "n";
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        // "CONFIG_X=value" (scripts/kconfig/confdata.c); "# CONFIG_X is not
        // set" keeps the "n" above.
        const auto eq = line.find('=');
        if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
        const std::string name = line.substr(0, eq);
        if (out.contains(name)) out[name] = line.substr(eq + 1);
    }
    return out;
}

namespace {

// /proc/config.gz (kernel/configs.c, CONFIG_IKCONFIG_PROC): the running
// kernel's own build configuration.
std::optional<std::string> read_gzip(const char *path) {
    gzFile f = gzopen(path, "rb");
    if (!f) return std::nullopt;
    std::string text;
    char buf[65536];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        text.append(buf, static_cast<size_t>(n));
    const bool ok = n == 0;
    gzclose(f);
    if (!ok) return std::nullopt;
    return text;
}

std::optional<std::string> read_text(const fs::path &p) {
    std::ifstream in(p);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

json kernel_config(const std::string &release) {
    // The kernel's own copy first; a distribution kernel's installed file
    // (Debian: CONFIG_IKCONFIG_PROC is off) only for this very release.
    const std::string boot = "/boot/config-" + release;
    std::optional<std::string> text = read_gzip("/proc/config.gz");
    std::string source = "/proc/config.gz";
    if (!text) {
        text = read_text(boot);
        source = boot;
    }
    if (!text || text->empty())
        return {{"error", "neither /proc/config.gz nor " + boot + " can be read"}};
    return {
        {"source", source}, {"hash", hex64(fnv1a(*text))}, {"options", parse_kernel_config(*text)}};
}

json amdgpu_parameters() {
    json out = json::object();
    const fs::path dir = "/sys/module/amdgpu/parameters";
    for (const char *name : kAmdgpuParameters) {
        std::optional<std::string> v = read_text(dir / name);
        if (!v) continue;
        while (!v->empty() && v->back() == '\n')
            v->pop_back();
        out[name] = *v;
    }
    return out;
}

} // namespace

json kernel_fingerprint() {
    json fp;
    utsname u{};
    if (::uname(&u) != 0) {
        fp["kernel_release"] = "unknown";
        fp["kernel_version"] = "unknown";
        fp["kernel_config"] = {{"error", "uname failed"}};
    } else {
        fp["kernel_release"] = u.release;
        fp["kernel_version"] = u.version;
        fp["kernel_config"] = kernel_config(u.release);
    }
    fp["amdgpu_parameters"] = amdgpu_parameters();
    return fp;
}

} // namespace harness::lab
