// The outcome of a kernel-facing call: the kernel's errno and the name of the
// call that produced it. Nothing in the kmd layer swallows an errno; it is
// carried up as a value so the peer API can map it (harness/peer/CONTRACT.md §3) and
// record it (peerLastKernelError).
#pragma once

#include <string>

namespace kmd {

struct Status {
    int err = 0;                // positive errno, 0 = success
    const char *call = nullptr; // static string: ioctl or libc call name

    bool ok() const { return err == 0; }
    explicit operator bool() const { return ok(); }
    static Status success() { return {}; }
    // libdrm returns -errno; this takes that form.
    static Status from_ret(int ret, const char *call) {
        return ret < 0 ? Status{-ret, call} : Status{};
    }
    static Status fail(int err, const char *call) { return Status{err, call}; }
    // "AMDGPU_GEM_VA: EINVAL (22)"
    std::string describe() const;
};

// Symbolic name of an errno ("EINVAL", harness/errnos' table); "OK" for 0,
// "E?" for a value the table does not name.
const char *errno_name(int err);

} // namespace kmd
