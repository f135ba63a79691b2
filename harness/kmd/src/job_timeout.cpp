#include "kmd/job_timeout.hpp"

#include <charconv>
#include <fstream>
#include <string>

namespace kmd {

namespace {

constexpr uint64_t kDefaultMs = 10000; // non-compute default, amdgpu_device.c

// kstrtol(s, 0, &v): an optional sign, then decimal (or 0x.. / 0.. octal;
// the parameter is written in decimal in practice, which is all we accept).
bool parse_long(std::string_view s, long long &v) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
}

} // namespace

std::optional<uint64_t> sdma_job_timeout_ms(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    std::optional<uint64_t> gfx = kDefaultMs, sdma = kDefaultMs;
    int index = 0;
    // strsep over ',' stops at the first empty entry, as the kernel's loop.
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view entry = text.substr(0, comma);
        if (entry.empty()) break;
        long long v = 0;
        if (!parse_long(entry, v)) return kDefaultMs;
        const int at = index++;
        if (v != 0) {
            const std::optional<uint64_t> t =
                v < 0 ? std::nullopt : std::optional<uint64_t>(uint64_t(v));
            if (at == 0) gfx = t;
            if (at == 2) sdma = t;
        }
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return index == 1 ? gfx : sdma;
}

std::optional<uint64_t> sdma_job_timeout_ms() {
    std::ifstream in("/sys/module/amdgpu/parameters/lockup_timeout");
    std::string text;
    if (!in || !std::getline(in, text)) return kDefaultMs;
    return sdma_job_timeout_ms(text);
}

} // namespace kmd
