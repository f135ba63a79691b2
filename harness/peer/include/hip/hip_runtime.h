/*
 * <hip/hip_runtime.h>: the runtime API plus what HIP sources write around
 * kernels, so a file that defines or launches a kernel compiles with
 *   - a plain C++ compiler (g++, clang++): the qualifiers vanish, kernel
 *     bodies are ordinary host functions that never run, and
 *     hipLaunchKernelGGL calls hipLaunchKernel with a host function, which
 *     answers hipErrorInvalidDeviceFunction;
 *   - clang in HIP mode, host side only (clang++ -x hip --cuda-host-only
 *     -nogpuinc -nogpulib): kernel<<<...>>> and hipLaunchKernelGGL go through
 *     the compiler's own launch sequence and registration, and the launch
 *     answers hipErrorNoBinaryForGpu (hip_module_api.h).
 * No kernel body ever runs (CONTRACT.md §5.6).
 */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H

#include <hip/hip_runtime_api.h>

#if defined(__HIP__)
/* clang's HIP mode knows the function and variable spaces. */
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif
#else
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
#endif /* __HIP__ */
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];

#ifdef __cplusplus
#if defined(__HIP__)
#include <hip/hip_device_decls.h>
/* As HIP defines it: the compiler's launch syntax. */
#define hipLaunchKernelGGL(kernelName, numBlocks, numThreads, memPerBlock, streamId, ...)          \
    do {                                                                                           \
        kernelName<<<(numBlocks), (numThreads), (memPerBlock), (streamId)>>>(__VA_ARGS__);         \
    } while (0)
#else
/* The built-in index variables, readable in host-compiled kernel bodies so
 * those bodies compile; they are never meaningful because no kernel runs. */
struct hipPeerBuiltinDim3 {
    uint32_t x, y, z;
};
inline constexpr hipPeerBuiltinDim3 threadIdx{0, 0, 0};
inline constexpr hipPeerBuiltinDim3 blockIdx{0, 0, 0};
inline constexpr hipPeerBuiltinDim3 blockDim{1, 1, 1};
inline constexpr hipPeerBuiltinDim3 gridDim{1, 1, 1};

inline void __syncthreads() {}

/* hipLaunchKernelGGL(kernel, grid, block, sharedMem, stream, args...): the
 * arguments are evaluated (as a launch would) and the launch goes to
 * hipLaunchKernel with the host function, which no registration names. */
template <class F, class... Args>
inline hipError_t hipPeerLaunchKernelGGL(F kernel, dim3 grid, dim3 block, size_t shared,
                                         hipStream_t stream, Args &&...args) {
    ((void)args, ...);
    return hipLaunchKernel(reinterpret_cast<const void *>(kernel), grid, block, nullptr, shared,
                           stream);
}
#define hipLaunchKernelGGL(kernel, ...) ((void)hipPeerLaunchKernelGGL((kernel), __VA_ARGS__))
#endif /* __HIP__ */
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
#endif /* __cplusplus */

#endif /* HIP_INCLUDE_HIP_HIP_RUNTIME_H */
