// Text made safe inside XML and HTML (JUnit reports, report.html, trend.html,
// bisect reports): one escape for both, since either parses what it writes.
#pragma once

#include <string>

namespace harness::report {

// & < > " ' as entities; control characters other than tab and newline,
// which XML 1.0 forbids even escaped, as '?'.
std::string markup_escape(const std::string &s);

} // namespace harness::report
