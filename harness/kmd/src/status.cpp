#include "kmd/status.hpp"

#include "errnos/errno_names.hpp"

namespace kmd {

const char *errno_name(int err) {
    if (err == 0) return "OK";
    const char *name = harness::errnos::errno_name(err);
    return name ? name : "E?";
}

std::string Status::describe() const {
    if (ok()) return {};
    std::string s = call ? call : "?";
    s += ": ";
    s += errno_name(err);
    s += " (";
    s += std::to_string(err);
    s += ")";
    return s;
}

} // namespace kmd
