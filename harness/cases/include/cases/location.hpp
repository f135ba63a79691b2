// Where something sits in a case file, and the one error shape every stage of
// case handling returns: a diagnostic that names file, line, column and what
// was expected. Nothing here throws or exits; callers decide (the CLI exits 2).
#pragma once

#include <string>
#include <vector>

namespace harness::cases {

struct Location {
    std::string file;
    int line = 0;   // 1-based; 0 when unknown (e.g. the file could not be opened)
    int column = 0; // 1-based
};

struct Diagnostic {
    Location at;
    std::string message; // says what was found and what was expected

    // "file:line:col: error: message", the format compilers and editors jump to.
    std::string to_string() const;
};

using Diagnostics = std::vector<Diagnostic>;

} // namespace harness::cases
