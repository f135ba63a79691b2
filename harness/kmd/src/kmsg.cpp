#include "kmd/kmsg.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace kmd {
namespace {
constexpr size_t kMaxRecords = 4096;

bool has_device_prefix(std::string_view text, std::string_view slot) {
    // "amdgpu 0000:0c:00.0: ..." as dev_err prints it.
    const std::string_view tag = "amdgpu ";
    const size_t at = text.find(tag);
    if (at == std::string_view::npos) return false;
    std::string_view rest = text.substr(at + tag.size());
    return rest.substr(0, slot.size()) == slot && rest.substr(slot.size(), 1) == ":";
}
// The process a fault line names, when the line names one: kernels that print
// the task in the fault line itself append "for process NAME pid N thread
// NAME pid M" (gmc_v9_0_process_interrupt before the task info moved to its
// own line). Returns 0 when the line has no process information.
int process_pid(std::string_view text) {
    const std::string_view key = "for process ";
    const size_t at = text.find(key);
    if (at == std::string_view::npos) return 0;
    const size_t pid_at = text.find(" pid ", at + key.size());
    if (pid_at == std::string_view::npos) return 0;
    const char *begin = text.data() + pid_at + 5;
    int pid = 0;
    auto [end, ec] = std::from_chars(begin, text.data() + text.size(), pid);
    return ec == std::errc() && end != begin ? pid : 0;
}
} // namespace

KmsgLog::KmsgLog() {
    fd_ = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ >= 0 && ::lseek(fd_, 0, SEEK_END) < 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

KmsgLog::~KmsgLog() {
    if (fd_ >= 0) ::close(fd_);
}

void KmsgLog::drain_locked() {
    if (fd_ < 0) return;
    // The real /dev/kmsg returns one record per read; a plain file standing in
    // for it returns many. Split on newlines either way and keep a partial
    // last line for the next read. Lines starting with a space are the
    // record's dictionary (SUBSYSTEM=, DEVICE=) and are skipped.
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n < 0) {
            if (errno == EPIPE || errno == EINTR) continue; // records overwritten; go on
            return;                                         // EAGAIN: nothing new
        }
        if (n == 0) return;
        carry_.append(buf, size_t(n));
        size_t start = 0;
        for (size_t nl; (nl = carry_.find('\n', start)) != std::string::npos; start = nl + 1) {
            std::string_view line(carry_.data() + start, nl - start);
            if (line.empty() || line.front() == ' ') continue;
            const size_t semi = line.find(';');
            if (semi != std::string_view::npos) line.remove_prefix(semi + 1);
            records_.push_back({next_index_++, std::string(line)});
        }
        carry_.erase(0, start);
        if (records_.size() > kMaxRecords)
            records_.erase(records_.begin(),
                           records_.begin() + (records_.size() - kMaxRecords / 2));
    }
}

uint64_t KmsgLog::mark() {
    // No read here: every job's faults_since() drains the log after the job,
    // so anything not read yet was logged after the previous job finished.
    // That keeps a job to one read of the log.
    std::lock_guard lock(mu_);
    return next_index_ - 1;
}

std::vector<KmsgFault> KmsgLog::faults_since(uint64_t mark, std::string_view pci_slot) {
    std::lock_guard lock(mu_);
    drain_locked();
    // The log is system-wide: another process's fault on the same device (a
    // concurrent test instance, another user of the GPU) must not be taken
    // for this job's.
    const int own_pid = static_cast<int>(::getpid());
    std::vector<KmsgFault> out;
    bool last_was_ours = false;
    for (const Record &r : records_) {
        if (r.index <= mark) continue;
        uint64_t addr = 0;
        if (has_device_prefix(r.text, pci_slot) && r.text.find("page fault") != std::string::npos) {
            last_was_ours = parse_fault_line(r.text, pci_slot, own_pid);
            if (last_was_ours) out.push_back({0, r.text});
        } else if (last_was_ours && out.back().address == 0 &&
                   parse_address_line(r.text, pci_slot, addr)) {
            out.back().address = addr;
        }
    }
    return out;
}

bool KmsgLog::parse_fault_line(std::string_view text, std::string_view pci_slot, int pid) {
    if (!has_device_prefix(text, pci_slot) || text.find("page fault") == std::string_view::npos)
        return false;
    const int logged = process_pid(text);
    return pid == 0 || logged == 0 || logged == pid;
}

bool KmsgLog::parse_address_line(std::string_view text, std::string_view pci_slot,
                                 uint64_t &address) {
    if (!has_device_prefix(text, pci_slot)) return false;
    const std::string_view key = "in page starting at address 0x";
    const size_t at = text.find(key);
    if (at == std::string_view::npos) return false;
    const std::string hex(text.substr(at + key.size(), 16));
    char *end = nullptr;
    address = std::strtoull(hex.c_str(), &end, 16);
    return end != hex.c_str();
}

} // namespace kmd
