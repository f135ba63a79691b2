// The step kinds of the case language and their arguments: one table that the
// loader validates against, the runner dispatches on, and the JSON Schema in
// cases/ is tested against (so the three cannot drift apart).
#pragma once

#include <span>
#include <string_view>

namespace harness::cases {

enum class ArgKind {
    expr,       // integer expression (expr.hpp)
    check,      // expression, or `topology` / `untouched`
    buffer_def, // a new buffer name
    buffer_ref, // a buffer allocated by an earlier step
    pointer,    // null | host | BUFFER | {buffer: BUFFER, offset: EXPR}
    pattern,    // none | {pattern: lfsr|index, seed: EXPR}
    word,       // one of ArgSpec::words
    hip_code,   // a HIP error name
};

struct ArgSpec {
    const char *name;
    ArgKind kind;
    bool required;
    const char *help; // what is expected, used verbatim in error messages
    std::span<const char *const> words = {};
};

enum class StepKind {
    set_device,
    get_device,
    get_device_count,
    alloc,
    free,
    fill,
    can_access_peer,
    enable_peer_access,
    disable_peer_access,
    device_reset,
    get_address_range,
    memcpy_peer,
    verify,
    raw_sdma_read,
    raw_sdma_write,
    error_name,
    selftest,
    // Kernel-contract steps (cases/contract/): raw amdgpu ioctls through
    // harness/kmd on a DRM file of the instance's own, never the peer API.
    kernel_bo,
    kernel_bo_read,
    kernel_va,
    kernel_cs,
    kernel_wait,
    kernel_syncobj,
    kernel_dependency,
    kernel_dmabuf,
    kernel_vm,
    kernel_jobs,
    kernel_packet,
    kernel_kfd,
    provoke,
    memcpy,
    memcpy_async,
    stream_synchronize,
    stream_query,
    stream_hold,
    stream_release,
    // Pinned memory, stream lifetime, memory info, async peer copy and the
    // last error (harness/peer/CONTRACT.md §5.7).
    memcpy_peer_async,
    host_pageable,
    host_malloc,
    host_free,
    host_register,
    host_unregister,
    host_get_device_pointer,
    mem_get_info,
    stream_create,
    stream_destroy,
    get_last_error,
    peek_at_last_error,
    // Byte fills, device-wide synchronisation and device queries
    // (harness/peer/CONTRACT.md §5.2, §5.3, §5.5).
    memset,
    memset_async,
    device_synchronize,
    get_device_properties,
    device_get_attribute,
    // Bytes per SDMA COPY_LINEAR packet of a device's copies
    // (peerSetCopyPacketMax): copies split at the engine's boundary.
    set_copy_packet_max,
    // Events, hipStreamWaitEvent and host callbacks (harness/peer/CONTRACT.md §5.9).
    event_create,
    event_record,
    event_query,
    event_synchronize,
    event_elapsed_time,
    event_destroy,
    stream_wait_event,
    stream_add_callback,
};

struct StepSpec {
    StepKind kind;
    const char *name;
    const char *shorthand; // argument a scalar value stands for (`set_device: $a`), or nullptr
    bool takes_expect;     // `expect:` is meaningful (the step calls the API and gets a code)
    std::span<const ArgSpec> args;
    const char *summary; // one line for `peer-harness list --steps` and the README
};

std::span<const StepSpec> step_specs();
const StepSpec *find_step(std::string_view name);
const ArgSpec *find_arg(const StepSpec &spec, std::string_view name);

// Argument kinds as the schema and messages name them.
const char *arg_kind_name(ArgKind kind);

} // namespace harness::cases
