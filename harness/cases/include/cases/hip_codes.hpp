// HIP error names and their numeric values (harness/peer/CONTRACT.md, introduction),
// the one table through which a case file's `expect: hipErrorX` becomes a
// number. Kept here rather than taken from the peer API's header so the case
// loader can validate files without linking the API; the runner's tests check
// that both agree value by value.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace harness::cases {

struct HipCode {
    const char *name;
    int value;
};

std::span<const HipCode> hip_codes();
std::optional<int> hip_code_value(std::string_view name);
// "hipErrorX" for a known value, "hipError(<n>)" otherwise, so an unexpected
// code is still printed legibly.
std::string hip_code_name(int value);

// The documented function/code pairs of harness/peer/CONTRACT.md §1 (13) and §5 (the rest): what
// the default suite must assert (checked by the coverage test).
struct DocumentedPair {
    const char *function; // step name in the case language
    const char *code;
};
std::span<const DocumentedPair> documented_pairs();

} // namespace harness::cases
