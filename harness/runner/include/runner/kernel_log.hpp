// Kernel-log verdicts: the amdgpu lines /dev/kmsg gained
// while an instance ran, the ones of this process only, classified into
// IGT's dmesg-warn / dmesg-fail. Runs inside the instance's child process.
#pragma once

#include <string>
#include <vector>

namespace harness::runner {

struct KmsgRecord {
    int priority = 6; // syslog level: 3 err, 4 warning
    std::string text; // after the ';'
};

struct KernelLogVerdict {
    std::vector<std::string> lines; // this process's amdgpu lines, in order
    bool unexpected_fault = false;  // a page fault no step asked for
    bool unexpected_reset = false;  // a ring timeout / GPU reset no step asked for
    bool warnings = false;          // other amdgpu lines at warning level or worse
    bool kernel_bug = false;        // a WARNING / BUG / Oops splat naming this process
    bool repeated_reset = false;    // one ring timeout of ours reset its device more than once
};

// Groups: a "page fault" or "ring ... timeout" line opens a group for its
// device; lines without a pid continue the open group of their device; the
// group is this process's when a line of it names `pid` ("pid N"). Lines of
// another pid, and orphan lines whose group began before the window, are not
// ours. A kernel splat (WARN(): "WARNING: CPU: n PID: p at ..."; an oops:
// "BUG: ..." / "Oops: ..." with its "CPU: n PID: p Comm: ..." task line) runs
// to the next splat, fault or reset opener or "---[ end trace"; it is ours
// when it names `pid` and then always fails the instance (`kernel_bug`): no
// step provokes a kernel bug on purpose. A timeout group of ours with more
// than one "GPU reset(n) succeeded!" of its device is `repeated_reset`: one
// timeout resets a device once (R60, 601429cca96b: an extra slot reset on top
// of the hive-wide one), asked for or not. `expect_fault` / `expect_reset`: a step provoked them on
// purpose.
KernelLogVerdict classify_kernel_log(const std::vector<KmsgRecord> &records, int pid,
                                     bool expect_fault, bool expect_reset);

// /dev/kmsg from its current end; read_new() returns the records since.
class KmsgWindow {
  public:
    KmsgWindow();
    ~KmsgWindow();
    KmsgWindow(const KmsgWindow &) = delete;
    KmsgWindow &operator=(const KmsgWindow &) = delete;
    bool available() const { return fd_ >= 0; }
    std::vector<KmsgRecord> read_new();

  private:
    int fd_ = -1;
};

} // namespace harness::runner
