#include "cases/step_table.hpp"

#include "errnos/errno_names.hpp"

#include <array>

namespace harness::cases {

namespace {

constexpr const char *kMustRead[] = {"fault", "succeed", "not_return_data"};
constexpr const char *kMustWrite[] = {"fault", "succeed"};
constexpr const char *kOutOrNull[] = {"out", "null"};
constexpr const char *kSelftest[] = {"pass",  "fail",          "crash",          "hang",
                                     "abort", "corrupt_guard", "corrupt_payload"};
constexpr const char *kOutcomes[] = {"hang", "vm_fault"};
constexpr const char *kPatterns[] = {"lfsr", "index"};
constexpr const char *kPaths[] = {"expected", "direct", "staged", "same_device"};
constexpr const char *kStaging[] = {"poisoned", "as_left"};
constexpr const char *kKinds[] = {"host_to_host",     "host_to_device", "device_to_host",
                                  "device_to_device", "default",        "invalid"};
constexpr const char *kStreams[] = {"null", "created", "destroyed"};
constexpr const char *kHostMallocFlags[] = {"default", "portable", "mapped",
                                            "coherent_and_noncoherent", "unknown_bit"};
// hipDeviceGetAttribute's attributes a case can name (CONTRACT.md §5.5),
// hipDeviceAttribute* in snake case; `unknown` is a value HIP does not define.
constexpr const char *kAttributes[] = {"multiprocessor_count",
                                       "pci_bus_id",
                                       "pci_device_id",
                                       "pci_domain_id",
                                       "total_global_mem",
                                       "warp_size",
                                       "max_threads_per_multiprocessor",
                                       "max_shared_memory_per_block",
                                       "clock_rate",
                                       "compute_capability_major",
                                       "compute_capability_minor",
                                       "is_large_bar",
                                       "async_engine_count",
                                       "can_use_stream_wait_value",
                                       "managed_memory",
                                       "unknown"};
constexpr const char *kRegisterFlags[] = {"default", "mapped", "io_memory", "unknown_bit"};

// Kernel-contract steps: `ok` for success, or an errno name of
// harness/errnos' table (the names kmd::Status prints).
constexpr auto kErrnos = [] {
    std::array<const char *, errnos::kErrnoCount + 1> words{"ok"};
    for (size_t i = 0; i < errnos::kErrnoCount; ++i)
        words[i + 1] = errnos::kErrnoNames[i].name;
    return words;
}();
constexpr const char *kDomains[] = {"vram", "gtt", "unknown_bit"};
constexpr const char *kCreateFlags[] = {"none",          "vram_cleared",  "cpu_access_required",
                                        "no_cpu_access", "explicit_sync", "vm_always_valid",
                                        "unknown_bit"};
constexpr const char *kBoRead[] = {"zero"};
constexpr const char *kVaOps[] = {"map", "unmap", "unknown_op"};
constexpr const char *kVaFrom[] = {"zero", "start", "end"};
constexpr const char *kChunks[] = {"ib", "undersized_ib", "none", "unknown_chunk", "bad_ip_type"};
constexpr const char *kCtx[] = {"own", "unknown"};
constexpr const char *kBoList[] = {"none", "valid", "unknown"};
constexpr const char *kWaitHow[] = {"wait_cs", "wait_fences", "syncobj"};
constexpr const char *kWaitSeq[] = {"issued", "future"};
constexpr const char *kWaitMust[] = {"signaled", "busy"};
constexpr const char *kSyncState[] = {"signaled", "unsignaled", "signaled_then_reset",
                                      "unsignaled_then_signaled"};
constexpr const char *kDmabufMust[] = {"stay_in_vram", "move_to_gtt", "readable_after_close",
                                       "write_survives_move"};

constexpr ArgSpec kErrnoArg = {"errno", ArgKind::word, false,
                               "the errno the ioctl must fail with, or ok (default ok)", kErrnos};

constexpr ArgSpec kKernelBo[] = {
    {"device", ArgKind::expr, true, "the device whose render node gets the GEM_CREATE, e.g. $a"},
    {"bytes", ArgKind::expr, true, "bo_size, e.g. 64Ki"},
    {"domain", ArgKind::word, true, "vram, gtt or unknown_bit (a domain bit no kernel knows)",
     kDomains},
    {"flag", ArgKind::word, false,
     "one AMDGPU_GEM_CREATE_* flag: none, vram_cleared, cpu_access_required, no_cpu_access, "
     "explicit_sync, vm_always_valid or unknown_bit",
     kCreateFlags},
    {"as", ArgKind::buffer_def, false, "a name for the new BO (letters, digits, _)"},
    kErrnoArg,
};
constexpr ArgSpec kKernelBoRead[] = {
    {"bo", ArgKind::buffer_ref, true, "a BO created by an earlier kernel_bo"},
    {"must", ArgKind::word, true, "zero: every byte reads 0 through a CPU mapping", kBoRead},
};
constexpr ArgSpec kKernelVa[] = {
    {"bo", ArgKind::buffer_ref, true, "a BO created by an earlier kernel_bo"},
    {"va", ArgKind::expr, true, "the address, counted from `from`, e.g. -4Ki or 0x1000"},
    {"from", ArgKind::word, false,
     "zero (absolute, default), start (DEV_INFO virtual_address_offset) or end "
     "(DEV_INFO virtual_address_max)",
     kVaFrom},
    {"op", ArgKind::word, false, "map (default), unmap or unknown_op", kVaOps},
    {"bytes", ArgKind::expr, false, "map_size (default: the BO's size)"},
    {"offset", ArgKind::expr, false, "offset_in_bo (default 0)"},
    kErrnoArg,
};
constexpr ArgSpec kKernelCs[] = {
    {"device", ArgKind::expr, true, "the device that gets the CS, e.g. $a"},
    {"chunks", ArgKind::word, false,
     "ib (one NOP IB, default), undersized_ib (an IB chunk shorter than "
     "drm_amdgpu_cs_chunk_ib), none, unknown_chunk or bad_ip_type",
     kChunks},
    {"ctx", ArgKind::word, false, "own (a context of this file, default) or unknown", kCtx},
    {"bo_list", ArgKind::word, false, "none (default), valid or unknown (a handle never created)",
     kBoList},
    {"as", ArgKind::buffer_def, false, "a name for the submitted job"},
    kErrnoArg,
};
constexpr ArgSpec kKernelWait[] = {
    {"job", ArgKind::buffer_ref, true, "a job submitted by an earlier kernel_cs"},
    {"ioctl", ArgKind::word, true,
     "wait_cs, wait_fences (wait_all) or syncobj (FENCE_TO_HANDLE then SYNCOBJ_WAIT)", kWaitHow},
    {"seq", ArgKind::word, false, "issued (the job's, default) or future (never issued)", kWaitSeq},
    {"must", ArgKind::word, false, "signaled (default; waits up to 10 s) or busy", kWaitMust},
    kErrnoArg,
};
constexpr ArgSpec kKernelSyncobj[] = {
    {"device", ArgKind::expr, true, "the device whose render node holds the syncobj, e.g. $a"},
    {"state", ArgKind::word, true,
     "signaled (CREATE_SIGNALED), unsignaled, signaled_then_reset or unsignaled_then_signaled "
     "(SYNCOBJ_SIGNAL)",
     kSyncState},
    kErrnoArg,
};
constexpr ArgSpec kKernelDependency[] = {
    {"device", ArgKind::expr, true, "the device whose job is waited for (A), e.g. $a"},
    {"peer", ArgKind::expr, true, "the device whose job depends on it (B), e.g. $b"},
    {"ring", ArgKind::expr, false, "the SDMA ring of A's job (default 0)"},
    {"peer_ring", ArgKind::expr, false, "the SDMA ring of B's job (default 0)"},
};
constexpr ArgSpec kKernelDmabuf[] = {
    {"device", ArgKind::expr, true, "the exporting device, e.g. $a"},
    {"peer", ArgKind::expr, true, "the importing device, e.g. $b"},
    {"bytes", ArgKind::expr, true, "size of the exported BO, e.g. 1Mi"},
    {"must", ArgKind::word, true,
     "stay_in_vram: the exporter's drm-memory-vram/gtt (fdinfo) do not change (a VRAM BO); "
     "move_to_gtt: a BO larger than the exporter's CPU-visible VRAM (at least bytes) moves by "
     "its size from VRAM to GTT; "
     "readable_after_close: a GTT BO exported, its last GEM handle closed, imports on peer and "
     "reads back its bytes there; write_survives_move: a VRAM BO a held job of device writes is "
     "imported on peer (which moves it to GTT) before the job runs, and keeps the job's bytes",
     kDmabufMust},
};

constexpr const char *kKfdMust[] = {"map", "refuse"};
constexpr const char *kKfdKinds[] = {"vram", "mmio"};
constexpr ArgSpec kKernelKfd[] = {
    {"device", ArgKind::expr, true, "the device whose VRAM is allocated (the owner), e.g. $b"},
    {"peer", ArgKind::expr, true, "the device that maps it too (the mapper), e.g. $a"},
    {"bytes", ArgKind::expr, false,
     "size of the VRAM allocation, a multiple of 4Ki (default 64Ki)"},
    {"kind", ArgKind::word, false,
     "vram (default): the owner's VRAM through libhsakmt; mmio: the owner's MMIO remap page "
     "through raw KFD ioctls in a process of its own (peer-harness kfd-map-probe)",
     kKfdKinds},
    {"must", ArgKind::word, true,
     "map: MAP_MEMORY_TO_GPU onto owner and peer succeeds (vram: and the peer's SDMA user queue "
     "reads the owner's bytes); refuse: it fails with EINVAL (kfd_mem_attach) (vram: and the "
     "owner still reads its bytes)",
     kKfdMust},
};

constexpr const char *kVmOps[] = {"offset",        "replace", "unmap_map", "clear_map",
                                  "neighbour_map", "unmap",   "free",      "fresh_vm_after_fault"};
constexpr const char *kVmDomains[] = {"vram", "gtt"};
constexpr ArgSpec kKernelVm[] = {
    {"device", ArgKind::expr, true, "the device whose VM is changed, e.g. $a"},
    {"op", ArgKind::word, true,
     "offset (MAP with offset_in_bo), replace (REPLACE over a mapping), unmap_map, clear_map "
     "(UNMAP / CLEAR then MAP another BO), neighbour_map (MAP beside a valid PTE of the same "
     "8-PTE block), unmap or free (UNMAP / GEM_CLOSE of a mapped BO: the next job must fault), "
     "fresh_vm_after_fault (a file whose VM faulted closes; a new file's VM has no fault)",
     kVmOps},
    {"domain", ArgKind::word, false, "vram or gtt (default): where the mapped BOs live",
     kVmDomains},
    {"bytes", ArgKind::expr, false, "bytes mapped, a multiple of 4Ki (default 64Ki)"},
    {"offset", ArgKind::expr, false,
     "for op offset: offset_in_bo, a multiple of 4Ki (default 4Ki)"},
    {"peer", ArgKind::expr, false,
     "for op offset: the device whose BO is mapped, exported as a dma-buf and imported into the "
     "VM's file (default: the VM's own device)"},
};

constexpr const char *kJobChecks[] = {"wait_never_early", "idle_waits_for_newest",
                                      "free_ctx_waits_for_deps", "hang"};
constexpr ArgSpec kKernelJobs[] = {
    {"device", ArgKind::expr, true, "the device whose jobs are checked, e.g. $a"},
    {"check", ArgKind::word, true,
     "wait_never_early (WAIT_CS on every SDMA ring reports a held job busy), "
     "idle_waits_for_newest (GEM_WAIT_IDLE waits for the newest of two jobs on a BO), "
     "free_ctx_waits_for_deps (a freed context's job waiting for peer's held job stays pending), "
     "hang (a job that never ends: ETIME, guilty context, the queued job -ECANCELED, not run, "
     "then a new context's job runs)",
     kJobChecks},
    {"peer", ArgKind::expr, false,
     "for free_ctx_waits_for_deps: the device whose context is freed (default: device)"},
    {"ring", ArgKind::expr, false, "for hang: the SDMA ring the jobs run on (default 0)"},
};

constexpr const char *kPacketOps[] = {"fill", "copy"};
constexpr ArgSpec kKernelPacket[] = {
    {"device", ArgKind::expr, true, "the device whose SDMA engine runs the packet, e.g. $a"},
    {"ring", ArgKind::expr, true, "the SDMA ring, e.g. $ring"},
    {"op", ArgKind::word, true,
     "fill (one CONSTANT_FILL) or copy (one COPY_LINEAR from a patterned GTT BO)", kPacketOps},
    {"bytes", ArgKind::expr, true,
     "the packet's byte count, 1 .. the generation's per-packet maximum, e.g. 4Mi-4"},
    {"shift", ArgKind::expr, false,
     "bytes the destination address lies past a page boundary (default 0: 4 KiB aligned)"},
};

constexpr ArgSpec kSetDevice[] = {
    {"device", ArgKind::expr, true, "a device number expression such as $a or 0"}};
constexpr ArgSpec kGetDevice[] = {
    {"expect_value", ArgKind::check, true, "the device hipGetDevice must report, e.g. $a"}};
constexpr ArgSpec kGetDeviceCount[] = {
    {"expect_value", ArgKind::check, true, "a count expression or `topology`"}};
constexpr ArgSpec kAlloc[] = {
    {"device", ArgKind::expr, true, "the device that owns the allocation, e.g. $b"},
    {"bytes", ArgKind::expr, true, "a size expression such as 4Mi+1 or $size"},
    {"as", ArgKind::buffer_def, true, "a new buffer name (letters, digits, _)"},
    {"guard", ArgKind::expr, false,
     "guard bytes allocated on each side of the buffer and checked by verify, e.g. 4Ki"},
    {"fill", ArgKind::pattern, false,
     "`none`, `cleared` (must read zero: never written) or {pattern: lfsr|index, seed: EXPR}"},
};
constexpr ArgSpec kFree[] = {{"buffer", ArgKind::buffer_ref, true, "a buffer allocated earlier"}};
constexpr ArgSpec kFill[] = {
    {"buffer", ArgKind::buffer_ref, true, "a buffer allocated earlier"},
    {"pattern", ArgKind::word, true, "lfsr or index", kPatterns},
    {"seed", ArgKind::expr, false, "a seed expression (default 1)"},
};
constexpr ArgSpec kCanAccessPeer[] = {
    {"device", ArgKind::expr, true, "deviceId, e.g. $a"},
    {"peer", ArgKind::expr, true, "peerDeviceId, e.g. $b"},
    {"out", ArgKind::word, false, "`out` (a valid int*) or `null`", kOutOrNull},
    {"expect_value", ArgKind::check, false, "0, 1, `topology` or `untouched`"},
};
constexpr ArgSpec kEnable[] = {
    {"peer", ArgKind::expr, true, "peerDeviceId, e.g. $b"},
    {"flags", ArgKind::expr, false, "flags (default 0)"},
    {"device", ArgKind::expr, false, "makes this device current first (hipSetDevice)"},
};
constexpr ArgSpec kDisable[] = {
    {"peer", ArgKind::expr, true, "peerDeviceId, e.g. $b"},
    {"device", ArgKind::expr, false, "makes this device current first (hipSetDevice)"},
};
constexpr ArgSpec kReset[] = {
    {"device", ArgKind::expr, false, "makes this device current first (hipSetDevice)"}};
constexpr ArgSpec kAddressRange[] = {
    {"ptr", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"pbase", ArgKind::word, false, "`out` or `null`", kOutOrNull},
    {"psize", ArgKind::word, false, "`out` or `null`", kOutOrNull},
    {"expect_base", ArgKind::pointer, false, "the base the call must report, e.g. BUFFER"},
    {"expect_size", ArgKind::expr, false, "the size the call must report, e.g. $dst.bytes"},
};
constexpr ArgSpec kMemcpyPeer[] = {
    {"dst", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"dst_device", ArgKind::expr, true, "dstDeviceId, e.g. $b"},
    {"src", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"src_device", ArgKind::expr, true, "srcDeviceId, e.g. $a"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $size"},
    {"path", ArgKind::word, false,
     "expected (the path harness/peer/CONTRACT.md section 2 prescribes), direct, staged or "
     "same_device",
     kPaths},
    {"staging", ArgKind::word, false,
     "poisoned (default: the staging and bounce buffers are filled with a poison byte first, so a "
     "second leg that ran before its first leg wrote cannot pass on an earlier copy's bytes) or "
     "as_left (kept as the last copy left them: the check that the poison is what catches such "
     "a leg)",
     kStaging},
};
constexpr ArgSpec kMemcpy[] = {
    {"dst", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"src", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $size (at most 64 with a host pointer)"},
    {"kind", ArgKind::word, true,
     "host_to_host, host_to_device, device_to_host, device_to_device, default or invalid", kKinds},
};
constexpr ArgSpec kMemcpyAsync[] = {
    {"dst", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"src", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $size (at most 64 with a host pointer)"},
    {"kind", ArgKind::word, true,
     "host_to_host, host_to_device, device_to_host, device_to_device, default or invalid", kKinds},
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
};
constexpr ArgSpec kStreamArg[] = {
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
};
constexpr ArgSpec kMemcpyPeerAsync[] = {
    {"dst", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"dst_device", ArgKind::expr, true, "dstDeviceId, e.g. $b"},
    {"src", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"src_device", ArgKind::expr, true, "srcDeviceId, e.g. $a"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $size"},
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
};
// Two event slots per case; `null` is a NULL handle, `destroyed` one that
// hipEventDestroy has ended.
constexpr const char *kEventNames[] = {"start", "stop"};
constexpr const char *kEventRefs[] = {"start", "stop", "null", "destroyed"};
constexpr const char *kEventFlags[] = {
    "default",    "blocking_sync", "disable_timing", "interprocess", "interprocess_disable_timing",
    "unknown_bit"};
constexpr const char *kCallbacks[] = {"set", "null"};
constexpr ArgSpec kEventCreate[] = {
    {"event", ArgKind::word, true, "start or stop: the case's event this creates", kEventNames},
    {"flags", ArgKind::word, false,
     "default (0), blocking_sync, disable_timing, interprocess, interprocess_disable_timing or "
     "unknown_bit",
     kEventFlags},
    {"out", ArgKind::word, false, "`out` (a valid hipEvent_t*, default) or `null`", kOutOrNull},
};
constexpr ArgSpec kEventRecord[] = {
    {"event", ArgKind::word, true,
     "start, stop (created by event_create), null or destroyed (a destroyed handle)", kEventRefs},
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
};
constexpr ArgSpec kEventArg[] = {
    {"event", ArgKind::word, true,
     "start, stop (created by event_create), null or destroyed (a destroyed handle)", kEventRefs},
};
constexpr ArgSpec kEventElapsed[] = {
    {"start", ArgKind::word, true, "the start event: start, stop, null or destroyed", kEventRefs},
    {"stop", ArgKind::word, true, "the stop event: start, stop, null or destroyed", kEventRefs},
    {"ms", ArgKind::word, false, "`out` (a valid float*, default) or `null`", kOutOrNull},
};
constexpr ArgSpec kStreamWaitEvent[] = {
    {"event", ArgKind::word, true, "start, stop, null or destroyed", kEventRefs},
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
    {"flags", ArgKind::expr, false, "flags (default 0)"},
};
constexpr ArgSpec kStreamAddCallback[] = {
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
    {"callback", ArgKind::word, false,
     "set (default: a callback the next successful stream_synchronize of that stream must have "
     "run) or null",
     kCallbacks},
    {"flags", ArgKind::expr, false, "flags (default 0)"},
};
constexpr ArgSpec kHostPageable[] = {
    {"bytes", ArgKind::expr, true, "size of the page-aligned pageable host memory, e.g. 64Ki"},
    {"as", ArgKind::buffer_def, true, "a new buffer name (letters, digits, _)"},
};
constexpr ArgSpec kHostMalloc[] = {
    {"bytes", ArgKind::expr, true, "size, e.g. 64Ki"},
    {"as", ArgKind::buffer_def, false, "a name for the pinned buffer (letters, digits, _)"},
    {"flags", ArgKind::word, false,
     "default (0), portable, mapped, coherent_and_noncoherent or unknown_bit", kHostMallocFlags},
};
constexpr ArgSpec kHostPtr[] = {
    {"ptr", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"}};
constexpr ArgSpec kHostRegister[] = {
    {"ptr", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $mem.bytes"},
    {"flags", ArgKind::word, false, "default (0), mapped, io_memory or unknown_bit",
     kRegisterFlags},
};
constexpr ArgSpec kHostGetDevicePointer[] = {
    {"ptr", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"flags", ArgKind::expr, false, "flags (default 0)"},
    {"out", ArgKind::word, false, "`out` (a valid void**, default) or `null`", kOutOrNull},
};
constexpr ArgSpec kMemGetInfo[] = {
    {"free", ArgKind::word, false, "`out` (default) or `null`", kOutOrNull},
    {"total", ArgKind::word, false, "`out` (default) or `null`", kOutOrNull},
};
constexpr ArgSpec kStreamCreate[] = {
    {"out", ArgKind::word, false, "`out` (a valid hipStream_t*, default) or `null`", kOutOrNull},
};
constexpr ArgSpec kMemset[] = {
    {"dst", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"value", ArgKind::expr, false, "the byte value (default 0; only the low 8 bits count)"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $size"},
};
constexpr ArgSpec kMemsetAsync[] = {
    {"dst", ArgKind::pointer, true, "null, host, BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"value", ArgKind::expr, false, "the byte value (default 0; only the low 8 bits count)"},
    {"bytes", ArgKind::expr, true, "sizeBytes, e.g. $size"},
    {"stream", ArgKind::word, false,
     "null (default), created (the case's stream) or destroyed (a destroyed handle)", kStreams},
};
constexpr ArgSpec kDeviceProperties[] = {
    {"device", ArgKind::expr, true, "deviceId, e.g. $a (any number, valid or not)"},
    {"out", ArgKind::word, false, "`out` (a valid hipDeviceProp_t*, default) or `null`",
     kOutOrNull},
};
constexpr ArgSpec kDeviceAttribute[] = {
    {"device", ArgKind::expr, true, "deviceId, e.g. $a (any number, valid or not)"},
    {"attribute", ArgKind::word, true,
     "the hipDeviceAttribute_t asked for, e.g. multiprocessor_count, or unknown (a value no "
     "HIP attribute has)",
     kAttributes},
    {"out", ArgKind::word, false, "`out` (a valid int*, default) or `null`", kOutOrNull},
};
constexpr ArgSpec kSetCopyPacketMax[] = {
    {"device", ArgKind::expr, true, "the device whose copies are split, e.g. $a"},
    {"bytes", ArgKind::expr, true,
     "bytes per COPY_LINEAR packet, at most the engine's copy_max_bytes (4Mi); 0 restores the "
     "default"},
};
constexpr ArgSpec kVerify[] = {{"buffer", ArgKind::buffer_ref, true, "a buffer allocated earlier"}};
constexpr ArgSpec kRawRead[] = {
    {"device", ArgKind::expr, true, "the device whose SDMA engine reads, e.g. $c"},
    {"src", ArgKind::pointer, true, "BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"bytes", ArgKind::expr, true, "bytes to read, e.g. 4Ki"},
    {"must", ArgKind::word, true, "fault, succeed or not_return_data", kMustRead},
};
constexpr ArgSpec kRawWrite[] = {
    {"device", ArgKind::expr, true, "the device whose SDMA engine writes, e.g. $c"},
    {"dst", ArgKind::pointer, true, "BUFFER or {buffer: BUFFER, offset: EXPR}"},
    {"bytes", ArgKind::expr, true, "bytes to write, e.g. 4Ki"},
    {"must", ArgKind::word, true, "fault or succeed", kMustWrite},
    {"seed", ArgKind::expr, false, "seed of the lfsr pattern written (default 99)"},
};
constexpr ArgSpec kErrorName[] = {
    {"code", ArgKind::hip_code, true, "a HIP error name such as hipErrorInvalidDevice"}};
constexpr ArgSpec kSelftestArgs[] = {
    {"action", ArgKind::word, true,
     "pass, fail, crash, hang, abort, corrupt_guard or corrupt_payload", kSelftest},
    {"buffer", ArgKind::buffer_ref, false,
     "for corrupt_*: the buffer whose bytes are changed behind the model's back"},
};

constexpr ArgSpec kProvoke[] = {
    {"device", ArgKind::expr, true, "the device whose engine is made to fail, e.g. $a"},
    {"outcome", ArgKind::word, true,
     "hang (a malformed packet: hipErrorLaunchTimeOut, guilty context, reset) or vm_fault (an "
     "access to a freed VA: hipErrorIllegalAddress, GPUVM fault info)",
     kOutcomes},
};

constexpr StepSpec kSteps[] = {
    {StepKind::set_device, "set_device", "device", true, kSetDevice, "hipSetDevice(device)"},
    {StepKind::get_device, "get_device", "expect_value", true, kGetDevice,
     "hipGetDevice, checks the current device"},
    {StepKind::get_device_count, "get_device_count", "expect_value", true, kGetDeviceCount,
     "hipGetDeviceCount, checks the count"},
    {StepKind::alloc, "alloc", nullptr, true, kAlloc,
     "hipMalloc on a device (current device restored), optional guards, filled with a pattern"},
    {StepKind::free, "free", "buffer", true, kFree, "hipFree"},
    {StepKind::fill, "fill", nullptr, true, kFill,
     "writes a pattern into a buffer (hipMemcpyHtoD)"},
    {StepKind::can_access_peer, "can_access_peer", nullptr, true, kCanAccessPeer,
     "hipDeviceCanAccessPeer, checks the value written"},
    {StepKind::enable_peer_access, "enable_peer_access", "peer", true, kEnable,
     "hipDeviceEnablePeerAccess from the current device"},
    {StepKind::disable_peer_access, "disable_peer_access", "peer", true, kDisable,
     "hipDeviceDisablePeerAccess from the current device"},
    {StepKind::device_reset, "device_reset", "device", true, kReset,
     "hipDeviceReset of the current device"},
    {StepKind::get_address_range, "get_address_range", nullptr, true, kAddressRange,
     "hipMemGetAddressRange, checks base and size"},
    {StepKind::memcpy_peer, "memcpy_peer", nullptr, true, kMemcpyPeer,
     "hipMemcpyPeer; on success the destination's expected contents follow the source"},
    {StepKind::memcpy, "memcpy", nullptr, true, kMemcpy,
     "hipMemcpy with a kind; on success the destination's expected contents follow the source"},
    {StepKind::memcpy_async, "memcpy_async", nullptr, true, kMemcpyAsync,
     "hipMemcpyAsync on a stream; the copy is complete after stream_synchronize"},
    {StepKind::stream_synchronize, "stream_synchronize", "stream", true, kStreamArg,
     "hipStreamSynchronize: waits for the stream's work and returns its failure"},
    {StepKind::stream_query, "stream_query", "stream", true, kStreamArg,
     "hipStreamQuery: hipErrorNotReady while queued work has not finished"},
    {StepKind::stream_hold, "stream_hold", "stream", true, kStreamArg,
     "hipStreamWaitValue32 on a host word the case owns: later work waits for stream_release"},
    {StepKind::stream_release, "stream_release", "stream", false, kStreamArg,
     "writes the host word stream_hold waits for (no HIP call)"},
    {StepKind::memcpy_peer_async, "memcpy_peer_async", nullptr, true, kMemcpyPeerAsync,
     "hipMemcpyPeerAsync on a stream; the copy is complete after stream_synchronize"},
    {StepKind::host_pageable, "host_pageable", nullptr, false, kHostPageable,
     "page-aligned pageable host memory of the case's own, filled with a pattern (no HIP call)"},
    {StepKind::host_malloc, "host_malloc", nullptr, true, kHostMalloc,
     "hipHostMalloc; on success `as` names the pinned buffer, filled with a pattern"},
    {StepKind::host_free, "host_free", "ptr", true, kHostPtr, "hipHostFree"},
    {StepKind::host_register, "host_register", nullptr, true, kHostRegister,
     "hipHostRegister of a host range"},
    {StepKind::host_unregister, "host_unregister", "ptr", true, kHostPtr, "hipHostUnregister"},
    {StepKind::host_get_device_pointer, "host_get_device_pointer", nullptr, true,
     kHostGetDevicePointer,
     "hipHostGetDevicePointer; on success the device pointer names the same bytes (read back "
     "with hipMemcpy DeviceToHost) and hipMemGetAddressRange knows it"},
    {StepKind::mem_get_info, "mem_get_info", nullptr, true, kMemGetInfo,
     "hipMemGetInfo of the current device; on success 0 < free <= total"},
    {StepKind::stream_create, "stream_create", nullptr, true, kStreamCreate,
     "hipStreamCreate; on success the new stream is the case's `created` stream"},
    {StepKind::stream_destroy, "stream_destroy", "stream", true, kStreamArg,
     "hipStreamDestroy; a destroyed `created` stream becomes the case's `destroyed` handle"},
    {StepKind::get_last_error,
     "get_last_error",
     nullptr,
     true,
     {},
     "hipGetLastError: returns the thread's last error (checked by expect) and clears it"},
    {StepKind::peek_at_last_error,
     "peek_at_last_error",
     nullptr,
     true,
     {},
     "hipPeekAtLastError: returns the thread's last error (checked by expect), not cleared"},
    {StepKind::memset, "memset", nullptr, true, kMemset,
     "hipMemset; on success the range holds the byte value"},
    {StepKind::memset_async, "memset_async", nullptr, true, kMemsetAsync,
     "hipMemsetAsync on a stream; the range holds the byte value once the stream's work is done"},
    {StepKind::device_synchronize,
     "device_synchronize",
     nullptr,
     true,
     {},
     "hipDeviceSynchronize: waits for every stream of the current device, returns their failure"},
    {StepKind::get_device_properties, "get_device_properties", "device", true, kDeviceProperties,
     "hipGetDeviceProperties; on success the fields agree with hipDeviceGetName, "
     "hipDeviceGetPCIBusId and every hipDeviceGetAttribute"},
    {StepKind::device_get_attribute, "device_get_attribute", nullptr, true, kDeviceAttribute,
     "hipDeviceGetAttribute; on success the value is hipGetDeviceProperties' field"},
    {StepKind::set_copy_packet_max, "set_copy_packet_max", nullptr, true, kSetCopyPacketMax,
     "peerSetCopyPacketMax: the device's copies (every path) use COPY_LINEAR packets of at "
     "most `bytes`; reset to the default when the instance ends"},
    {StepKind::event_create, "event_create", "event", true, kEventCreate,
     "hipEventCreateWithFlags; on success the event is the case's `start` or `stop` and "
     "hipEventQuery of it (never recorded) returns hipSuccess"},
    {StepKind::event_record, "event_record", "event", true, kEventRecord,
     "hipEventRecord on a stream: the event completes after the stream's earlier work"},
    {StepKind::event_query, "event_query", "event", true, kEventArg,
     "hipEventQuery: hipErrorNotReady while the work before the record has not finished"},
    {StepKind::event_synchronize, "event_synchronize", "event", true, kEventArg,
     "hipEventSynchronize: waits for the work before the record"},
    {StepKind::event_elapsed_time, "event_elapsed_time", nullptr, true, kEventElapsed,
     "hipEventElapsedTime; on success the time is finite, and 0 for the same event twice"},
    {StepKind::event_destroy, "event_destroy", "event", true, kEventArg,
     "hipEventDestroy; a destroyed case event becomes the `destroyed` handle"},
    {StepKind::stream_wait_event, "stream_wait_event", nullptr, true, kStreamWaitEvent,
     "hipStreamWaitEvent: the stream's later work waits for the event's position"},
    {StepKind::stream_add_callback, "stream_add_callback", "stream", true, kStreamAddCallback,
     "hipStreamAddCallback; a `set` callback must have run when the stream's next "
     "stream_synchronize succeeds"},
    {StepKind::verify, "verify", "buffer", false, kVerify,
     "reads a whole allocation back (guards included) and compares it byte for byte"},
    {StepKind::raw_sdma_read, "raw_sdma_read", nullptr, false, kRawRead,
     "SDMA read through a device's VM that must fault, succeed, or not return the data"},
    {StepKind::raw_sdma_write, "raw_sdma_write", nullptr, false, kRawWrite,
     "SDMA write through a device's VM that must fault or succeed"},
    {StepKind::error_name, "error_name", "code", false, kErrorName,
     "hipGetErrorName returns the code's name, hipGetErrorString a non-empty text"},
    {StepKind::selftest, "selftest", "action", false, kSelftestArgs,
     "runner self-test: pass, fail, crash, hang, abort, or corrupt a buffer behind the "
     "model's back (never in the default suite)"},
    {StepKind::kernel_bo, "kernel_bo", nullptr, false, kKernelBo,
     "GEM_CREATE on the device's own DRM file; checks the errno"},
    {StepKind::kernel_bo_read, "kernel_bo_read", nullptr, false, kKernelBoRead,
     "GEM_MMAP + mmap of a BO and a check of its bytes"},
    {StepKind::kernel_va, "kernel_va", nullptr, false, kKernelVa,
     "GEM_VA map/unmap of a BO at an address; checks the errno"},
    {StepKind::kernel_cs, "kernel_cs", nullptr, false, kKernelCs,
     "AMDGPU_CS of a NOP IB on SDMA with the chunks, context and BO list given; checks the errno"},
    {StepKind::kernel_wait, "kernel_wait", nullptr, false, kKernelWait,
     "waits for a job with WAIT_CS, WAIT_FENCES or a syncobj; checks the errno and the state"},
    {StepKind::kernel_syncobj, "kernel_syncobj", nullptr, false, kKernelSyncobj,
     "creates a syncobj in a state and waits on it (SYNCOBJ_WAIT); checks the errno"},
    {StepKind::kernel_dependency, "kernel_dependency", nullptr, false, kKernelDependency,
     "a job on peer that waits (SYNCOBJ_IN) for a blocked job on device finishes only after it"},
    {StepKind::kernel_dmabuf, "kernel_dmabuf", nullptr, false, kKernelDmabuf,
     "exports a BO, imports and maps it on peer; checks where the exporter's BO lives, or that "
     "the dma-buf alone keeps it importable and readable"},
    {StepKind::kernel_vm, "kernel_vm", nullptr, false, kKernelVm,
     "one GEM_VA change or GEM_CLOSE, then the very next SDMA job reads the range: it must see "
     "the new mapping's bytes (or fault where nothing is mapped)"},
    {StepKind::kernel_jobs, "kernel_jobs", nullptr, false, kKernelJobs,
     "fence and job-lifetime rules with jobs held on a CPU flag: WAIT_CS, GEM_WAIT_IDLE, "
     "freeing a context, a job timeout"},
    {StepKind::kernel_packet, "kernel_packet", nullptr, false, kKernelPacket,
     "one CONSTANT_FILL or COPY_LINEAR packet of `bytes` on one SDMA ring into a guarded GTT "
     "BO: every byte lands, nothing after it is written"},
    {StepKind::kernel_kfd, "kernel_kfd", nullptr, false, kKernelKfd,
     "KFD path (libhsakmt): the owner's VRAM mapped onto the peer's node as well; the kernel "
     "must map it (and the peer read it) or refuse it, as the machine manifest says"},
    {StepKind::provoke, "provoke", nullptr, false, kProvoke,
     "disruptive: provokes a hang or a VM fault on a device and asserts the HIP code, the "
     "kernel's outcome and the recovery after hipDeviceReset"},
};

} // namespace

std::span<const StepSpec> step_specs() {
    return kSteps;
}

const StepSpec *find_step(std::string_view name) {
    for (const auto &s : kSteps) {
        if (name == s.name) return &s;
    }
    return nullptr;
}

const ArgSpec *find_arg(const StepSpec &spec, std::string_view name) {
    for (const auto &a : spec.args) {
        if (name == a.name) return &a;
    }
    return nullptr;
}

const char *arg_kind_name(ArgKind kind) {
    switch (kind) {
    case ArgKind::expr:
        return "expression";
    case ArgKind::check:
        return "expected value";
    case ArgKind::buffer_def:
        return "new buffer name";
    case ArgKind::buffer_ref:
        return "buffer name";
    case ArgKind::pointer:
        return "pointer";
    case ArgKind::pattern:
        return "pattern";
    case ArgKind::word:
        return "word";
    case ArgKind::hip_code:
        return "HIP error name";
    }
    return "?";
}

} // namespace harness::cases
