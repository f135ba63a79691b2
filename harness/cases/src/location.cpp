#include "cases/location.hpp"

namespace harness::cases {

std::string Diagnostic::to_string() const {
    std::string out = at.file;
    if (at.line > 0) {
        out += ':' + std::to_string(at.line) + ':' + std::to_string(at.column);
    }
    out += ": error: " + message;
    return out;
}

} // namespace harness::cases
