// HIP events on the stream machinery (streams.hpp). Recording an event takes
// the stream's position: the fence of the stream's last job (and the
// positions it waits for). An event that times is recorded with a job of its
// own on the stream's device engine: one SDMA TIMESTAMP (GET_GLOBAL) packet
// into a slot of the device's stamp buffer, which the engine executes after
// every earlier job of its ring, so the event is complete when that job's
// fence signalled and the slot holds the GPU's counter at that moment.
//
// A record that waits behind a host function (stream_pump.cpp) is resolved
// when the pump reaches it; until then the event is not complete.
#pragma once

#include "streams.hpp"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

struct ihipEvent_t {
    int device = 0; // current device at creation
    unsigned flags = 0;
    std::mutex mu;
    std::condition_variable resolved_cv;
    // Guarded by mu:
    uint64_t generation = 0; // records so far; a deferred record applies only to its own
    bool recorded = false;
    bool resolved = false; // the latest record's position is known
    std::vector<peer::JobMark> marks;
    peer::PeerDevice *stamp_dev = nullptr; // owner of stamp_slot
    int stamp_slot = -1;                   // slot in stamp_dev->stamps, -1: none
    bool gpu_stamp = false;                // the latest record wrote stamp_slot
    uint64_t host_ns = 0;                  // host clock when the position was taken
    hipError_t record_error = hipSuccess;  // the timestamp job could not be submitted
};

namespace peer {

struct EventTable {
    std::mutex mu;
    std::map<ihipEvent_t *, std::shared_ptr<ihipEvent_t>> live;
};
EventTable &event_table();

// The live event a handle names, else null.
std::shared_ptr<ihipEvent_t> find_event(hipEvent_t handle);

// Takes the stream's position for `ev` (a new record). Returns the failure
// to submit its timestamp job; the event is then complete at the position
// it could take.
hipError_t event_record(Runtime &rt, const std::shared_ptr<ihipEvent_t> &ev, ihipStream_t &s);

// hipSuccess when complete or never recorded, else hipErrorNotReady.
hipError_t event_query(const std::shared_ptr<ihipEvent_t> &ev);
// Waits for the record to be resolved and its jobs' fences. A fence that
// signalled with an error returns that error (§3).
hipError_t event_synchronize(const std::shared_ptr<ihipEvent_t> &ev);
// Milliseconds from start to stop, both complete and recorded (the caller
// checked flags and devices).
hipError_t event_elapsed(const std::shared_ptr<ihipEvent_t> &start,
                         const std::shared_ptr<ihipEvent_t> &stop, float &ms);
// The positions later work of a stream waits for (hipStreamWaitEvent);
// waits for a deferred record to be resolved first.
std::vector<JobMark> event_position(const std::shared_ptr<ihipEvent_t> &ev);
// Gives the event's stamp slot back (hipEventDestroy).
void event_release(ihipEvent_t &ev);

} // namespace peer
