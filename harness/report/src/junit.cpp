#include "report/junit.hpp"

#include "report/markup.hpp"

#include <fmt/format.h>

#include <map>

namespace harness::report {

std::string render_junit(const std::vector<InstanceRecord> &records, const std::string &run_name) {
    std::map<std::string, std::vector<const InstanceRecord *>> by_suite;
    for (const auto &r : records)
        by_suite[r.suite].push_back(&r);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"{}\">\n", markup_escape(run_name));
    for (const auto &[suite, recs] : by_suite) {
        int failures = 0, errors = 0, skipped = 0;
        double time = 0;
        for (const auto *r : recs) {
            failures += r->status == Status::fail;
            errors += r->status == Status::crash || r->status == Status::timeout ||
                      r->status == Status::incomplete || r->status == Status::dmesg_fail;
            skipped += r->status == Status::skip;
            time += r->duration_s;
        }
        out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                           "skipped=\"{}\" time=\"{:.3f}\">\n",
                           markup_escape(suite), recs.size(), failures, errors, skipped, time);
        for (const auto *r : recs) {
            out += fmt::format("    <testcase classname=\"{}.{}\" name=\"{}\" time=\"{:.3f}\"",
                               markup_escape(r->suite), markup_escape(r->kase),
                               markup_escape(r->name), r->duration_s);
            std::string body;
            std::string detail;
            for (const auto &f : r->failures)
                detail += fmt::format("{}:{}: step {}: {}\n", f.file, f.line, f.step, f.message);
            for (const auto &k : r->kernel_errors)
                detail += "kernel: " + k + "\n";
            for (const auto &k : r->kernel_log)
                detail += "kmsg: " + k + "\n";
            switch (r->status) {
            case Status::pass:
                break;
            case Status::dmesg_warn:
                body = fmt::format("      <system-out>{}</system-out>\n", markup_escape(detail));
                break;
            case Status::skip:
                body = fmt::format("      <skipped message=\"{}\"/>\n", markup_escape(r->reason));
                break;
            case Status::fail:
                body = fmt::format("      <failure message=\"{}\">{}</failure>\n",
                                   markup_escape(r->reason), markup_escape(detail));
                break;
            default:
                body = fmt::format("      <error type=\"{}\" message=\"{}\">{}</error>\n",
                                   status_name(r->status), markup_escape(r->reason),
                                   markup_escape(detail));
            }
            out += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
        }
        out += "  </testsuite>\n";
    }
    out += "</testsuites>\n";
    return out;
}

} // namespace harness::report
