// Case files -> validated case model. Parse and validate only (IGT-2): no
// device is touched here, so a file can be checked anywhere. Every problem is
// a Diagnostic with file:line:col and what was expected; the loader never
// throws and never exits, and a file with any error yields no suite at all,
// so a bad file can never turn into a passing run.
#pragma once

#include "cases/location.hpp"
#include "cases/model.hpp"

#include <string>
#include <vector>

namespace harness::cases {

struct LoadResult {
    std::vector<Suite> suites;
    Diagnostics errors; // non-empty => suites must not be run

    bool ok() const { return errors.empty(); }
};

// `text` is parsed as if read from `file` (used in diagnostics).
LoadResult load_string(const std::string &text, const std::string &file);
LoadResult load_file(const std::string &path);
// Files and directories (every *.yaml directly inside, in name order). Suite
// names must be unique across everything loaded.
LoadResult load_paths(const std::vector<std::string> &paths);

// Identifiers used for suite, case, axis and buffer names: [A-Za-z_][A-Za-z0-9_-]*
bool is_identifier(const std::string &s);

} // namespace harness::cases
