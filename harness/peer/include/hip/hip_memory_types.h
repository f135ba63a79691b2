/*
 * Memory description types of HIP's runtime API with ROCm 5.2.3's layout:
 * pointer attributes, IPC handles and the memory-pool types. Which calls
 * answer what: CONTRACT.md §5.2 (pointer attributes), §6 (IPC handles and
 * pools are not offered).
 */
#ifndef HIP_INCLUDE_HIP_HIP_MEMORY_TYPES_H
#define HIP_INCLUDE_HIP_HIP_MEMORY_TYPES_H

#include <stddef.h>

#include <hip/driver_types.h>

/* hipPointerGetAttributes' answer (ROCm 5.2.3's layout). */
typedef struct hipPointerAttribute_t {
    enum hipMemoryType memoryType;
    int device;
    void *devicePointer;
    void *hostPointer;
    int isManaged;
    unsigned allocationFlags; /* the flags the allocation was made with */
} hipPointerAttribute_t;

/* Interprocess handles: 64 opaque bytes each. */
#define HIP_IPC_HANDLE_SIZE 64
typedef struct hipIpcMemHandle_st {
    char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcMemHandle_t;
typedef struct hipIpcEventHandle_st {
    char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcEventHandle_t;

/* ---- memory pools (not offered: CONTRACT.md §6) ---------------------- */
typedef enum hipMemPoolAttr {
    hipMemPoolReuseFollowEventDependencies = 0x1,
    hipMemPoolReuseAllowOpportunistic = 0x2,
    hipMemPoolReuseAllowInternalDependencies = 0x3,
    hipMemPoolAttrReleaseThreshold = 0x4,
    hipMemPoolAttrReservedMemCurrent = 0x5,
    hipMemPoolAttrReservedMemHigh = 0x6,
    hipMemPoolAttrUsedMemCurrent = 0x7,
    hipMemPoolAttrUsedMemHigh = 0x8
} hipMemPoolAttr;

typedef enum hipMemLocationType {
    hipMemLocationTypeInvalid = 0,
    hipMemLocationTypeDevice = 1
} hipMemLocationType;

typedef struct hipMemLocation {
    hipMemLocationType type;
    int id;
} hipMemLocation;

typedef enum hipMemAccessFlags {
    hipMemAccessFlagsProtNone = 0,
    hipMemAccessFlagsProtRead = 1,
    hipMemAccessFlagsProtReadWrite = 3
} hipMemAccessFlags;

typedef struct hipMemAccessDesc {
    hipMemLocation location;
    hipMemAccessFlags flags;
} hipMemAccessDesc;

typedef enum hipMemAllocationType {
    hipMemAllocationTypeInvalid = 0x0,
    hipMemAllocationTypePinned = 0x1,
    hipMemAllocationTypeMax = 0x7FFFFFFF
} hipMemAllocationType;

typedef enum hipMemAllocationHandleType {
    hipMemHandleTypeNone = 0x0,
    hipMemHandleTypePosixFileDescriptor = 0x1,
    hipMemHandleTypeWin32 = 0x2,
    hipMemHandleTypeWin32Kmt = 0x4
} hipMemAllocationHandleType;

typedef struct hipMemPoolProps {
    hipMemAllocationType allocType;
    hipMemAllocationHandleType handleTypes;
    hipMemLocation location;
    void *win32SecurityAttributes;
    unsigned char reserved[64];
} hipMemPoolProps;

typedef struct hipMemPoolPtrExportData {
    unsigned char reserved[64];
} hipMemPoolPtrExportData;

#endif /* HIP_INCLUDE_HIP_HIP_MEMORY_TYPES_H */
