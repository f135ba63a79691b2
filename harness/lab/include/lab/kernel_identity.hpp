// The kernel under test as the fingerprint records it, read through the
// kernel's own interface in the process that runs the cases (under amdgpu-sim
// the simulated kernel answers, as a real kernel under test would): uname(2)'s
// release and version, the build options the peer-memory paths depend on
// (/proc/config.gz, else the distribution's /boot/config-<release>) and the
// amdgpu module parameters that change them.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace harness::lab {

// The options recorded from a kernel config: amdgpu and KFD themselves, and
// what decides peer access (harness/peer/CONTRACT.md): P2PDMA, dma-buf move
// notify, KFD's PCIe P2P and SVM.
inline constexpr const char *kKernelConfigOptions[] = {
    "CONFIG_DRM_AMDGPU",  "CONFIG_HSA_AMD",    "CONFIG_HSA_AMD_SVM",
    "CONFIG_HSA_AMD_P2P", "CONFIG_PCI_P2PDMA", "CONFIG_DMABUF_MOVE_NOTIFY"};
// /sys/module/amdgpu/parameters/<name>, each recorded when the module has it.
inline constexpr const char *kAmdgpuParameters[] = {"pcie_p2p", "lockup_timeout", "noretry",
                                                    "gpu_recovery", "vm_update_mode"};

// {option: value} of kKernelConfigOptions in a .config text: "y", "m", a
// value, or "n" for "# X is not set" and for an option the file lacks
// (Kconfig treats both as off).
nlohmann::json parse_kernel_config(const std::string &text);

// kernel_release, kernel_version (uname), kernel_config ({source, hash,
// options} or {error}), amdgpu_parameters ({name: value}; {} without the
// module).
nlohmann::json kernel_fingerprint();

} // namespace harness::lab
