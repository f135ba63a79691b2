/*
 * The HIP version this library's API follows: ROCm 5.2.3's (the version
 * numbers of Debian 12's libamdhip64-dev 5.2.3), whose types, values and
 * symbol versions libamdhip64.so.5 (harness/hip-dropin) keeps.
 * hipRuntimeGetVersion and hipDriverGetVersion answer HIP_VERSION.
 */
#ifndef HIP_INCLUDE_HIP_HIP_VERSION_H
#define HIP_INCLUDE_HIP_HIP_VERSION_H

#define HIP_VERSION_MAJOR 5
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 21153
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#endif /* HIP_INCLUDE_HIP_HIP_VERSION_H */
