/*
 * <hip/hip_runtime.h> for host-only compilers (g++, clang without HIP):
 * the runtime API plus what HIP-style sources mention around kernels, so a
 * file that defines or launches a kernel still compiles. Kernel bodies are
 * ordinary host functions here and are never run: every launch returns
 * hipErrorNotSupported and sets the thread's last error (CONTRACT.md,
 * "Kernel launches").
 */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H

#include <hip/hip_runtime_api.h>

/* No device compilation: the function-space qualifiers vanish. */
#ifndef __global__
#define __global__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __shared__
#define __shared__
#endif
#ifndef __constant__
#define __constant__
#endif
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

#ifdef __cplusplus
/* The built-in index variables, readable in host-compiled kernel bodies so
 * those bodies compile; they are never meaningful because no kernel runs. */
struct hipPeerBuiltinDim3 {
    uint32_t x, y, z;
};
inline constexpr hipPeerBuiltinDim3 threadIdx{0, 0, 0};
inline constexpr hipPeerBuiltinDim3 blockIdx{0, 0, 0};
inline constexpr hipPeerBuiltinDim3 blockDim{1, 1, 1};
inline constexpr hipPeerBuiltinDim3 gridDim{1, 1, 1};
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

inline void __syncthreads() {}

/* hipLaunchKernelGGL(kernel, grid, block, sharedMem, stream, args...): the
 * arguments are evaluated (as a launch would) and the launch is refused
 * with hipErrorNotSupported through hipLaunchKernel. */
template <class F, class... Args>
inline hipError_t hipPeerLaunchKernelGGL(F kernel, dim3 grid, dim3 block, size_t shared,
                                         hipStream_t stream, Args &&...args) {
    ((void)args, ...);
    return hipLaunchKernel(reinterpret_cast<const void *>(kernel), grid, block, nullptr, shared,
                           stream);
}
#define hipLaunchKernelGGL(kernel, ...) ((void)hipPeerLaunchKernelGGL((kernel), __VA_ARGS__))
#endif /* __cplusplus */

#endif /* HIP_INCLUDE_HIP_HIP_RUNTIME_H */
