// HIP streams on SDMA. A stream is a list of submitted jobs not yet known to
// be complete; a job is complete when its fence signals. Work is submitted
// at enqueue time, so it runs while the host goes on; errors of that work
// (VM fault, job timeout, guilty context) are kept and returned by
// hipStreamSynchronize (hipStreamQuery only reports NotReady / done).
//
// Order within a stream: every job of one device goes to that device's one
// SDMA ring, which runs jobs in submission order; before a job for another
// device's engine is submitted, the stream's earlier jobs are waited for on
// the host. Work that is not one SDMA job (pageable host memory, the staged
// peer path, host-to-host) first waits for the stream and then runs
// synchronously, as HIP allows for pageable memory.
#pragma once

#include "runtime.hpp"

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

struct ihipStream_t {
    int device = 0;
    unsigned int flags = 0;
    bool is_null = false;
    std::mutex mu;
    struct Op {
        peer::PendingJob job;
        std::vector<std::shared_ptr<const void>> holds; // memory the job touches
    };
    std::deque<Op> ops;            // guarded by mu
    hipError_t error = hipSuccess; // first failure of finished work, until reported
};

namespace peer {

struct StreamTable {
    std::mutex mu;
    std::vector<std::unique_ptr<ihipStream_t>> null_streams; // per device, made on first use
    std::map<ihipStream_t *, std::unique_ptr<ihipStream_t>> created;
};

// The stream a handle names: NULL, hipStreamLegacy and hipStreamPerThread
// are the current device's null stream; anything else must be a live
// created stream, else hipErrorInvalidHandle.
hipError_t resolve_stream(Runtime &rt, hipStream_t handle, ihipStream_t *&out);

// Submits one SDMA job on `exec` as the stream's next work. A failed
// submission is returned now (nothing was queued).
hipError_t stream_enqueue(Runtime &rt, ihipStream_t &s, PeerDevice &exec,
                          std::span<const uint32_t> ib, std::span<const uint32_t> bos,
                          std::vector<std::shared_ptr<const void>> holds);

// Waits for everything the stream queued; failures are kept in s.error.
void stream_drain(Runtime &rt, ihipStream_t &s);
// hipErrorNotReady while a job is pending; otherwise the kept error (not
// cleared) or hipSuccess.
hipError_t stream_query(Runtime &rt, ihipStream_t &s);
// Drains, then returns and clears the kept error.
hipError_t stream_synchronize(Runtime &rt, ihipStream_t &s);

// Every stream of `device` (-1: of every device), null streams included.
std::vector<ihipStream_t *> streams_of(Runtime &rt, int device);
// Before synchronous work (hipMemcpy, hipFree, ...): waits for all queued
// work of every stream, keeping failures for their streams' synchronize.
void drain_all_streams(Runtime &rt);

} // namespace peer
