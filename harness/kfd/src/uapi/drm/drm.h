// <linux/kfd_ioctl.h> includes <drm/drm.h>; Debian 12 ships it as libdrm-dev's
// <libdrm/drm.h> (register_probe.cpp is the only user).
#pragma once
#include <libdrm/drm.h>
