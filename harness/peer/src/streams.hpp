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
//
// Host functions (hipStreamAddCallback, hipLaunchHostFunc) cannot be put on
// an engine ring. The stream's work after one is therefore held back on the
// host: it waits in `deferred`, in order, and a host thread of the stream
// (the pump) waits for the earlier jobs, runs the function, then submits
// what was deferred behind it. An engine never waits for the host, so a slow
// callback cannot run into the kernel's job timeout.
//
// hipStreamWaitEvent adds the event's position to `waits`: the next job of
// the stream on the same engine is behind it in ring order anyway; a job on
// another engine (or synchronous work) waits for it on the host first.
#pragma once

#include "runtime.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace peer {

// A submitted job's place in its engine's ring: everything submitted to that
// engine before it is complete once its fence has signalled.
struct JobMark {
    PeerDevice *dev = nullptr;
    kmd::Fence fence;
};

// Whether the job's fence has signalled (with or without an error).
bool mark_signalled(const JobMark &m);
// Waits up to the job timeout; the fence's own error, or ETIME.
kmd::Status mark_wait(const JobMark &m);

} // namespace peer

struct ihipStream_t {
    int device = 0;
    unsigned int flags = 0;
    bool is_null = false;
    std::mutex mu;
    struct Op {
        peer::PendingJob job;
        std::vector<std::shared_ptr<const void>> holds; // memory the job touches
    };
    std::deque<Op> ops;               // guarded by mu
    std::vector<peer::JobMark> waits; // hipStreamWaitEvent positions, guarded by mu
    hipError_t error = hipSuccess;    // first failure of finished work, until reported
    // One piece of the stream's work, run with `mu` held (a host function
    // releases it while the function runs). Its failure is returned when it
    // runs at once, and kept in `error` when it ran deferred.
    using Step =
        std::function<hipError_t(peer::Runtime &, ihipStream_t &, std::unique_lock<std::mutex> &)>;
    std::deque<Step> deferred;         // behind a host function, guarded by mu
    bool pumping = false;              // the pump owns `deferred` (non-empty implies true)
    std::condition_variable pump_done; // pumping became false
    std::thread pump;
    ihipStream_t() = default;
    ihipStream_t(const ihipStream_t &) = delete;
    ihipStream_t &operator=(const ihipStream_t &) = delete;
    ~ihipStream_t();
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

// Runs `step` as the stream's next work: now, under the stream's lock, or
// behind a pending host function (then hipSuccess now, a failure later at
// synchronize).
hipError_t stream_run(Runtime &rt, ihipStream_t &s, ihipStream_t::Step step);

// Submits one SDMA job on `exec` as the stream's next work. A failed
// submission is returned now (nothing was queued), unless the job was
// deferred behind a host function.
hipError_t stream_enqueue(Runtime &rt, ihipStream_t &s, PeerDevice &exec,
                          std::span<const uint32_t> ib, std::span<const uint32_t> bos,
                          std::vector<std::shared_ptr<const void>> holds);
// The same for a step that already holds the stream's lock.
hipError_t stream_submit_locked(Runtime &rt, ihipStream_t &s, PeerDevice &exec,
                                std::span<const uint32_t> ib, std::span<const uint32_t> bos,
                                std::vector<std::shared_ptr<const void>> holds);

// Queues a host function: `fn(status)` runs on the stream's pump thread once
// the stream's earlier work is complete (status: the kept failure of that
// work, else hipSuccess); later work of the stream starts after it returned.
hipError_t stream_add_host_fn(Runtime &rt, ihipStream_t &s, std::function<void(hipError_t)> fn);

// Under s.mu: what a point after all work submitted so far must wait for
// (the last job's fence and the waits not yet behind a job).
std::vector<JobMark> stream_position_locked(ihipStream_t &s);

// Under s.mu (held by `lock`): waits until the pump has run everything
// deferred, and joins its thread (it only returns by then), so a
// synchronized stream leaves no finished thread behind.
void stream_wait_pump(ihipStream_t &s, std::unique_lock<std::mutex> &lock);
// Under s.mu: waits for every submitted job and wait position (deferred work
// is the pump's); failures are kept in s.error.
void stream_complete_locked(Runtime &rt, ihipStream_t &s);
// Waits for everything the stream queued (host functions included);
// failures are kept in s.error.
void stream_drain(Runtime &rt, ihipStream_t &s);
// hipErrorNotReady while a job or a host function is pending; otherwise the
// kept error (not cleared) or hipSuccess.
hipError_t stream_query(Runtime &rt, ihipStream_t &s);
// Drains, then returns and clears the kept error.
hipError_t stream_synchronize(Runtime &rt, ihipStream_t &s);

// Every stream of `device` (-1: of every device), null streams included.
std::vector<ihipStream_t *> streams_of(Runtime &rt, int device);
// Before synchronous work (hipMemcpy, hipFree, ...): waits for all queued
// work of every stream, keeping failures for their streams' synchronize.
void drain_all_streams(Runtime &rt);

} // namespace peer
