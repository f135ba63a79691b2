#include "runner/progress.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <unistd.h>

namespace harness::runner {

Progress::Progress(int total, bool enabled)
    : total_(total), enabled_(enabled && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {}

std::string Progress::line(int done, int total, int failures, double elapsed_s,
                           const std::string &last_name) {
    std::string eta = "?";
    if (done > 0 && total >= done) eta = fmt::format("{:.0f} s", elapsed_s / done * (total - done));
    std::string name =
        last_name.size() > 48 ? "..." + last_name.substr(last_name.size() - 45) : last_name;
    return fmt::format("[{}/{}] {} failed | {:.0f} s elapsed, ~{} left | {}", done, total, failures,
                       elapsed_s, eta, name);
}

void Progress::update(const std::string &last_name, bool failed) {
    ++done_;
    failures_ += failed;
    if (!enabled_) return;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r\033[K%s", line(done_, total_, failures_, el, last_name).c_str());
    std::fflush(stderr);
}

void Progress::finish() {
    if (enabled_ && done_ > 0) {
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
    }
}

} // namespace harness::runner
