// A raw-ioctl probe of kfd_mem_attach's decision for another GPU's MMIO
// remap page (a register BAR, which amdgpu_device_is_peer_accessible judges
// differently before and after its "support all BARs" change). libhsakmt
// maps such pages onto their own GPU only, so no libhsakmt call can ask it;
// the probe opens /dev/kfd itself, which is why it must run in a process of
// its own (`peer-harness kfd-map-probe`): a process whose KFD state libhsakmt
// already owns has no free GPU VA this probe could safely take.
#pragma once

#include "kmd/status.hpp"

namespace kfd {

// ACQUIRE_VM for the two GPUs (their render files), ALLOC_MEMORY_OF_GPU of
// the owner's MMIO remap page at a VA of the fresh VM, then
// MAP_MEMORY_TO_GPU onto the mapper. Success: the kernel mapped it; the
// kernel's errno otherwise (EINVAL: kfd_mem_attach refused), with the call
// named; a failure before the MAP names its own call.
kmd::Status probe_mmio_peer_map(int owner_render_minor, int mapper_render_minor);

} // namespace kfd
