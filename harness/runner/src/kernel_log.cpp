#include "runner/kernel_log.hpp"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <unistd.h>

namespace harness::runner {

namespace {

// "amdgpu 0000:23:00.0: ..." -> "0000:23:00.0"; empty when not amdgpu's.
std::string amdgpu_slot(const std::string &text) {
    if (text.rfind("amdgpu ", 0) != 0) return {};
    const size_t colon = text.find(": ", 7);
    return colon == std::string::npos ? std::string() : text.substr(7, colon - 7);
}

// The pid a line names ("... pid 1234 ..."), -1 if none. The first one is
// the process (the thread's follows it).
int named_pid(const std::string &text) {
    const size_t at = text.find(" pid ");
    if (at == std::string::npos) return -1;
    char *end = nullptr;
    long v = std::strtol(text.c_str() + at + 5, &end, 10);
    return end == text.c_str() + at + 5 ? -1 : static_cast<int>(v);
}

// The pid a kernel splat names: "WARNING: CPU: 3 PID: 1234 at ..." or the
// task line of an oops, "CPU: 3 PID: 1234 Comm: x ..." (dump_stack_print_info,
// __warn); -1 if none.
int splat_pid(const std::string &text) {
    const size_t at = text.find(" PID: ");
    if (at == std::string::npos) return -1;
    char *end = nullptr;
    long v = std::strtol(text.c_str() + at + 6, &end, 10);
    return end == text.c_str() + at + 6 ? -1 : static_cast<int>(v);
}

// The first line of a kernel splat: WARN() (__warn: "WARNING: CPU: ..."), a
// BUG()/NULL dereference ("BUG: ..."), or an oops without a BUG line first
// ("Oops: ..." / "general protection fault").
bool opens_splat(const std::string &t, bool bug_open) {
    if (t.rfind("WARNING: ", 0) == 0 || t.rfind("BUG: ", 0) == 0) return true;
    if (t.rfind("general protection fault", 0) == 0) return true;
    return t.rfind("Oops: ", 0) == 0 && !bug_open; // after a BUG line it is the same oops
}
bool closes_splat(const std::string &t) {
    return t.rfind("---[ end trace", 0) == 0;
}

// amdgpu_device_gpu_recover's closing line, one per device reset.
bool counts_reset(const std::string &t) {
    return t.find("GPU reset(") != std::string::npos && t.find("succeeded") != std::string::npos;
}

bool opens_fault(const std::string &t) {
    return t.find("page fault") != std::string::npos;
}
bool opens_reset(const std::string &t) {
    return t.find(" timeout") != std::string::npos && t.find("ring ") != std::string::npos;
}

} // namespace

KernelLogVerdict classify_kernel_log(const std::vector<KmsgRecord> &records, int pid,
                                     bool expect_fault, bool expect_reset) {
    struct Group {
        bool fault = false;
        int owner = -1; // pid, -1 until a line names it
        int resets = 0; // "GPU reset(n) succeeded!" lines of the device
        std::vector<const KmsgRecord *> lines;
    };
    KernelLogVerdict v;
    // A splat is not per device: its lines follow the opener in the log
    // until the next splat or its end marker; it is ours when its WARNING or
    // task line names `pid`. (Splats of other tasks interleaving with ours
    // cannot be told apart without the kernel's caller ids; not attempted.)
    struct Splat {
        bool open = false, bug = false;
        int owner = -1;
        std::vector<const KmsgRecord *> lines;
    } splat;
    auto end_splat = [&] {
        if (splat.open && splat.owner == pid) {
            v.kernel_bug = true;
            for (const auto *l : splat.lines)
                v.lines.push_back(l->text);
        }
        splat = Splat{};
    };
    std::vector<Group> done;
    std::map<std::string, Group> open; // by device slot
    auto close = [&](const std::string &slot) {
        auto it = open.find(slot);
        if (it == open.end()) return;
        done.push_back(std::move(it->second));
        open.erase(it);
    };
    for (const auto &r : records) {
        if (opens_splat(r.text, splat.open && splat.bug)) {
            end_splat();
            splat.open = true;
            splat.bug = r.text.rfind("WARNING: ", 0) != 0;
            splat.owner = splat_pid(r.text);
            splat.lines.push_back(&r);
            continue;
        }
        if (closes_splat(r.text)) {
            if (splat.open) splat.lines.push_back(&r);
            end_splat();
            continue;
        }
        const std::string slot = amdgpu_slot(r.text);
        const int p = slot.empty() ? -1 : named_pid(r.text);
        if (splat.open && !opens_fault(r.text) && !opens_reset(r.text) && (slot.empty() || p < 0)) {
            // Part of the splat: its task line, registers, call trace (some
            // of it printed by amdgpu without a pid).
            if (splat.owner < 0) splat.owner = splat_pid(r.text);
            splat.lines.push_back(&r);
            continue;
        }
        if (slot.empty()) continue;
        if (opens_fault(r.text) || opens_reset(r.text)) {
            end_splat();
            close(slot);
            Group g;
            g.fault = opens_fault(r.text);
            g.owner = p;
            g.lines.push_back(&r);
            open[slot] = std::move(g);
            continue;
        }
        auto it = open.find(slot);
        if (it != open.end() && (p < 0 || it->second.owner < 0 || p == it->second.owner)) {
            if (it->second.owner < 0) it->second.owner = p;
            if (counts_reset(r.text)) ++it->second.resets;
            it->second.lines.push_back(&r);
            continue;
        }
        // A line of its own: ours only when it names this process.
        if (p == pid) {
            v.lines.push_back(r.text);
            if (r.priority <= 4) v.warnings = true;
        }
    }
    end_splat();
    for (auto &[slot, g] : open)
        done.push_back(std::move(g));
    for (const auto &g : done) {
        if (g.owner != pid) continue;
        for (const auto *l : g.lines)
            v.lines.push_back(l->text);
        if (g.fault && !expect_fault) v.unexpected_fault = true;
        if (!g.fault && !expect_reset) v.unexpected_reset = true;
        if (!g.fault && g.resets > 1) v.repeated_reset = true;
    }
    return v;
}

KmsgWindow::KmsgWindow() {
    fd_ = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ >= 0 && ::lseek(fd_, 0, SEEK_END) < 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

KmsgWindow::~KmsgWindow() {
    if (fd_ >= 0) ::close(fd_);
}

std::vector<KmsgRecord> KmsgWindow::read_new() {
    std::vector<KmsgRecord> out;
    if (fd_ < 0) return out;
    char buf[8192];
    std::string pending; // a record split across two reads (a regular file)
    for (;;) {
        // The kernel's /dev/kmsg gives one record per read, "prio,seq,usec,
        // flags;text\n" plus continuation lines (" KEY=value"); a file
        // standing in for it (the simulator's) gives many per read. Every
        // line with a ';' header is a record; others continue the last one.
        const ssize_t n = ::read(fd_, buf, sizeof buf - 1);
        if (n < 0 && errno == EPIPE) continue; // overwritten records: go on
        if (n <= 0) break;
        pending.append(buf, static_cast<size_t>(n));
        size_t start = 0;
        for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
            const std::string line = pending.substr(start, nl - start);
            if (line.empty() || line[0] == ' ') continue; // continuation (dictionary) line
            const size_t semi = line.find(';');
            if (semi == std::string::npos) continue;
            KmsgRecord r;
            r.priority = std::atoi(line.c_str()) & 7;
            r.text = line.substr(semi + 1);
            out.push_back(std::move(r));
        }
        pending.erase(0, start);
    }
    return out;
}

} // namespace harness::runner
