// Kernel launches and the registration calls of a HIP compiler's host code
// (CONTRACT.md §5.6). kernel<<<g, b, s, q>>>(args) compiles to
// __hipPushCallConfiguration(g, b, s, q), then a call of the kernel's stub,
// which pops the configuration and calls hipLaunchKernel with the kernel's
// registered host-side handle. Nothing is ever executed: a registered
// kernel is refused with hipErrorNoBinaryForGpu (gpu_code_refusal.hpp), a
// function no registration names with hipErrorInvalidDeviceFunction, as
// ROCm does.
#include "api_common.hpp"
#include "gpu_code_refusal.hpp"
#include "kernel_registry.hpp"
#include "streams.hpp"

#include <cstring>

using namespace peer;

namespace {

// ROCm's wrapper of a fat binary: {"HIPF", version 1, bundle, unused}.
struct FatBinaryWrapper {
    unsigned int magic;
    unsigned int version;
    const void *binary;
    const void *unused;
};
constexpr unsigned int kFatMagic = 0x48495046; // "HIPF"

// The device a launch on `stream` would run on; the common argument rules.
hipError_t launch_device(hipStream_t stream, int &device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    device = s->device;
    return hipSuccess;
}

hipError_t launch(const void *function, hipStream_t stream) {
    int device = 0;
    if (hipError_t e = launch_device(stream, device); e != hipSuccess) return e;
    const auto kernel = KernelRegistry::get().find(function);
    if (!kernel) return hipErrorInvalidDeviceFunction; // ROCm: no registration names it
    return refuse_gpu_code("kernel " + kernel->device_name + " not launched", device,
                           kernel->image);
}

} // namespace

extern "C" {

void **__hipRegisterFatBinary(const void *data) {
    const auto *w = static_cast<const FatBinaryWrapper *>(data);
    // ROCm answers NULL to a wrapper it does not know; the compiler's
    // registrations with that handle are then ignored.
    if (!w || w->magic != kFatMagic || w->version != 1) return nullptr;
    return KernelRegistry::get().add_fat_binary(w->binary);
}

void __hipUnregisterFatBinary(void **modules) {
    KernelRegistry::get().remove_fat_binary(modules);
}

void __hipRegisterFunction(void **modules, const void *hostFunction, char *, const char *deviceName,
                           unsigned int, uint3 *, uint3 *, dim3 *, dim3 *, int *) {
    (void)KernelRegistry::get().add_function(modules, hostFunction, deviceName);
}

// A __device__ variable's host shadow: nothing to do, since no symbol copy
// (hipMemcpyToSymbol) is offered and no code object holds the variable.
void __hipRegisterVar(void **, void *, char *, char *, int, size_t, int, int) {}

hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                      hipStream_t stream) {
    thread_state().launch_configs.push_back({gridDim, blockDim, sharedMem, stream, {}});
    return hipSuccess;
}

// No configuration pushed: hipErrorMissingConfiguration (decision: ROCm pops
// an empty stack).
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                     hipStream_t *stream) {
    auto &configs = thread_state().launch_configs;
    if (configs.empty()) return keep_error(hipErrorMissingConfiguration);
    if (!gridDim || !blockDim || !sharedMem || !stream) return keep_error(hipErrorInvalidValue);
    const ThreadState::LaunchConfig &c = configs.back();
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shared;
    *stream = c.stream;
    configs.pop_back();
    return hipSuccess;
}

hipError_t hipLaunchKernel(const void *function_address, dim3, dim3, void **, size_t,
                           hipStream_t stream) {
    return keep_error(launch(function_address, stream));
}

hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, hipStream_t stream) {
    return __hipPushCallConfiguration(gridDim, blockDim, sharedMem, stream);
}

hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset) {
    auto &configs = thread_state().launch_configs;
    if (configs.empty()) return keep_error(hipErrorMissingConfiguration);
    if (!arg && size) return keep_error(hipErrorInvalidValue);
    std::vector<unsigned char> &args = configs.back().args;
    if (offset + size < offset) return keep_error(hipErrorInvalidValue);
    if (args.size() < offset + size) args.resize(offset + size);
    if (size) std::memcpy(args.data() + offset, arg, size);
    return hipSuccess;
}

hipError_t hipLaunchByPtr(const void *func) {
    auto &configs = thread_state().launch_configs;
    if (configs.empty()) return keep_error(hipErrorMissingConfiguration);
    const hipStream_t stream = configs.back().stream;
    configs.pop_back();
    return keep_error(launch(func, stream));
}

// A kernel's attributes live in its code object, which is never loaded.
hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, const void *func) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return keep_error(e);
    if (!attr) return keep_error(hipErrorInvalidValue);
    const auto kernel = KernelRegistry::get().find(func);
    if (!kernel) return keep_error(hipErrorInvalidDeviceFunction);
    return keep_error(refuse_gpu_code("attributes of kernel " + kernel->device_name + " unknown",
                                      thread_state().current_device, kernel->image));
}

} // extern "C"
