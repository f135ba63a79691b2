// The results journal (results.jsonl): append-only, one JSON object per line,
// each line written with a single write(2) as soon as it is known, so killing
// the runner loses nothing already finished (IGT-4). A "start" line precedes
// each instance's run and an "end" line follows it; a start without an end
// means the runner died during that instance.
#pragma once

#include "report/record.hpp"

#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace harness::report {

class JournalWriter {
  public:
    // Opens for appending; a torn last line (runner killed mid-write) is
    // terminated first so the next line parses. `sync` adds fdatasync per
    // line, for machines that may lose power or hard-hang.
    static std::variant<JournalWriter, std::string> open(const std::string &path, bool sync);
    JournalWriter(JournalWriter &&other) noexcept;
    JournalWriter &operator=(JournalWriter &&other) noexcept;
    JournalWriter(const JournalWriter &) = delete;
    JournalWriter &operator=(const JournalWriter &) = delete;
    ~JournalWriter();

    // Return an error text, empty on success.
    std::string start(int index, const std::string &name);
    std::string end(const InstanceRecord &record);

  private:
    JournalWriter(int fd, bool sync) : fd_(fd), sync_(sync) {}
    std::string write_line(const std::string &line);
    int fd_ = -1;
    bool sync_ = false;
};

struct JournalState {
    std::map<std::string, InstanceRecord> ended; // by instance name; last end wins
    std::map<std::string, int> started_only;     // name -> index: began, never ended
    std::vector<std::string> problems;           // unreadable lines, with line numbers
};

// A missing file is an empty journal (a run that never started an instance).
JournalState read_journal(const std::string &path);

// The records of a finished or interrupted run: every ended instance, plus an
// "incomplete" record for each started-but-unended one.
std::vector<InstanceRecord> records_of(const JournalState &state);

} // namespace harness::report
