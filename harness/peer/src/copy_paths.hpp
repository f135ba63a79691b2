// The SDMA work behind the API: host transfers, fills, the three
// hipMemcpyPeer paths, and raw access at a VA.
#pragma once

#include "peer/peer_debug.h"
#include "runtime.hpp"

#include <cstddef>
#include <cstdint>

namespace peer {

enum class Direction { to_device, to_host };

// [dev, dev + n) must lie in one live allocation; its owner's engine copies
// through that device's GTT staging buffer.
hipError_t host_transfer(Runtime &rt, uint64_t dev, void *host, size_t n, Direction dir);
// Reads [dev, dev + n) the way host_transfer does and compares it with
// `expected` in the staging buffer itself; `equal` says whether all matched.
// Each chunk of staging is first filled with the complement of its first
// expected byte, so a read that writes nothing cannot match.
hipError_t host_compare(Runtime &rt, uint64_t dev, const void *expected, size_t n, bool &equal);
hipError_t device_fill(Runtime &rt, uint64_t dev, uint8_t value, size_t n);

// Arguments already checked against §2 rows 1-4; this does rows 5-7.
hipError_t peer_copy(Runtime &rt, uint64_t dst, int dst_dev, uint64_t src, int src_dev, size_t n);

// peerRawSdmaRead / peerRawSdmaWrite on a valid device.
hipError_t raw_access(Runtime &rt, int device, uint64_t va, void *host, size_t n, bool write,
                      peerRawAccessResult *result);

// Copies a job's outcome into a raw-access result (NULL allowed).
void report_outcome(const JobOutcome &o, peerRawAccessResult *result);

} // namespace peer
