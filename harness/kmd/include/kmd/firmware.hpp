// Firmware versions of one device, per engine, as AMDGPU_INFO_FW_VERSION
// reports them: what a lab records next to each run so that a result can be
// tied to the firmware it ran on (the lab's fingerprint).
#pragma once

#include "kmd/device.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kmd {

struct FirmwareVersion {
    std::string engine; // "sdma0", "gfx_me", "smc", ...
    uint32_t version = 0;
    uint32_t feature = 0;
};

// Queries every engine the kernel knows a firmware type for. An engine the
// device does not have answers EINVAL (amdgpu_firmware_info's default case,
// or an SDMA index past the instances) and is left out; any other errno is
// returned with the call's name.
Status query_firmware_versions(const Device &dev, std::vector<FirmwareVersion> &out);

} // namespace kmd
