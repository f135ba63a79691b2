// ROCm's runtime on the simulator: the copies and fills ROCclr runs as its
// own kernels (__amd_rocclr_copyBuffer for a copy within one device's memory,
// __amd_rocclr_fillBufferAligned for hipMemset of device memory), which the
// simulated CP refuses (amdgpu-sim kfd/README.md, "AQL queues"). Where the
// step expects success the interpreter does them through host copies and
// answers "not comparable"; an asynchronous one (it may sit behind held
// work) also ends the comparison of its instance. A step that expects an
// error runs on ROCm: argument checks come before any kernel.
#include "executor_impl.hpp"
#include "rocm_steps.hpp"

#include <vector>

namespace harness::runner::detail {

namespace {

constexpr const char *kFillKernel =
    "ROCclr fills device memory with its own kernel (__amd_rocclr_fillBufferAligned), "
    "which the simulator cannot run: done through host copies";
constexpr const char *kCopyKernel =
    "ROCclr copies within one device's memory with its own kernel (__amd_rocclr_copyBuffer), "
    "which the simulator cannot run: done through host copies";

} // namespace

Buffer *Interpreter::device_buffer_at(const void *p) {
    const auto *c = static_cast<const char *>(p);
    for (auto &[name, b] : buffers_)
        if (b.live && b.host == Buffer::Host::no && b.device >= 0 && c >= b.base &&
            c < b.base + b.alloc_bytes)
            return &b;
    return nullptr;
}

bool Interpreter::rocclr_fill(void *dst, int value, size_t n, bool async) {
    if (harness_runtime() || !current_ || current_->expect != 0 || n == 0) return false;
    Buffer *b = device_buffer_at(dst);
    if (!b) return false;
    if (async) {
        ends_comparison_ = true;
        answer_ = std::string(kNotComparable) + kFillKernel;
        return true;
    }
    hipDeviceSynchronize(); // hipMemset follows the null stream's earlier work
    const std::vector<unsigned char> bytes(n, static_cast<unsigned char>(value));
    const peerHostSpan span{bytes.data(), n};
    if (rt_.write_spans(dst, &span, 1) != hipSuccess) ends_comparison_ = true;
    answer_ = std::string(kNotComparable) + kFillKernel;
    return true;
}

bool Interpreter::rocclr_copy(void *dst, const void *src, size_t n, bool async) {
    if (harness_runtime() || !current_ || current_->expect != 0 || n == 0) return false;
    Buffer *d = device_buffer_at(dst);
    Buffer *s = device_buffer_at(src);
    if (!d || !s || d->device != s->device) return false;
    answer_ = std::string(kNotComparable) + kCopyKernel;
    if (async) {
        ends_comparison_ = true;
        return true;
    }
    hipDeviceSynchronize();
    std::vector<unsigned char> bytes(n);
    const peerHostSpan span{bytes.data(), n};
    if (rt_.read(src, bytes.data(), n) != hipSuccess ||
        rt_.write_spans(dst, &span, 1) != hipSuccess)
        ends_comparison_ = true;
    return true;
}

} // namespace harness::runner::detail
