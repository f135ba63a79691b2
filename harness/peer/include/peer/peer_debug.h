/*
 * Harness extensions to the HIP subset: what a test runner needs to look
 * behind the API (raw engine access at a VA, the last kernel failure, which
 * copy path was taken, device identity). Not part of HIP; plain C.
 */
#ifndef PEER_PEER_DEBUG_H
#define PEER_PEER_DEBUG_H

#include <peer/hip_peer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Outcome of one raw SDMA access. status is the API-level result (mapped per
 * CONTRACT.md §3); the rest says what the kernel reported. */
typedef struct peerRawAccessResult {
    hipError_t status;
    int vm_fault;           /* 1 when the job raised a GPU VM fault */
    uint64_t fault_address; /* page address the kernel reported (0 if unknown) */
    int kernel_errno;       /* errno of the failing ioctl, 0 if none */
    char kernel_call[32];   /* name of the failing ioctl/call, "" if none */
} peerRawAccessResult;

/* Raw SDMA copy on `device`'s engine, through `device`'s VM at deviceVa,
 * whatever is mapped there (or nothing). The bytes land in / come from a GTT
 * staging buffer of `device`. A VM fault is reported in *result (vm_fault=1,
 * status hipErrorIllegalAddress) and never hidden or retried; hostDst is then
 * filled with whatever the engine returned. result may be NULL. */
hipError_t peerRawSdmaRead(int device, const void *deviceVa, void *hostDst, size_t bytes,
                           peerRawAccessResult *result);
hipError_t peerRawSdmaWrite(int device, void *deviceVa, const void *hostSrc, size_t bytes,
                            peerRawAccessResult *result);

/* Largest IB peerRawSdmaSubmit takes, in dwords (one IB slot of the queue). */
#define PEER_RAW_SDMA_MAX_DWORDS 16384u

/* Submits `count` raw SDMA dwords as one IB on the same context and ring
 * `device`'s API copies use, with `device`'s GTT staging buffer resident, and
 * waits for it. Nothing is checked or added (padding NOPs aside): a malformed
 * packet hangs the ring until the kernel's job timeout, which this call
 * reports as hipErrorLaunchTimeOut with the errno and ioctl in *result and
 * peerLastKernelError(). The kernel then marks the context guilty; every
 * later job of `device` (hipMemcpyPeer, host transfers, raw access) fails
 * with hipErrorLaunchFailure (-ECANCELED from AMDGPU_CS) until hipDeviceReset
 * on `device` replaces the context (see harness/peer/README.md).
 * dwords NULL, count 0 or count > PEER_RAW_SDMA_MAX_DWORDS ->
 * hipErrorInvalidValue; result may be NULL. */
hipError_t peerRawSdmaSubmit(int device, const uint32_t *dwords, size_t count,
                             peerRawAccessResult *result);

/* "<ioctl name>: <errno name> (<errno>)" of this thread's last kernel failure,
 * "" when there was none. The pointer stays valid until the thread's next
 * API call. */
const char *peerLastKernelError(void);
/* The same as data: errno (0 if none) and call name (may be NULL). */
int peerLastKernelErrno(const char **call);
/* Forget this thread's last kernel failure (a runner does it per step). */
void peerClearLastKernelError(void);

/* Which path this thread's last successful hipMemcpyPeer took. */
typedef enum peerCopyPath {
    peerCopyPathNone = 0, /* no copy yet, or sizeBytes == 0 */
    peerCopyPathSameDevice = 1,
    peerCopyPathDirect = 2, /* one SDMA job on the device holding the mapping */
    peerCopyPathStaged = 3  /* via a GTT bounce buffer, source then destination engine */
} peerCopyPath;
peerCopyPath peerLastCopyPath(void);
/* Device whose engine ran the direct copy (or -1). */
int peerLastCopyEngineDevice(void);
const char *peerCopyPathName(peerCopyPath path);

/* How long this thread's last successful hipMemcpyPeer took, and on which
 * clock. A copy that is one SDMA job (same device, direct) carries two SDMA
 * TIMESTAMP (GET_GLOBAL) packets in its IB, just before and just after the
 * COPY_LINEAR packets; their difference at the device's DEV_INFO
 * gpu_counter_freq is the GPU's own time of the copy. The staged path runs on
 * two engines, so it is timed on the host from submission to the last fence
 * (peerCopyClockHostFence), as is a one-job copy whose timestamps are unusable
 * (no counter frequency, no buffer for them, the engine wrote none). A copy
 * shorter than one counter tick has nanoseconds 0 on the timestamp clock.
 * The link is the KFD io_link from the engine's device to the other device
 * (type 11 XGMI, 2 PCIe, 0 for a copy within one device) with its nominal
 * max_bandwidth in MB/s (0 unknown). */
typedef enum peerCopyClock {
    peerCopyClockNone = 0,          /* no timed copy yet on this thread */
    peerCopyClockSdmaTimestamp = 1, /* SDMA TIMESTAMP packets around the copy */
    peerCopyClockHostFence = 2      /* host monotonic clock, submit to fence */
} peerCopyClock;
typedef struct peerCopyTiming {
    peerCopyClock clock;
    uint64_t bytes;
    uint64_t nanoseconds;      /* on `clock` */
    uint64_t host_nanoseconds; /* host time of the same copy, for comparison */
    uint64_t counter_khz;      /* gpu_counter_freq used (timestamp clock only) */
    int engine_device;         /* device whose engine ran it, -1 for staged */
    uint32_t link_type;        /* HSA_IOLINKTYPE_*: 11 XGMI, 2 PCIe, 0 none */
    uint32_t link_max_mbytes;  /* KFD io_link max_bandwidth, MB/s, 0 unknown */
} peerCopyTiming;
/* NULL -> hipErrorInvalidValue. Zeroed (clock None) before the first copy. */
hipError_t peerLastCopyTiming(peerCopyTiming *timing);

/* Identity of a device as the kernel reports it. */
typedef struct peerDeviceInfo {
    int kfd_node;       /* KFD topology node id */
    uint64_t unique_id; /* KFD unique_id (0 if the kernel gives none) */
    int render_minor;   /* /dev/dri/renderD<minor> */
    uint32_t pci_domain, pci_bus, pci_device, pci_function;
    uint32_t pci_device_id; /* PCI device id (e.g. 0x74a1) */
    uint32_t family;        /* AMDGPU_FAMILY_* */
    uint32_t sdma_major;    /* SDMA IP version from HW_IP_INFO(DMA) */
    uint32_t sdma_minor;
    uint64_t hive_id; /* XGMI hive id, 0 if none */
    uint64_t vram_bytes;
    uint64_t visible_vram_bytes;
    char name[64];         /* marketing name or "" */
    uint32_t sdma_engines; /* SDMA rings HW_IP_INFO(DMA) offers this process */
} peerDeviceInfo;
hipError_t peerGetDeviceInfo(int device, peerDeviceInfo *info);

/* Whether `device`'s VM currently has peer access to `peer` enabled
 * (device -> peer), as this library's state says. */
hipError_t peerIsPeerAccessEnabled(int device, int peer, int *enabled);

/* Bytes per SDMA COPY_LINEAR packet that `device`'s copies use (every path:
 * peer, host transfers, raw access). Default: 0x3fff00 below SDMA 5.2
 * (Mesa's limit: the last 255 bytes of a 2^22-byte count are unreliable on
 * that hardware), 0x400000 (the kernel's copy_max_bytes) from 5.2. Set it to
 * probe the boundary; 0 restores the default; above the engine's per-packet
 * maximum -> hipErrorInvalidValue. Process-wide, not per thread. */
hipError_t peerSetCopyPacketMax(int device, size_t bytes);
hipError_t peerGetCopyPacketMax(int device, size_t *bytes);

/* AMDGPU_CTX_OP_QUERY_STATE2 flags of the context `device`'s copies run on
 * (bit 0 RESET, 1 VRAMLOST, 2 GUILTY, ...), for a case result's "context
 * reset state". A failed query -> hipErrorUnknown, errno in
 * peerLastKernelError. */
hipError_t peerGetContextResetState(int device, uint64_t *flags);

/* Where `device`'s buffers live as the kernel accounts them for this
 * library's DRM file (/proc/self/fdinfo drm-memory-vram / drm-memory-gtt,
 * bytes). A runner reads it around Enable to see that a peer import left the
 * exporter's buffers in VRAM. Either pointer may be NULL. A kernel without the
 * stats -> hipErrorNotFound. */
hipError_t peerGetDeviceMemoryUsage(int device, uint64_t *vramBytes, uint64_t *gttBytes);

/* Reads `bytes` at devicePtr through a CPU mapping of the allocation's BO
 * (AMDGPU_GEM_MMAP), without any engine job: the independent read-back path
 * of a runner's verification. The whole range must lie in one live
 * allocation -> else hipErrorInvalidValue; a failed mapping ->
 * hipErrorUnknown with the errno in peerLastKernelError. */
hipError_t peerCpuRead(const void *devicePtr, void *hostDst, size_t bytes);

/* The other direction: writes `bytes` from hostSrc at devicePtr through the
 * same CPU mapping (on the KFD path, by the owner's engine from host
 * memory), with the same rules and codes. A runner fills its buffers with it:
 * one pass over the bytes, where hipMemcpyHtoD stages them through GTT and
 * copies them with SDMA. */
hipError_t peerCpuWrite(void *devicePtr, const void *hostSrc, size_t bytes);

/* Compares `bytes` at devicePtr with `expected` through the route of
 * peerCpuRead (the CPU mapping; on the KFD path the owner's engine into its
 * staging buffer, filled first so that a read that writes nothing cannot
 * match) without copying them out: *equal is 1 when every byte matches, else
 * 0. Same rules and codes as peerCpuRead; NULL expected or equal ->
 * hipErrorInvalidValue. A runner verifies with it and reads back only to
 * describe a mismatch. */
hipError_t peerCpuEqual(const void *devicePtr, const void *expected, size_t bytes, int *equal);

/* One piece of the host side of a gathered write or compare: `size` bytes at
 * `bytes`. The pieces of one call follow each other on the device. */
typedef struct peerHostSpan {
    const void *bytes;
    size_t size;
} peerHostSpan;

/* peerCpuWrite and peerCpuEqual with the host side in `count` pieces, which
 * cover [devicePtr, devicePtr + their total size) in order. A runner that
 * keeps expected contents as pieces (its guard bytes, a kept pattern, what a
 * copy carried over) writes and checks them where they are, without joining
 * them first; on the KFD path the pieces of a staging chunk still go in one
 * engine job. Same rules and codes as the single-buffer calls; spans NULL
 * with count > 0, a piece with NULL bytes and a nonzero size, or sizes whose
 * sum overflows -> hipErrorInvalidValue. */
hipError_t peerCpuWriteSpans(void *devicePtr, const peerHostSpan *spans, size_t count);
hipError_t peerCpuEqualSpans(const void *devicePtr, const peerHostSpan *spans, size_t count,
                             int *equal);

/* Fills, through the CPU, the first `bytes` (at most their size) of the GTT
 * staging buffers of deviceA and deviceB and of the bounce buffers between
 * them with `byte`: what a transfer between them (or a raw access, A == B)
 * can use. A runner poisons them before each check, so a job that silently
 * did nothing leaves poison, not an earlier transfer's bytes. Invalid device
 * -> hipErrorInvalidDevice. */
hipError_t peerPoisonStaging(int deviceA, int deviceB, size_t bytes, unsigned char byte);

/* Device that owns the allocation containing ptr, or -1. */
int peerOwnerDevice(const void *ptr);

/* The kernel path the library drives, "drm" or "kfd" (environment
 * PEER_HARNESS_PATH at initialisation; CONTRACT.md section 7). Initialises the
 * library; "drm" also when no device is visible, NULL when the setting is
 * not one of the two. */
const char *peerKernelPath(void);

/* What this thread's last refused module load or kernel launch named (the
 * kernel or file, what its code objects are, the device) and why, as the
 * one stderr line the refusal printed; "" when none was refused
 * (CONTRACT.md section 5.6). Valid until the thread's next refusal. */
const char *peerLastGpuCodeRefusal(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PEER_PEER_DEBUG_H */
