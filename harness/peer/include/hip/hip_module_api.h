/*
 * Code objects and kernel launches, with ROCm 5.2.3's signatures: module
 * management (hipModuleLoad*, hipModuleUnload, hipModuleGetFunction,
 * hipModuleLaunchKernel), the launch entry points a HIP compiler's host code
 * calls (hipLaunchKernel, __hipPushCallConfiguration /
 * __hipPopCallConfiguration) and the registration calls of its module
 * constructor (__hipRegisterFatBinary, __hipRegisterFunction, ...).
 *
 * This library runs no GPU code: every call links and checks its arguments
 * as ROCm does, and a load or launch that would need a code object on the
 * device answers hipErrorNoBinaryForGpu at run time, after one line on
 * stderr naming the kernel or file and the device (CONTRACT.md §5.6).
 */
#ifndef HIP_INCLUDE_HIP_HIP_MODULE_API_H
#define HIP_INCLUDE_HIP_HIP_MODULE_API_H

/* hipError_t and the types: hip_runtime_api.h includes this file after them. */
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- modules ------------------------------------------------------------ */
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
                               hipJitOption *options, void **optionValues);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname);
hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod,
                              const char *name);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream,
                                 void **kernelParams, void **extra);
hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func);
hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib, hipFunction_t hfunc);

/* ---- launches ----------------------------------------------------------- */
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                           void **args, size_t sharedMemBytes __dparm(0),
                           hipStream_t stream __dparm(0));
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                            hipStream_t stream __dparm(0));
hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset);
hipError_t hipLaunchByPtr(const void *func);
/* A HIP compiler turns kernel<<<grid, block, shared, stream>>>(args) into a
 * push of the configuration, then a call of the kernel's host stub, which
 * pops it and calls hipLaunchKernel. */
hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                                      hipStream_t stream __dparm(0));
hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                     hipStream_t *stream);

/* ---- registration (the compiler's module constructor calls these) ----- */
/* data: the compiler's wrapper {magic "HIPF", version 1, bundle, 0}. The
 * answer is the handle the other registration calls take. */
void **__hipRegisterFatBinary(const void *data);
void __hipUnregisterFatBinary(void **modules);
void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
                           const char *deviceName, unsigned int threadLimit, uint3 *tid, uint3 *bid,
                           dim3 *blockDim, dim3 *gridDim, int *wSize);
void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar, int ext,
                      size_t size, int constant, int global);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIP_INCLUDE_HIP_HIP_MODULE_API_H */
