// Calls declared so that code mentioning them compiles and links, and that
// fail honestly at run time with hipErrorNotSupported (CONTRACT.md §6):
// managed memory (the kernel's SVM/HMM path is not used), arrays and
// mipmapped arrays (image layouts), memory pools and stream-ordered
// allocation, and interprocess handles (the DRM path shares a BO as a
// dma-buf file descriptor, which HIP's 64-byte handle cannot carry to
// another process). The newer ones check their arguments first, as ROCm
// does, so a caller's mistake still reads as the mistake.
#include "api_common.hpp"

using namespace peer;

namespace {

// The common rules of CONTRACT.md §5 (no device, NULL output), then
// hipErrorNotSupported.
hipError_t not_offered(bool args_ok) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    return args_ok ? hipErrorNotSupported : hipErrorInvalidValue;
}

hipError_t pool_of_device(void *out, int device) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!out) return hipErrorInvalidValue;
    if (!rt->valid(device)) return hipErrorInvalidDevice;
    return hipErrorNotSupported;
}

// hipIpcGetMemHandle: ROCm answers a pointer it did not allocate with
// hipErrorInvalidDevicePointer before it makes a handle.
hipError_t ipc_get_mem_handle(hipIpcMemHandle_t *handle, void *devPtr) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!handle || !devPtr) return hipErrorInvalidValue;
    std::lock_guard lock(rt->mu);
    if (!rt->table.find(addr(devPtr))) return hipErrorInvalidDevicePointer;
    return hipErrorNotSupported;
}

} // namespace

extern "C" {

hipError_t hipMallocManaged(void **, size_t, unsigned int) {
    return keep_error(hipErrorNotSupported);
}
hipError_t hipMallocArray(hipArray_t *, const hipChannelFormatDesc *, size_t, size_t,
                          unsigned int) {
    return keep_error(hipErrorNotSupported);
}
hipError_t hipMalloc3DArray(hipArray_t *, const hipChannelFormatDesc *, hipExtent, unsigned int) {
    return keep_error(hipErrorNotSupported);
}
hipError_t hipArrayCreate(hipArray_t *, const HIP_ARRAY_DESCRIPTOR *) {
    return keep_error(hipErrorNotSupported);
}
hipError_t hipArray3DCreate(hipArray_t *, const HIP_ARRAY3D_DESCRIPTOR *) {
    return keep_error(hipErrorNotSupported);
}
hipError_t hipArrayDestroy(hipArray_t) {
    return keep_error(hipErrorNotSupported);
}
hipError_t hipFreeArray(hipArray_t) {
    return keep_error(hipErrorNotSupported);
}

hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *mipmappedArray,
                                   const hipChannelFormatDesc *desc, hipExtent, unsigned int,
                                   unsigned int) {
    return keep_error(not_offered(mipmappedArray && desc));
}
hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray, hipMipmappedArray_const_t,
                                     unsigned int) {
    return keep_error(not_offered(levelArray));
}
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t) {
    return keep_error(not_offered(true));
}

hipError_t hipMallocAsync(void **dev_ptr, size_t, hipStream_t) {
    return keep_error(not_offered(dev_ptr));
}
hipError_t hipFreeAsync(void *, hipStream_t) {
    return keep_error(not_offered(true));
}
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device) {
    return keep_error(pool_of_device(mem_pool, device));
}
hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device) {
    return keep_error(pool_of_device(mem_pool, device));
}
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool) {
    return keep_error(pool_of_device(mem_pool, device));
}
hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *pool_props) {
    return keep_error(not_offered(mem_pool && pool_props));
}
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool) {
    return keep_error(not_offered(mem_pool));
}
hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr, void *value) {
    return keep_error(not_offered(mem_pool && value));
}
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr, void *value) {
    return keep_error(not_offered(mem_pool && value));
}
hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t) {
    return keep_error(not_offered(mem_pool));
}
hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t, hipMemPool_t mem_pool, hipStream_t) {
    return keep_error(not_offered(dev_ptr && mem_pool));
}

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *handle, void *devPtr) {
    return keep_error(ipc_get_mem_handle(handle, devPtr));
}
// ROCm: flags must be hipIpcMemLazyEnablePeerAccess (0).
hipError_t hipIpcOpenMemHandle(void **devPtr, hipIpcMemHandle_t, unsigned int flags) {
    return keep_error(not_offered(devPtr && flags == hipIpcMemLazyEnablePeerAccess));
}
// Nothing is ever opened, so no pointer is one to close (ROCm's answer to a
// pointer it did not open: hipErrorInvalidHandle).
hipError_t hipIpcCloseMemHandle(void *devPtr) {
    const hipError_t e = not_offered(devPtr);
    return keep_error(e == hipErrorNotSupported ? hipErrorInvalidHandle : e);
}
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *handle, hipEvent_t event) {
    return keep_error(not_offered(handle && event));
}
hipError_t hipIpcOpenEventHandle(hipEvent_t *event, hipIpcEventHandle_t) {
    return keep_error(not_offered(event));
}

} // extern "C"
