// hipMemcpy / hipMemcpyAsync / hipMemsetAsync / hipMemcpyPeerAsync: where
// each pointer lives (device allocation, pinned host memory, pageable host
// memory) and how the copy runs: one SDMA job (synchronous, or queued on a
// stream), or through the existing synchronous paths (GTT staging for
// pageable memory, the staged peer path, a CPU copy for host to host).
#pragma once

#include "runtime.hpp"
#include "streams.hpp"

#include <cstddef>

namespace peer {

// Synchronous when `stream` is null, otherwise queued on it where the copy
// is one SDMA job. Arguments are checked here (CONTRACT.md, hipMemcpy).
hipError_t memcpy_kind(Runtime &rt, void *dst, const void *src, size_t n, hipMemcpyKind kind,
                       ihipStream_t *stream);
hipError_t memset_async(Runtime &rt, void *dst, int value, size_t n, ihipStream_t &stream);
// hipMemcpyPeerAsync after the id checks: pointers must be owned by the ids.
hipError_t memcpy_peer_async(Runtime &rt, void *dst, int dst_dev, const void *src, int src_dev,
                             size_t n, ihipStream_t &stream);

} // namespace peer
