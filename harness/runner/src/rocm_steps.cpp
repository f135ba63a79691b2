#include "rocm_steps.hpp"

namespace harness::runner::detail {

using cases::StepKind;

RocmStep rocm_step(StepKind kind) {
    using A = RocmStep::Action;
    constexpr const char *kDebugApi =
        "the harness's debug API (peer_debug.h: raw engine access, copy chunking); ROCm has none";
    constexpr const char *kLayout =
        "its checks compare the properties with the harness's own device facts (peer_debug.h "
        "peerGetDeviceInfo, its kernel path)";
    constexpr const char *kKernel = "a raw kernel ioctl or a provoked GPU fault, not a HIP call";
    switch (kind) {
    case StepKind::raw_sdma_read:
    case StepKind::set_copy_packet_max:
        return {A::skip, kDebugApi};
    case StepKind::raw_sdma_write: // the bytes it writes are checked later
        return {A::end, kDebugApi};
    case StepKind::get_device_properties:
    case StepKind::device_get_attribute:
        return {A::skip, kLayout};
    case StepKind::stream_hold: // the work queued behind it is checked later
        return {A::end, "ROCclr waits on memory with its own kernel (__amd_rocclr_streamOpsWait; "
                        "its CP-wait setting needs HSA signal memory), which the simulator "
                        "cannot run"};
    case StepKind::selftest:
        return {A::end, "a self-test of the harness"};
    case StepKind::provoke:
    case StepKind::kernel_bo:
    case StepKind::kernel_bo_read:
    case StepKind::kernel_va:
    case StepKind::kernel_cs:
    case StepKind::kernel_wait:
    case StepKind::kernel_syncobj:
    case StepKind::kernel_dependency:
    case StepKind::kernel_dmabuf:
    case StepKind::kernel_vm:
    case StepKind::kernel_jobs:
    case StepKind::kernel_packet:
    case StepKind::kernel_kfd:
        return {A::end, kKernel};
    default:
        return {};
    }
}

} // namespace harness::runner::detail
