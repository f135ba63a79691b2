// The harness's own peer API as the interpreter's runtime: its HIP entry
// points, its debug API for host access to device memory, and
// hipDeviceReset (which clears enabled peer access, CONTRACT.md §2) between
// instances.
#include "runtime.hpp"

#include <peer/hip_peer.h>

namespace harness::runner {
namespace {

class HarnessRuntime final : public Runtime {
  public:
    HarnessRuntime() {
#define PEER_RUNNER_HIP_BIND(ret, name, params, args) hip_.name = &::name;
        PEER_RUNNER_HIP_CALLS(PEER_RUNNER_HIP_BIND)
#undef PEER_RUNNER_HIP_BIND
    }
    RuntimeKind kind() const override {
        return RuntimeKind::harness;
    }
    hipError_t write_spans(void *device, const peerHostSpan *spans, size_t count) const override {
        return peerCpuWriteSpans(device, spans, count);
    }
    hipError_t equal_spans(const void *device, const peerHostSpan *spans, size_t count,
                           int *equal) const override {
        return peerCpuEqualSpans(device, spans, count, equal);
    }
    hipError_t read(const void *device, void *host, size_t bytes) const override {
        return peerCpuRead(device, host, bytes);
    }
    bool restore_fresh_state() const override {
        int n = 0;
        bool ok = true;
        // No device (or a runtime that failed to start): nothing is held, and a
        // new process would fail the same way.
        if (hipGetDeviceCount(&n) == hipSuccess) {
            for (int d = 0; d < n; ++d) {
                ok = ok && hipSetDevice(d) == hipSuccess;
                ok = ok && hipDeviceReset() == hipSuccess;
                ok = ok && peerSetCopyPacketMax(d, 0) == hipSuccess; // 0: the default
            }
            if (n > 0) ok = ok && hipSetDevice(0) == hipSuccess;
        }
        peerClearLastKernelError();
        return ok;
    }
};

} // namespace

const char *runtime_name(RuntimeKind kind) {
    return kind == RuntimeKind::rocm ? "rocm" : "harness";
}

std::unique_ptr<Runtime> make_harness_runtime() {
    return std::make_unique<HarnessRuntime>();
}

} // namespace harness::runner
