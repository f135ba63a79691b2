#include "gpu_code_refusal.hpp"

#include "api_common.hpp"
#include "kernel_registry.hpp"

#include <cstdio>

namespace peer {

hipError_t refuse_gpu_code(const std::string &subject, int device, const CodeObjectImage &image) {
    Runtime &rt = Runtime::get();
    const std::string gfx = rt.valid(device) ? gfx_target(rt.device(device).node) : "";
    const std::string text = subject + " on device " + std::to_string(device) + " (" + gfx +
                             "): " + describe_code_object(image, gfx) +
                             "; this runtime runs no GPU code -> hipErrorNoBinaryForGpu "
                             "(harness/peer/CONTRACT.md §5.6)";
    thread_state().last_refusal = text;
    if (KernelRegistry::get().first_report(subject + "@" + std::to_string(device)))
        std::fprintf(stderr, "peer-hip: %s\n", text.c_str());
    return hipErrorNoBinaryForGpu;
}

} // namespace peer
