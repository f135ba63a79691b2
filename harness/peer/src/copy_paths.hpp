// The SDMA work behind the API: host transfers, fills, the three
// hipMemcpyPeer paths, and raw access at a VA.
#pragma once

#include "peer/peer_debug.h"
#include "runtime.hpp"

#include <cstddef>
#include <cstdint>

namespace peer {

enum class Direction { to_device, to_host };

// The host side of a gathered write or compare (peerHostSpan): pieces that,
// one after the other, stand for bytes [0, total()) of a device range.
class HostSpans {
  public:
    HostSpans(const peerHostSpan *spans, size_t count) : spans_(spans), count_(count) {}
    // False when a piece is NULL with a nonzero size or the sizes overflow.
    bool valid() const;
    size_t total() const;
    uint8_t byte(size_t at) const;
    // Bytes [at, at + n) of the whole, copied to `out` / compared with `in`.
    void copy_to(size_t at, uint8_t *out, size_t n) const;
    bool equal(size_t at, const uint8_t *in, size_t n) const;
    size_t count() const { return count_; }
    const peerHostSpan &piece(size_t i) const { return spans_[i]; }
    // Pieces [first, first + n) as a whole of their own.
    HostSpans slice(size_t first, size_t n) const { return HostSpans(spans_ + first, n); }

  private:
    // Calls use(bytes, length) for the pieces' parts of [at, at + n), in
    // order, until it returns false.
    template <class Use> void each(size_t at, size_t n, Use use) const;
    const peerHostSpan *spans_;
    size_t count_;
};

// [dev, dev + n) must lie in one live allocation; its owner's engine copies
// through that device's GTT staging buffer.
hipError_t host_transfer(Runtime &rt, uint64_t dev, void *host, size_t n, Direction dir);
// host_transfer to the device from pieces: writes [dev, dev + from.total()).
// Each staging chunk is gathered from them and goes in one engine job; on the
// KFD path a piece of 1 MiB or more instead goes in one job straight from
// its own pages, registered with KFD for that job (copy_paths.cpp).
hipError_t host_write(Runtime &rt, uint64_t dev, const HostSpans &from);
// Reads [dev, dev + expected.total()) the way host_transfer does and compares it
// with the pieces in the staging buffer itself; `equal` says whether all
// matched. Each chunk of staging is first filled with the complement of its
// first expected byte, so a read that writes nothing cannot match.
hipError_t host_compare(Runtime &rt, uint64_t dev, const HostSpans &expected, bool &equal);
hipError_t device_fill(Runtime &rt, uint64_t dev, uint8_t value, size_t n);

// Arguments already checked against §2 rows 1-4; this does rows 5-7.
hipError_t peer_copy(Runtime &rt, uint64_t dst, int dst_dev, uint64_t src, int src_dev, size_t n);

// peerRawSdmaRead / peerRawSdmaWrite on a valid device.
hipError_t raw_access(Runtime &rt, int device, uint64_t va, void *host, size_t n, bool write,
                      peerRawAccessResult *result);

// Copies a job's outcome into a raw-access result (NULL allowed).
void report_outcome(const JobOutcome &o, peerRawAccessResult *result);

} // namespace peer
