/*
 * What kernel bodies call, declared for clang's HIP mode when only the host
 * side is compiled (--cuda-host-only): the compiler checks each kernel's
 * body against these declarations and emits no device code, so nothing here
 * is defined anywhere. A device-side compilation against these headers
 * fails at its device link: this library runs no GPU code (CONTRACT.md
 * §5.6). Included by <hip/hip_runtime.h> in HIP mode only.
 */
#ifndef HIP_INCLUDE_HIP_HIP_DEVICE_DECLS_H
#define HIP_INCLUDE_HIP_HIP_DEVICE_DECLS_H

#include <stdint.h>
#include <time.h>

struct hipPeerBuiltinDim3 {
    uint32_t x, y, z;
};
extern const __device__ hipPeerBuiltinDim3 threadIdx;
extern const __device__ hipPeerBuiltinDim3 blockIdx;
extern const __device__ hipPeerBuiltinDim3 blockDim;
extern const __device__ hipPeerBuiltinDim3 gridDim;

__device__ void __syncthreads();
__device__ void __threadfence();
__device__ void __threadfence_system();
__device__ long long clock64();
__device__ long long wall_clock64();
__device__ clock_t clock();

#endif /* HIP_INCLUDE_HIP_HIP_DEVICE_DECLS_H */
