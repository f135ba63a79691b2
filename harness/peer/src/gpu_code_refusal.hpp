// The one answer to "run this GPU code" (CONTRACT.md §5.6): this library
// has no code-object loader, so a module load or a launch of a registered
// kernel returns hipErrorNoBinaryForGpu, the code ROCm gives when a program
// has no code object for the device. Before returning, it says what was
// refused on one stderr line (once per kernel or file, as ROCm reports a
// missing code object once) and keeps the text for peerLastGpuCodeRefusal().
#pragma once

#include "code_objects.hpp"
#include "peer/hip_peer.h"

#include <string>

namespace peer {

// `subject` names the kernel or image ("kernel VectorSet",
// "hipModuleLoad(\"k.co\")"), `device` the device it was meant for and
// `image` what its code objects are. Reported once per subject.
hipError_t refuse_gpu_code(const std::string &subject, int device, const CodeObjectImage &image);

} // namespace peer
