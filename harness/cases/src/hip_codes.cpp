#include "cases/hip_codes.hpp"

namespace harness::cases {

namespace {

// Values as in HIP's hip_runtime_api.h (harness/peer/CONTRACT.md lists the same).
constexpr HipCode kCodes[] = {
    {"hipSuccess", 0},
    {"hipErrorInvalidValue", 1},
    {"hipErrorOutOfMemory", 2},
    {"hipErrorNotInitialized", 3},
    {"hipErrorInvalidDevicePointer", 17},
    {"hipErrorInvalidMemcpyDirection", 21},
    {"hipErrorNoDevice", 100},
    {"hipErrorInvalidDevice", 101},
    {"hipErrorInvalidHandle", 400},
    {"hipErrorIllegalState", 401},
    {"hipErrorNotFound", 500},
    {"hipErrorNotReady", 600},
    {"hipErrorIllegalAddress", 700},
    {"hipErrorLaunchTimeOut", 702},
    {"hipErrorPeerAccessAlreadyEnabled", 704},
    {"hipErrorPeerAccessNotEnabled", 705},
    {"hipErrorHostMemoryAlreadyRegistered", 712},
    {"hipErrorHostMemoryNotRegistered", 713},
    {"hipErrorLaunchFailure", 719},
    {"hipErrorNotSupported", 801},
    {"hipErrorUnknown", 999},
};

// harness/peer/CONTRACT.md §1, column "documented codes", row by row (13
// pairs), then the calls of §5 the case language drives.
constexpr DocumentedPair kDocumented[] = {
    {"can_access_peer", "hipSuccess"},
    {"can_access_peer", "hipErrorInvalidDevice"},
    {"enable_peer_access", "hipSuccess"},
    {"enable_peer_access", "hipErrorInvalidDevice"},
    {"enable_peer_access", "hipErrorInvalidValue"},
    {"enable_peer_access", "hipErrorPeerAccessAlreadyEnabled"},
    {"disable_peer_access", "hipSuccess"},
    {"disable_peer_access", "hipErrorPeerAccessNotEnabled"},
    {"get_address_range", "hipSuccess"},
    {"get_address_range", "hipErrorInvalidDevicePointer"},
    {"memcpy_peer", "hipSuccess"},
    {"memcpy_peer", "hipErrorInvalidValue"},
    {"memcpy_peer", "hipErrorInvalidDevice"},
    // The wider surface (harness/peer/CONTRACT.md §5), HIP's documented codes
    // that a case can provoke (hipErrorUnknown, documented for both copies,
    // has no condition a case can set up).
    {"memcpy", "hipSuccess"},
    {"memcpy", "hipErrorInvalidValue"},
    {"memcpy_async", "hipSuccess"},
    {"memcpy_async", "hipErrorInvalidValue"},
    {"stream_synchronize", "hipSuccess"},
    {"stream_synchronize", "hipErrorInvalidHandle"},
    {"stream_query", "hipSuccess"},
    {"stream_query", "hipErrorNotReady"},
    {"stream_query", "hipErrorInvalidHandle"},
    {"stream_hold", "hipSuccess"},
    // harness/peer/CONTRACT.md §5.7: the documented codes of the pinned-memory,
    // stream-lifetime, memory-info, async peer copy and last-error calls that a
    // case can provoke.
    {"memcpy_peer_async", "hipSuccess"},
    {"memcpy_peer_async", "hipErrorInvalidValue"},
    {"memcpy_peer_async", "hipErrorInvalidDevice"},
    {"host_malloc", "hipSuccess"},
    {"host_malloc", "hipErrorOutOfMemory"},
    {"host_malloc", "hipErrorInvalidValue"},
    {"host_free", "hipSuccess"},
    {"host_free", "hipErrorInvalidValue"},
    {"host_register", "hipSuccess"},
    {"host_register", "hipErrorInvalidValue"},
    {"host_register", "hipErrorHostMemoryAlreadyRegistered"},
    {"host_register", "hipErrorNotSupported"},
    {"host_unregister", "hipSuccess"},
    {"host_unregister", "hipErrorHostMemoryNotRegistered"},
    {"host_get_device_pointer", "hipSuccess"},
    {"host_get_device_pointer", "hipErrorInvalidValue"},
    {"mem_get_info", "hipSuccess"},
    {"mem_get_info", "hipErrorInvalidValue"},
    {"stream_create", "hipSuccess"},
    {"stream_create", "hipErrorInvalidValue"},
    {"stream_destroy", "hipSuccess"},
    {"stream_destroy", "hipErrorInvalidHandle"},
    {"get_last_error", "hipSuccess"},
    {"get_last_error", "hipErrorInvalidValue"},
    {"peek_at_last_error", "hipSuccess"},
    {"peek_at_last_error", "hipErrorInvalidValue"},
    // harness/peer/CONTRACT.md §5.8: allocation, fills, device-wide
    // synchronisation and the device queries.
    {"alloc", "hipSuccess"},
    {"alloc", "hipErrorOutOfMemory"},
    {"memset", "hipSuccess"},
    {"memset", "hipErrorInvalidValue"},
    {"memset_async", "hipSuccess"},
    {"memset_async", "hipErrorInvalidValue"},
    {"memset_async", "hipErrorInvalidHandle"},
    {"device_synchronize", "hipSuccess"},
    {"get_device_properties", "hipSuccess"},
    {"get_device_properties", "hipErrorInvalidValue"},
    {"get_device_properties", "hipErrorInvalidDevice"},
    {"device_get_attribute", "hipSuccess"},
    {"device_get_attribute", "hipErrorInvalidValue"},
    {"device_get_attribute", "hipErrorInvalidDevice"},
    // harness/peer/CONTRACT.md §5.9: events, hipStreamWaitEvent and host
    // callbacks.
    {"event_create", "hipSuccess"},
    {"event_create", "hipErrorInvalidValue"},
    {"event_record", "hipSuccess"},
    {"event_record", "hipErrorInvalidHandle"},
    {"event_query", "hipSuccess"},
    {"event_query", "hipErrorNotReady"},
    {"event_query", "hipErrorInvalidHandle"},
    {"event_synchronize", "hipSuccess"},
    {"event_synchronize", "hipErrorInvalidHandle"},
    {"event_elapsed_time", "hipSuccess"},
    {"event_elapsed_time", "hipErrorInvalidValue"},
    {"event_elapsed_time", "hipErrorNotReady"},
    {"event_elapsed_time", "hipErrorInvalidHandle"},
    {"event_destroy", "hipSuccess"},
    {"event_destroy", "hipErrorInvalidHandle"},
    {"stream_wait_event", "hipSuccess"},
    {"stream_wait_event", "hipErrorInvalidValue"},
    {"stream_wait_event", "hipErrorInvalidHandle"},
    {"stream_add_callback", "hipSuccess"},
    {"stream_add_callback", "hipErrorInvalidHandle"},
    {"stream_add_callback", "hipErrorInvalidValue"},
    // The harness's own knob (peer/peer_debug.h): the packet size a case
    // splits copies with, and its two refusals.
    {"set_copy_packet_max", "hipSuccess"},
    {"set_copy_packet_max", "hipErrorInvalidValue"},
    {"set_copy_packet_max", "hipErrorInvalidDevice"},
};

} // namespace

std::span<const HipCode> hip_codes() {
    return kCodes;
}

std::optional<int> hip_code_value(std::string_view name) {
    for (const auto &c : kCodes) {
        if (name == c.name) return c.value;
    }
    return std::nullopt;
}

std::string hip_code_name(int value) {
    for (const auto &c : kCodes) {
        if (c.value == value) return c.name;
    }
    return "hipError(" + std::to_string(value) + ")";
}

std::span<const DocumentedPair> documented_pairs() {
    return kDocumented;
}

} // namespace harness::cases
