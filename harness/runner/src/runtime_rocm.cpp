// ROCm's HIP (libamdhip64.so.5) as the interpreter's runtime, loaded with
// dlopen in the process that runs the instances. ROCm has no host-access
// debug API: the interpreter's fills and checks go through hipMemcpy, which
// on ROCm is itself an SDMA (or blit kernel) job; a fresh state between
// instances needs explicit Disables, since ROCm's hipDeviceReset keeps peer
// access enabled (CONTRACT.md §4).
#include "runtime.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace harness::runner {
namespace {

class RocmRuntime final : public Runtime {
  public:
    explicit RocmRuntime(void *handle) : handle_(handle) {}
    // The library stays loaded: ROCm's runtime has threads and atexit work
    // that outlive any object here.
    ~RocmRuntime() override = default;

    bool bind(std::string &error) {
#define PEER_RUNNER_HIP_BIND(ret, name, params, args)                                              \
    hip_.name = reinterpret_cast<decltype(hip_.name)>(dlsym(handle_, #name));                      \
    if (!hip_.name) {                                                                              \
        error = std::string(rocm_hip_library()) + " has no " #name;                                \
        return false;                                                                              \
    }
        PEER_RUNNER_HIP_CALLS(PEER_RUNNER_HIP_BIND)
#undef PEER_RUNNER_HIP_BIND
        return true;
    }
    RuntimeKind kind() const override {
        return RuntimeKind::rocm;
    }

    hipError_t write_spans(void *device, const peerHostSpan *spans, size_t count) const override {
        auto *at = static_cast<char *>(device);
        for (size_t i = 0; i < count; ++i) {
            if (spans[i].size == 0) continue;
            hipError_t e = hip_.hipMemcpy(at, spans[i].bytes, spans[i].size, hipMemcpyHostToDevice);
            if (e != hipSuccess) return e;
            at += spans[i].size;
        }
        return hipSuccess;
    }
    hipError_t equal_spans(const void *device, const peerHostSpan *spans, size_t count,
                           int *equal) const override {
        *equal = 1;
        const auto *at = static_cast<const char *>(device);
        std::vector<char> got;
        for (size_t i = 0; i < count && *equal; ++i) {
            if (spans[i].size == 0) continue;
            got.resize(spans[i].size);
            hipError_t e = hip_.hipMemcpy(got.data(), at, spans[i].size, hipMemcpyDeviceToHost);
            if (e != hipSuccess) return e;
            *equal = std::memcmp(got.data(), spans[i].bytes, spans[i].size) == 0;
            at += spans[i].size;
        }
        return hipSuccess;
    }
    hipError_t read(const void *device, void *host, size_t bytes) const override {
        return bytes ? hip_.hipMemcpy(host, device, bytes, hipMemcpyDeviceToHost) : hipSuccess;
    }
    // Every peer access this process may have enabled is disabled (ROCm's
    // reset keeps it), then each device reset (its allocations freed).
    bool restore_fresh_state() const override {
        int n = 0;
        if (hip_.hipGetDeviceCount(&n) != hipSuccess) return true;
        bool ok = true;
        for (int d = 0; d < n; ++d) {
            ok = ok && hip_.hipSetDevice(d) == hipSuccess;
            for (int p = 0; p < n; ++p)
                if (p != d) hip_.hipDeviceDisablePeerAccess(p); // NotEnabled is the usual answer
            ok = ok && hip_.hipDeviceReset() == hipSuccess;
        }
        if (n > 0) ok = ok && hip_.hipSetDevice(0) == hipSuccess;
        hip_.hipGetLastError(); // the Disables' codes are not the next instance's
        return ok;
    }

  private:
    void *handle_;
};

} // namespace

std::string rocm_hip_library() {
    const char *path = std::getenv("PEER_HARNESS_ROCM_HIP");
    return path && *path ? path : "libamdhip64.so.5";
}

std::unique_ptr<Runtime> load_rocm_runtime(std::string &error) {
    const std::string lib = rocm_hip_library();
    // RTLD_LOCAL: ROCm's symbols are looked up only through this handle, and
    // this program's own hip* (the harness's, statically linked and not
    // exported) stay out of ROCm's way.
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        error = "cannot load ROCm's HIP (" + lib + "): " + (why ? why : "unknown error") +
                "; install libamdhip64-5 (ci/install-deps) or set PEER_HARNESS_ROCM_HIP";
        return nullptr;
    }
    auto rt = std::make_unique<RocmRuntime>(handle);
    if (!rt->bind(error)) return nullptr;
    return rt;
}

} // namespace harness::runner
