// Kernel-log verdicts: which amdgpu lines are this process's, and which of
// them fail the instance.
#include "runner/kernel_log.hpp"

#include <catch2/catch.hpp>

using harness::runner::classify_kernel_log;
using harness::runner::KmsgRecord;

namespace {

const std::string A = "amdgpu 0000:23:00.0: amdgpu: ";
const std::string B = "amdgpu 0000:43:00.0: amdgpu: ";

std::vector<KmsgRecord> fault(const std::string &dev, int pid) {
    return {{3, dev + "[mmhub] page fault (src_id:0 ring:0 vmid:8 pasid:32769, for process x pid " +
                    std::to_string(pid) + " thread x pid " + std::to_string(pid) + ")"},
            {3, dev + "  in page starting at address 0x0000000102400000 from IH client 0x12"},
            {3, dev + "VM_L2_PROTECTION_FAULT_STATUS:0x00301031"}};
}

std::vector<KmsgRecord> hang(const std::string &dev, int pid) {
    return {{3, dev + "ring sdma0 timeout, signaled seq=4, emitted seq=5"},
            {3, dev + " Process information: process x pid " + std::to_string(pid) +
                    " thread x pid " + std::to_string(pid)},
            {4, dev + "GPU reset begin!"},
            {4, dev + "GPU reset(1) succeeded!"}};
}

// WARN(): __warn's first line names the task; amdgpu's part of the trace
// names none.
std::vector<KmsgRecord> warn_splat(int pid) {
    return {{4, "WARNING: CPU: 3 PID: " + std::to_string(pid) +
                    " at drivers/dma-buf/dma-resv.c:342 dma_resv_iter_first+0x3a/0x50"},
            {4, A + "Call Trace: amdgpu_vm_sdma_update"},
            {4, "RIP: 0010:dma_resv_iter_first+0x3a/0x50"}};
}

// An oops: the task is named on the line after BUG.
std::vector<KmsgRecord> oops(int pid) {
    return {{1, "BUG: kernel NULL pointer dereference, address: 0000000000000008"},
            {4, "CPU: 3 PID: " + std::to_string(pid) + " Comm: peer-harness Not tainted"},
            {4, "RIP: 0010:amdgpu_ttm_clear_buffer+0x4c/0x1e0 [amdgpu] (0000:23:00.0)"},
            {4, "Oops: 0000 [#1] PREEMPT SMP NOPTI"}};
}

std::vector<KmsgRecord> cat(std::vector<KmsgRecord> a, const std::vector<KmsgRecord> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

TEST_CASE("kernel log: table of verdicts", "[kmsg]") {
    struct Row {
        const char *what;
        std::vector<KmsgRecord> log;
        bool expect_fault, expect_reset;
        size_t lines;
        bool bad_fault, bad_reset, warn;
        bool bug; // a WARNING / oops splat of ours
    };
    const Row rows[] = {
        {"nothing logged", {}, false, false, 0, false, false, false, false},
        {"our fault, not asked", fault(A, 100), false, false, 3, true, false, false, false},
        {"our fault, asked", fault(A, 100), true, false, 3, false, false, false, false},
        {"another process's fault", fault(A, 200), false, false, 0, false, false, false, false},
        {"our hang, not asked", hang(B, 100), false, false, 4, false, true, false, false},
        {"our hang, asked", hang(B, 100), false, true, 4, false, false, false, false},
        {"another process's hang", hang(B, 200), false, false, 0, false, false, false, false},
        {"interleaved devices: theirs on A, ours on B", cat(fault(A, 200), hang(B, 100)), false,
         true, 4, false, false, false, false},
        {"a fault does not excuse a reset", cat(fault(A, 100), hang(A, 100)), true, false, 7, false,
         true, false, false},
        {"orphan continuation lines are not ours",
         {{4, A + "GPU reset begin!"}, {3, A + "VM_L2_PROTECTION_FAULT_STATUS:0x1"}},
         false,
         false,
         0,
         false,
         false,
         false,
         false},
        {"a warning naming us",
         {{4, A + "something odd for process x pid 100"}},
         false,
         false,
         1,
         false,
         false,
         true,
         false},
        {"our WARN splat", warn_splat(100), true, true, 3, false, false, false, true},
        {"another process's WARN splat", warn_splat(200), false, false, 0, false, false, false,
         false},
        {"our oops, pid on the task line", oops(100), true, true, 4, false, false, false, true},
        {"another process's oops", oops(200), false, false, 0, false, false, false, false},
        {"a splat ends at its end marker",
         cat(cat(warn_splat(200), {{4, "---[ end trace 0000000000000000 ]---"}}),
             {{4, A + "something odd for process x pid 100"}}),
         false, false, 1, false, false, true, false},
        {"a fault after our splat is still judged", cat(warn_splat(100), fault(A, 100)), false,
         false, 6, true, false, false, true},
        {"our hang, asked, its device reset twice",
         cat(hang(B, 100), {{4, B + "GPU reset(2) succeeded!"}}), false, true, 5, false, false,
         false, false},
        {"not amdgpu's",
         {{3, "usb 1-1: reset high-speed USB device pid 100"}},
         false,
         false,
         0,
         false,
         false,
         false,
         false},
    };
    for (const auto &r : rows) {
        INFO(r.what);
        const auto v = classify_kernel_log(r.log, 100, r.expect_fault, r.expect_reset);
        CHECK(v.lines.size() == r.lines);
        CHECK(v.unexpected_fault == r.bad_fault);
        CHECK(v.unexpected_reset == r.bad_reset);
        CHECK(v.warnings == r.warn);
        CHECK(v.kernel_bug == r.bug);
        // Only the row whose device was reset twice for one timeout.
        CHECK(v.repeated_reset == (std::string(r.what).find("reset twice") != std::string::npos));
    }
}
