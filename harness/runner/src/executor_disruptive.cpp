// The `provoke` step: a hang or a VM fault on purpose, with
// every outcome harness/peer/CONTRACT.md §3 and the kernel promise asserted in order,
// then the recovery. Always run on the simulator; on hardware only with
// --allow-disruptive (the loader marks such cases disruptive).
#include "executor_impl.hpp"

#include "cases/hip_codes.hpp"
#include "cases/pattern.hpp"

#include <peer/peer_debug.h>

#include <amdgpu_drm.h>
#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace harness::runner::detail {

namespace {

// An opcode no SDMA generation (v4-v7) defines: the engine stops on it and
// the job times out (amdgpu_job_timedout).
constexpr uint32_t kUndefinedOpcode = 0xff;
constexpr uint32_t kNop = 0;

std::string ctx_flags(int device, uint64_t &flags) {
    hipError_t e = peerGetContextResetState(device, &flags);
    if (e != hipSuccess)
        return fmt::format("peerGetContextResetState({}) (AMDGPU_CTX_OP_QUERY_STATE2) returned {}",
                           device, hip_code_name(e));
    return {};
}

} // namespace

// After a reset: a fresh buffer on `device`, written by the engine (host to
// device copy) and read back through the CPU mapping, must hold the bytes.
std::string Interpreter::copy_works(int device, const char *after) {
    if (auto m = set_current(device); !m.empty()) return m;
    void *p = nullptr;
    constexpr size_t n = 64 * 1024 + 3;
    if (hipError_t e = hipMalloc(&p, n); e != hipSuccess)
        return fmt::format("after {}: hipMalloc on device {} returned {}", after, device,
                           hip_code_name(e));
    std::vector<uint8_t> want(n), got(n, kPoison);
    fill_pattern(PatternKind::lfsr, 0x5eed, 0, want.data(), n);
    std::string out;
    if (hipError_t e = hipMemcpyHtoD(p, want.data(), n); e != hipSuccess)
        out = fmt::format("after {}: a copy on device {} returned {}; the device did not recover",
                          after, device, hip_code_name(e));
    else if (hipError_t r = peerCpuRead(p, got.data(), n); r != hipSuccess)
        out = fmt::format("after {}: peerCpuRead returned {}", after, hip_code_name(r));
    else if (got != want)
        out = fmt::format("after {}: a copy on device {} reported success but the buffer does not "
                          "hold the bytes",
                          after, device);
    hipFree(p);
    return out;
}

std::string Interpreter::reset_device(int device) {
    if (auto m = set_current(device); !m.empty()) return m;
    if (hipError_t e = hipDeviceReset(); e != hipSuccess)
        return fmt::format("hipDeviceReset on device {} returned {}", device, hip_code_name(e));
    for (auto &[name, b] : buffers_)
        if (b.device == device) b.live = false;
    std::erase_if(enabled_, [&](const auto &p) { return p.first == device || p.second == device; });
    return {};
}

std::string Interpreter::provoke(const Step &s) {
    const int dev = static_cast<int>(num(s, "device", 0));
    const std::string outcome = word(s, "outcome", "hang");
    uint64_t flags = 0;
    if (auto m = ctx_flags(dev, flags); !m.empty()) return m;
    if (flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY)
        return fmt::format("device {}'s context is guilty before anything was provoked", dev);
    peerRawAccessResult r{};

    if (outcome == "hang") {
        // 1. HIP code and fence error: the job times out, WAIT_CS reports -ETIME.
        const uint32_t bad[] = {kUndefinedOpcode};
        hipError_t e = peerRawSdmaSubmit(dev, bad, 1, &r);
        if (e != hipErrorLaunchTimeOut)
            return fmt::format("a malformed SDMA packet on device {} returned {} ({} {}); a hung "
                               "job must be hipErrorLaunchTimeOut with its fence in error",
                               dev, hip_code_name(e), r.kernel_call,
                               r.kernel_errno ? std::strerror(r.kernel_errno) : "no errno");
        if (r.kernel_errno != ETIME)
            return fmt::format("the hung job's fence error is {} ({}), expected ETIME",
                               r.kernel_errno, r.kernel_call);
        // 2. The kernel marks the context guilty (QUERY_STATE2).
        if (auto m = ctx_flags(dev, flags); !m.empty()) return m;
        if (!(flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY))
            return fmt::format("after the hang device {}'s context is not guilty "
                               "(QUERY_STATE2 flags 0x{:x})",
                               dev, flags);
        // 3. Every later job of the guilty context is refused.
        const uint32_t nop[] = {kNop};
        e = peerRawSdmaSubmit(dev, nop, 1, &r);
        if (e != hipErrorLaunchFailure)
            return fmt::format("a job on the guilty context returned {}, expected "
                               "hipErrorLaunchFailure (-ECANCELED from AMDGPU_CS)",
                               hip_code_name(e));
        expected_kernel_events_ |= kExpectReset;
    } else {
        // 1. An access to a VA that was mapped and is not any more.
        void *p = nullptr;
        if (auto m = set_current(dev); !m.empty()) return m;
        if (hipError_t e = hipMalloc(&p, 8192); e != hipSuccess)
            return fmt::format("hipMalloc for the fault target returned {}", hip_code_name(e));
        hipFree(p);
        const uint64_t va = reinterpret_cast<uintptr_t>(p) + 0x40;
        uint8_t sink[64];
        hipError_t e = peerRawSdmaRead(dev, reinterpret_cast<void *>(va), sink, sizeof sink, &r);
        if (e != hipErrorIllegalAddress || !r.vm_fault)
            return fmt::format("an SDMA read of a freed VA on device {} returned {}{}; it must be "
                               "hipErrorIllegalAddress with a VM fault",
                               dev, hip_code_name(e), r.vm_fault ? "" : " and no VM fault");
        // 2. The fault info names the page (GPUVM_FAULT / the fault cache).
        if (r.fault_address != 0 && (r.fault_address >> 12) != (va >> 12))
            return fmt::format("the VM fault reported page 0x{:x}, the access was at 0x{:x}",
                               r.fault_address, va);
        // 3. A fault is not a hang: the context stays innocent, the next job runs.
        if (auto m = ctx_flags(dev, flags); !m.empty()) return m;
        if (flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY)
            return fmt::format("a VM fault made device {}'s context guilty (flags 0x{:x})", dev,
                               flags);
        const uint32_t nop[] = {kNop};
        if (hipError_t n = peerRawSdmaSubmit(dev, nop, 1, &r); n != hipSuccess)
            return fmt::format("the job after a VM fault returned {}", hip_code_name(n));
        expected_kernel_events_ |= kExpectVmFault;
    }
    // 4. Recovery: hipDeviceReset, then a copy works.
    if (auto m = reset_device(dev); !m.empty()) return m;
    if (auto m = ctx_flags(dev, flags); !m.empty()) return m;
    if (flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY)
        return fmt::format("after hipDeviceReset device {}'s context is still guilty", dev);
    return copy_works(dev, "hipDeviceReset");
}

} // namespace harness::runner::detail
