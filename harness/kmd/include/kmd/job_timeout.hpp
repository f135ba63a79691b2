// The kernel's SDMA job timeout, as amdgpu reads it from its `lockup_timeout`
// module parameter (/sys/module/amdgpu/parameters/lockup_timeout, mode 0444).
// The DRM path needs no copy of it (the kernel's scheduler times jobs out and
// the CS fence says so); the KFD path's user queues have no kernel job
// timeout, so the harness uses the same figure to decide that a user-queue
// job is hung instead of inventing one of its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kmd {

// amdgpu_device_get_job_timeout_settings (K6.1 amdgpu_device.c): SDMA jobs
// time out after 10 s by default; the parameter is a comma-separated list
// "gfx,compute,sdma,video" in ms, where 0 keeps that entry's default and a
// negative value means no timeout; a list of exactly one entry sets every
// non-compute timeout (the SDMA one included). nullopt: no timeout; a value
// that does not parse as the kernel's kstrtol would: the default (the module
// load would have failed on a real kernel, so such a text never appears).
std::optional<uint64_t> sdma_job_timeout_ms(std::string_view lockup_timeout_param);

// The parameter of the running kernel; the default when amdgpu publishes
// none (not loaded, or not readable).
std::optional<uint64_t> sdma_job_timeout_ms();

} // namespace kmd
