#include "kmd/fdinfo.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kmd {

namespace {

// "<n> [KiB|MiB]" after the key; false when the key is absent.
bool value_of(const std::string &text, const std::string &key, uint64_t &out) {
    const size_t at = text.find("\n" + key + ":");
    const size_t pos = text.compare(0, key.size() + 1, key + ":") == 0 ? 0
                       : at == std::string::npos                       ? std::string::npos
                                                                       : at + 1;
    if (pos == std::string::npos) return false;
    const char *p = text.c_str() + pos + key.size() + 1;
    char *end = nullptr;
    uint64_t v = std::strtoull(p, &end, 10);
    while (*end == ' ' || *end == '\t')
        ++end;
    uint64_t unit = 1;
    // strncmp stops at the terminating NUL: a value at the very end of the
    // text has no unit and must not be read past.
    if (std::strncmp(end, "KiB", 3) == 0)
        unit = 1024;
    else if (std::strncmp(end, "MiB", 3) == 0)
        unit = 1024 * 1024;
    out = v * unit;
    return true;
}

} // namespace

Status parse_fdinfo_memory(const std::string &text, MemoryUsage &out) {
    out = {};
    if (!value_of(text, "drm-memory-vram", out.vram_bytes))
        return Status::fail(ENODATA, "fdinfo drm-memory-vram");
    value_of(text, "drm-memory-gtt", out.gtt_bytes);
    return Status::success();
}

Status fdinfo_memory(int fd, MemoryUsage &out) {
    std::ifstream in("/proc/self/fdinfo/" + std::to_string(fd));
    if (!in) return Status::fail(errno ? errno : ENOENT, "open fdinfo");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_fdinfo_memory(ss.str(), out);
}

} // namespace kmd
