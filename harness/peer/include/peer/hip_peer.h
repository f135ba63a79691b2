/*
 * The peer-memory subset of HIP's runtime API, implemented on the amdgpu
 * kernel driver (libdrm_amdgpu + libhsakmt), not on ROCm.
 *
 * The declarations are HIP's own, in <hip/hip_runtime_api.h> (names, types,
 * signatures and numeric error codes), so HIP-style test code compiles
 * unchanged and results read the same as HIP's. Behaviour (condition order
 * and codes, and where it diverges from ROCm) is harness/peer/CONTRACT.md.
 * This header stays for code written against the first slice.
 *
 * Plain C so that C and C++ callers (and dlsym) see the same symbols.
 */
#ifndef PEER_HIP_PEER_H
#define PEER_HIP_PEER_H

#include <hip/hip_runtime_api.h>

#endif /* PEER_HIP_PEER_H */
