// What a result was produced on: kernel release, library
// versions, firmware per engine, each GPU's product and PCI id, a hash of the
// KFD topology, the harness version and a hash of the case files. Collected in
// a short-lived child (the runner's parent never opens a device) and stored
// in every results directory's metadata.json under "fingerprint".
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace harness::lab {

// 64-bit FNV-1a, printed as 16 hex digits: stable across hosts and builds.
uint64_t fnv1a(const std::string &bytes, uint64_t seed = 0xcbf29ce484222325ull);
std::string hex64(uint64_t v);

// Hash of every *.yaml under the given files/directories: sorted by path
// relative to its root, each path and content hashed. Error text if none
// can be read.
std::variant<std::string, std::string> hash_case_files(const std::vector<std::string> &paths);

// Collects the fingerprint in a child process (it opens the KFD and every
// render node). `case_paths` feed the case-file hash. Never fails as a whole:
// a part that cannot be read is recorded as {"error": "..."} in its place, so
// a machine without GPUs still gets a kernel release and versions.
nlohmann::json collect_fingerprint(const std::vector<std::string> &case_paths);

// The harness version compiled in (`git describe --always --dirty`).
const char *harness_version();

// One line per field, for text reports.
std::string render_fingerprint_text(const nlohmann::json &fp);

// Fields a fingerprint must have; missing ones are returned (empty = complete).
std::vector<std::string> missing_fingerprint_fields(const nlohmann::json &fp);

} // namespace harness::lab
