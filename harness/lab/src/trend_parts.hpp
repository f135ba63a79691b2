// Pieces of trend.html shared by its files. Private to harness/lab.
#pragma once

#include "lab/trend.hpp"

#include <string>

namespace harness::lab::trend {

// A change point other than "recovered" at night i (0-based), for `subject`
// ("" = any).
bool is_change_night(const Trend &t, size_t i, const std::string &subject = "");
// One ordered pair as an inline SVG: outcome per night, GB/s per night with
// the link's peak, change points marked.
std::string pair_chart(const Trend &t, int a, int b);

} // namespace harness::lab::trend
