/*
 * HIP's opaque handles. The structures behind them belong to the library
 * (harness/peer/src); callers only pass the pointers around. A hipDevice_t
 * is the device's id, as in ROCm.
 */
#ifndef HIP_INCLUDE_HIP_HIP_HANDLES_H
#define HIP_INCLUDE_HIP_HIP_HANDLES_H

typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipMemPoolHandle_t *hipMemPool_t;
typedef struct ihipCtx_t *hipCtx_t;
typedef int hipDevice_t;

#endif /* HIP_INCLUDE_HIP_HIP_HANDLES_H */
