#include "kmd/firmware.hpp"

#include <amdgpu_drm.h>

#include <cerrno>
#include <string>

namespace kmd {

namespace {

struct Engine {
    unsigned type;
    const char *name;
};
// The firmware types of amdgpu_drm.h that amdgpu_firmware_info (amdgpu_kms.c)
// answers for index 0; SDMA is handled per instance below.
constexpr Engine kEngines[] = {
    {AMDGPU_INFO_FW_GFX_ME, "gfx_me"},   {AMDGPU_INFO_FW_GFX_PFP, "gfx_pfp"},
    {AMDGPU_INFO_FW_GFX_CE, "gfx_ce"},   {AMDGPU_INFO_FW_GFX_RLC, "gfx_rlc"},
    {AMDGPU_INFO_FW_GFX_MEC, "gfx_mec"}, {AMDGPU_INFO_FW_SMC, "smc"},
    {AMDGPU_INFO_FW_SOS, "sos"},         {AMDGPU_INFO_FW_ASD, "asd"},
    {AMDGPU_INFO_FW_TA, "ta"},           {AMDGPU_INFO_FW_VCN, "vcn"},
    {AMDGPU_INFO_FW_UVD, "uvd"},         {AMDGPU_INFO_FW_VCE, "vce"},
    {AMDGPU_INFO_FW_DMCU, "dmcu"},       {AMDGPU_INFO_FW_DMCUB, "dmcub"},
    {AMDGPU_INFO_FW_TOC, "toc"},
};
// More SDMA instances than any amdgpu part has (MI300X: 16 per XCD set).
constexpr unsigned kMaxSdma = 32;

} // namespace

Status query_firmware_versions(const Device &dev, std::vector<FirmwareVersion> &out) {
    out.clear();
    for (unsigned i = 0; i < kMaxSdma; ++i) {
        FirmwareVersion v{"sdma" + std::to_string(i), 0, 0};
        int r = amdgpu_query_firmware_version(dev.handle(), AMDGPU_INFO_FW_SDMA, 0, i, &v.version,
                                              &v.feature);
        if (r == -EINVAL) break; // past the last instance
        if (Status s = Status::from_ret(r, "AMDGPU_INFO_FW_VERSION(SDMA)"); !s) return s;
        out.push_back(std::move(v));
    }
    for (const Engine &e : kEngines) {
        FirmwareVersion v{e.name, 0, 0};
        int r = amdgpu_query_firmware_version(dev.handle(), e.type, 0, 0, &v.version, &v.feature);
        if (r == -EINVAL) continue; // no such engine on this device
        if (Status s = Status::from_ret(r, "AMDGPU_INFO_FW_VERSION"); !s) return s;
        out.push_back(std::move(v));
    }
    return Status::success();
}

} // namespace kmd
