// Module management (CONTRACT.md §5.6): hipModuleLoad* check their
// arguments and the image as ROCm does, then refuse to load it, since this
// library has no code-object loader (hipErrorNoBinaryForGpu). No module is
// ever loaded, so every module and function handle a caller passes is one
// this library does not know.
#include "api_common.hpp"
#include "code_objects.hpp"
#include "gpu_code_refusal.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

using namespace peer;

namespace {

hipError_t refuse_image(const std::string &source, const CodeObjectImage &img) {
    if (img.kind == CodeObjectImage::Kind::invalid) return hipErrorInvalidKernelFile;
    return refuse_gpu_code(source + " not loaded", thread_state().current_device, img);
}

hipError_t load_file(hipModule_t *module, const char *fname) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!module || !fname) return hipErrorInvalidValue;
    std::ifstream in(fname, std::ios::binary);
    if (!in) return hipErrorFileNotFound;
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                     std::istreambuf_iterator<char>()};
    if (bytes.empty()) return hipErrorInvalidKernelFile; // ROCm: a file of size 0
    return refuse_image(std::string("hipModuleLoad(\"") + fname + "\")",
                        inspect_code_object(bytes.data(), bytes.size()));
}

hipError_t load_data(hipModule_t *module, const void *image, const char *call) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!module || !image) return hipErrorInvalidValue;
    char where[32];
    std::snprintf(where, sizeof where, "%p", image);
    return refuse_image(std::string(call) + "(image at " + where + ")", inspect_code_object(image));
}

// Grid sizes in threads must fit in 32 bits (ROCm checks this first).
bool grid_fits(unsigned g, unsigned b) {
    return uint64_t(g) * b <= std::numeric_limits<uint32_t>::max();
}

} // namespace

extern "C" {

hipError_t hipModuleLoad(hipModule_t *module, const char *fname) {
    return keep_error(load_file(module, fname));
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
    return keep_error(load_data(module, image, "hipModuleLoadData"));
}

// The JIT options change nothing: there is no compilation to tune.
hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int, hipJitOption *,
                               void **) {
    return keep_error(load_data(module, image, "hipModuleLoadDataEx"));
}

// ROCm 5.2.3 answers hipErrorNotFound for a module it did not load, NULL
// included; here that is every module.
hipError_t hipModuleUnload(hipModule_t) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return keep_error(e);
    return keep_error(hipErrorNotFound);
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t, const char *kname) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return keep_error(e);
    if (!function || !kname) return keep_error(hipErrorInvalidValue);
    return keep_error(hipErrorNotFound); // ROCm: the module is not a loaded one
}

// ROCm answers hipSuccess, writing nothing, when either output is NULL.
hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t, const char *name) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return keep_error(e);
    if (!dptr || !bytes) return hipSuccess;
    if (!name) return keep_error(hipErrorInvalidValue);
    return keep_error(hipErrorNotFound);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ, unsigned int,
                                 hipStream_t, void **, void **) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return keep_error(e);
    if (!grid_fits(gridDimX, blockDimX) || !grid_fits(gridDimY, blockDimY) ||
        !grid_fits(gridDimZ, blockDimZ))
        return keep_error(hipErrorInvalidConfiguration);
    if (!f) return keep_error(hipErrorInvalidImage);  // ROCm 5.2.3's answer to NULL
    return keep_error(hipErrorInvalidResourceHandle); // no function handle is ever made here
}

hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute, hipFunction_t hfunc) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return keep_error(e);
    if (!value || !hfunc) return keep_error(hipErrorInvalidValue);
    return keep_error(hipErrorInvalidHandle);
}

} // extern "C"
