/*
 * Memory, array, channel-descriptor and extent types of HIP's runtime API,
 * with HIP's names and numeric values, so HIP-style host code and the
 * hip-tests helpers that mention them parse. Only hipMemcpyKind drives
 * behaviour here; arrays and 3D copies are not implemented (see
 * harness/peer/CONTRACT.md, "Not implemented").
 */
#ifndef HIP_INCLUDE_HIP_DRIVER_TYPES_H
#define HIP_INCLUDE_HIP_DRIVER_TYPES_H

#include <stddef.h>

/* A device pointer is an untyped pointer, as in HIP. */
typedef void *hipDeviceptr_t;

typedef enum hipMemcpyKind {
    hipMemcpyHostToHost = 0,
    hipMemcpyHostToDevice = 1,
    hipMemcpyDeviceToHost = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault = 4, /* resolved from the addresses */
    hipMemcpyDeviceToDeviceNoCU = 1024
} hipMemcpyKind;

/* ROCm 5.2.3's values (later HIP versions renumbered them). */
typedef enum hipMemoryType {
    hipMemoryTypeHost = 0,
    hipMemoryTypeDevice = 1,
    hipMemoryTypeArray = 2,
    hipMemoryTypeUnified = 3
} hipMemoryType;

typedef enum hipChannelFormatKind {
    hipChannelFormatKindSigned = 0,
    hipChannelFormatKindUnsigned = 1,
    hipChannelFormatKindFloat = 2,
    hipChannelFormatKindNone = 3
} hipChannelFormatKind;

typedef struct hipChannelFormatDesc {
    int x;
    int y;
    int z;
    int w;
    enum hipChannelFormatKind f;
} hipChannelFormatDesc;

typedef enum hipArray_Format {
    HIP_AD_FORMAT_UNSIGNED_INT8 = 0x01,
    HIP_AD_FORMAT_UNSIGNED_INT16 = 0x02,
    HIP_AD_FORMAT_UNSIGNED_INT32 = 0x03,
    HIP_AD_FORMAT_SIGNED_INT8 = 0x08,
    HIP_AD_FORMAT_SIGNED_INT16 = 0x09,
    HIP_AD_FORMAT_SIGNED_INT32 = 0x0a,
    HIP_AD_FORMAT_HALF = 0x10,
    HIP_AD_FORMAT_FLOAT = 0x20
} hipArray_Format;

typedef struct HIP_ARRAY_DESCRIPTOR {
    size_t Width;
    size_t Height;
    enum hipArray_Format Format;
    unsigned int NumChannels;
} HIP_ARRAY_DESCRIPTOR;

typedef struct HIP_ARRAY3D_DESCRIPTOR {
    size_t Width;
    size_t Height;
    size_t Depth;
    enum hipArray_Format Format;
    unsigned int NumChannels;
    unsigned int Flags;
} HIP_ARRAY3D_DESCRIPTOR;

/* Opaque here: no array is ever created (hipArrayCreate is not offered). */
typedef struct hipArray *hipArray_t;
typedef const struct hipArray *hipArray_const_t;
typedef struct hipMipmappedArray *hipMipmappedArray_t;
typedef const struct hipMipmappedArray *hipMipmappedArray_const_t;

#define hipArrayDefault 0x00
#define hipArrayLayered 0x01
#define hipArraySurfaceLoadStore 0x02
#define hipArrayCubemap 0x04
#define hipArrayTextureGather 0x08

typedef struct hipPitchedPtr {
    void *ptr;
    size_t pitch;
    size_t xsize;
    size_t ysize;
} hipPitchedPtr;

typedef struct hipExtent {
    size_t width; /* elements for arrays, bytes for linear memory */
    size_t height;
    size_t depth;
} hipExtent;

typedef struct hipPos {
    size_t x;
    size_t y;
    size_t z;
} hipPos;

typedef struct hipMemcpy3DParms {
    hipArray_t srcArray;
    struct hipPos srcPos;
    struct hipPitchedPtr srcPtr;
    hipArray_t dstArray;
    struct hipPos dstPos;
    struct hipPitchedPtr dstPtr;
    struct hipExtent extent;
    enum hipMemcpyKind kind;
} hipMemcpy3DParms;

static inline struct hipPitchedPtr make_hipPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
    struct hipPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}

static inline struct hipPos make_hipPos(size_t x, size_t y, size_t z) {
    struct hipPos p;
    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}

static inline struct hipExtent make_hipExtent(size_t w, size_t h, size_t d) {
    struct hipExtent e;
    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}

#endif /* HIP_INCLUDE_HIP_DRIVER_TYPES_H */
