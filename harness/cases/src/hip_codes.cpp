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
    {"hipErrorNoDevice", 100},
    {"hipErrorInvalidDevice", 101},
    {"hipErrorIllegalState", 401},
    {"hipErrorNotFound", 500},
    {"hipErrorIllegalAddress", 700},
    {"hipErrorLaunchTimeOut", 702},
    {"hipErrorPeerAccessAlreadyEnabled", 704},
    {"hipErrorPeerAccessNotEnabled", 705},
    {"hipErrorLaunchFailure", 719},
    {"hipErrorUnknown", 999},
};

// harness/peer/CONTRACT.md §1, column "documented return codes", row by row. The
// spec's prose says 14; its table lists these 13 (reported to the lead).
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
