// The progress line on a terminal: instances done, failures, time left.
// Silent when stderr is not a terminal (CI logs stay clean).
#pragma once

#include <chrono>
#include <string>

namespace harness::runner {

class Progress {
  public:
    Progress(int total, bool enabled);
    void update(const std::string &last_name, bool failed);
    void finish();
    // The line itself, a pure function (tested without a terminal).
    static std::string line(int done, int total, int failures, double elapsed_s,
                            const std::string &last_name);

  private:
    int total_, done_ = 0, failures_ = 0;
    bool enabled_;
    std::chrono::steady_clock::time_point start_;
};

} // namespace harness::runner
