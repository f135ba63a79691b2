#include "report/journal.hpp"

#include "report/tokens.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

namespace harness::report {

std::variant<JournalWriter, std::string> JournalWriter::open(const std::string &path, bool sync) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot open journal " + path + ": " + std::strerror(errno);
    off_t size = ::lseek(fd, 0, SEEK_END);
    if (size > 0) {
        char last = '\n';
        if (::pread(fd, &last, 1, size - 1) == 1 && last != '\n') {
            // End the torn line; the reader reports and skips it.
            if (::write(fd, "\n", 1) != 1) {
                ::close(fd);
                return "cannot repair journal " + path + ": " + std::strerror(errno);
            }
        }
    }
    return JournalWriter(fd, sync);
}

JournalWriter::JournalWriter(JournalWriter &&o) noexcept : fd_(o.fd_), sync_(o.sync_) {
    o.fd_ = -1;
}

JournalWriter &JournalWriter::operator=(JournalWriter &&o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.fd_;
        sync_ = o.sync_;
        o.fd_ = -1;
    }
    return *this;
}

JournalWriter::~JournalWriter() {
    if (fd_ >= 0) ::close(fd_);
}

std::string JournalWriter::write_line(const std::string &line) {
    std::string buf = line + "\n";
    // One write per line: O_APPEND makes it land whole at the end.
    size_t done = 0;
    while (done < buf.size()) {
        ssize_t n = ::write(fd_, buf.data() + done, buf.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return std::string("journal write failed: ") + std::strerror(errno);
        done += static_cast<size_t>(n);
    }
    if (sync_) ::fdatasync(fd_);
    return {};
}

std::string JournalWriter::start(int index, const std::string &name) {
    nlohmann::json j;
    j[tokens::kEvent] = tokens::kEventStart;
    j["index"] = index;
    j["name"] = name;
    return write_line(j.dump());
}

std::string JournalWriter::end(const InstanceRecord &record) {
    nlohmann::json j = to_json(record);
    j[tokens::kEvent] = tokens::kEventEnd;
    return write_line(j.dump());
}

JournalState read_journal(const std::string &path) {
    JournalState st;
    std::ifstream in(path);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty()) continue;
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            st.problems.push_back(path + ":" + std::to_string(lineno) +
                                  ": unreadable journal line (torn write?), ignored");
            continue;
        }
        std::string event = j.value(tokens::kEvent, "");
        std::string name = j.value("name", "");
        if (event == tokens::kEventStart) {
            if (!st.ended.count(name)) st.started_only[name] = j.value("index", 0);
        } else if (event == tokens::kEventEnd) {
            std::string err;
            auto r = record_from_json(j, err);
            if (!r) {
                st.problems.push_back(path + ":" + std::to_string(lineno) + ": " + err);
                continue;
            }
            st.started_only.erase(name);
            st.ended[name] = std::move(*r);
        } else {
            st.problems.push_back(path + ":" + std::to_string(lineno) + ": unknown event '" +
                                  event + "'");
        }
    }
    return st;
}

std::vector<InstanceRecord> records_of(const JournalState &state) {
    std::vector<InstanceRecord> out;
    for (const auto &[name, r] : state.ended)
        out.push_back(r);
    for (const auto &[name, index] : state.started_only) {
        InstanceRecord r;
        r.name = name;
        r.index = index;
        r.status = Status::incomplete;
        r.reason = "started but never ended: the runner died during this instance";
        size_t s1 = name.find('/'), s2 = name.find('/', s1 == std::string::npos ? 0 : s1 + 1);
        r.suite = name.substr(0, s1);
        if (s1 != std::string::npos) r.kase = name.substr(s1 + 1, s2 - s1 - 1);
        out.push_back(std::move(r));
    }
    // Sorted by run order, then name: reports diff cleanly (DR-3).
    std::sort(out.begin(), out.end(), [](const InstanceRecord &a, const InstanceRecord &b) {
        return a.index != b.index ? a.index < b.index : a.name < b.name;
    });
    return out;
}

} // namespace harness::report
