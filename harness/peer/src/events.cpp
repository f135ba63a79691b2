#include "events.hpp"

#include "thread_state.hpp"

#include <chrono>
#include <cstring>

namespace peer {
namespace {

uint64_t host_now_ns() {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
}

volatile uint64_t *stamp_word(const ihipEvent_t &ev) {
    return reinterpret_cast<volatile uint64_t *>(ev.stamp_dev->stamps->cpu +
                                                 size_t(ev.stamp_slot) * 8);
}

// Under ev.mu: a stamp slot on `d` for this event, -1 when the device has
// none left (the event is then timed on the host). A slot on another device
// goes back: the job that may still write it runs before any later job of
// that device's ring, so a new owner's value always lands last.
int take_slot(ihipEvent_t &ev, PeerDevice &d) {
    if (ev.stamp_dev == &d && ev.stamp_slot >= 0) return ev.stamp_slot;
    event_release(ev);
    if (!d.stamps) return -1;
    std::lock_guard lock(d.stamps_mu);
    if (d.stamps_free.empty()) return -1;
    ev.stamp_dev = &d;
    ev.stamp_slot = int(d.stamps_free.back());
    d.stamps_free.pop_back();
    return ev.stamp_slot;
}

bool complete_locked(const ihipEvent_t &ev) {
    if (!ev.recorded) return true;
    if (!ev.resolved) return false;
    for (const JobMark &m : ev.marks)
        if (!mark_signalled(m)) return false;
    return true;
}

// The record itself, as a step of the stream (now or behind a host function).
hipError_t record_step(Runtime &rt, const std::shared_ptr<ihipEvent_t> &ev, uint64_t generation,
                       ihipStream_t &s) {
    const bool timing = !(ev->flags & hipEventDisableTiming);
    PeerDevice &d = rt.device(s.device);
    hipError_t e = hipSuccess;
    bool stamped = false;
    int slot = -1;
    if (timing && !rt.kfd() && d.dev->info().gpu_counter_freq_khz) {
        std::lock_guard lock(ev->mu);
        if (ev->generation == generation) slot = take_slot(*ev, d);
    }
    // The KFD path's work is synchronous (CONTRACT.md §7): the host clock
    // now is the time after the stream's earlier work.
    if (slot >= 0) {
        const uint64_t va = d.stamps->va + uint64_t(slot) * 8;
        std::vector<uint32_t> ib;
        reinterpret_cast<volatile uint64_t *>(d.stamps->cpu)[slot] = 0;
        if (sdma::timestamp(ib, d.gen, va) == sdma::Error::none) {
            const uint32_t bos[] = {d.stamps->bo->kms_handle()};
            e = stream_submit_locked(rt, s, d, ib, bos, {});
            stamped = e == hipSuccess;
        }
    }
    std::vector<JobMark> marks = stream_position_locked(s);
    std::lock_guard lock(ev->mu);
    if (ev->generation == generation) {
        ev->marks = std::move(marks);
        ev->gpu_stamp = stamped;
        ev->host_ns = host_now_ns();
        ev->record_error = e;
        ev->resolved = true;
    }
    ev->resolved_cv.notify_all();
    return e;
}

} // namespace

EventTable &event_table() {
    static EventTable *t = new EventTable(); // never destroyed, like the Runtime
    return *t;
}

std::shared_ptr<ihipEvent_t> find_event(hipEvent_t handle) {
    EventTable &t = event_table();
    std::lock_guard lock(t.mu);
    auto it = t.live.find(handle);
    return it == t.live.end() ? nullptr : it->second;
}

void event_release(ihipEvent_t &ev) {
    if (!ev.stamp_dev || ev.stamp_slot < 0) return;
    std::lock_guard lock(ev.stamp_dev->stamps_mu);
    ev.stamp_dev->stamps_free.push_back(uint32_t(ev.stamp_slot));
    ev.stamp_dev = nullptr;
    ev.stamp_slot = -1;
    ev.gpu_stamp = false;
}

hipError_t event_record(Runtime &rt, const std::shared_ptr<ihipEvent_t> &ev, ihipStream_t &s) {
    uint64_t generation = 0;
    {
        std::lock_guard lock(ev->mu);
        generation = ++ev->generation;
        ev->recorded = true;
        ev->resolved = false;
        ev->marks.clear();
        ev->gpu_stamp = false;
    }
    return stream_run(
        rt, s, [ev, generation](Runtime &r, ihipStream_t &st, std::unique_lock<std::mutex> &) {
            return record_step(r, ev, generation, st);
        });
}

hipError_t event_query(const std::shared_ptr<ihipEvent_t> &ev) {
    std::lock_guard lock(ev->mu);
    return complete_locked(*ev) ? hipSuccess : hipErrorNotReady;
}

std::vector<JobMark> event_position(const std::shared_ptr<ihipEvent_t> &ev) {
    std::unique_lock lock(ev->mu);
    if (!ev->recorded) return {};
    ev->resolved_cv.wait(lock, [&] { return ev->resolved; });
    return ev->marks;
}

hipError_t event_synchronize(const std::shared_ptr<ihipEvent_t> &ev) {
    // Blocking either way: WAIT_CS sleeps in the kernel (hipEventBlockingSync
    // asks for exactly that; a default event may spin, HIP does not require it).
    for (const JobMark &m : event_position(ev)) {
        if (kmd::Status st = mark_wait(m); !st) {
            record_kernel_error(st);
            return Runtime::map_kernel_error(st);
        }
    }
    return hipSuccess;
}

hipError_t event_elapsed(const std::shared_ptr<ihipEvent_t> &start,
                         const std::shared_ptr<ihipEvent_t> &stop, float &ms) {
    // One lock at a time (the same event may be both): copy what is needed.
    struct Seen {
        bool recorded, complete, gpu;
        PeerDevice *dev;
        uint64_t ticks, host_ns;
    };
    auto look = [](ihipEvent_t &ev) {
        std::lock_guard lock(ev.mu);
        Seen s{ev.recorded, complete_locked(ev), ev.gpu_stamp, ev.stamp_dev, 0, ev.host_ns};
        if (s.recorded && s.complete && s.gpu) s.ticks = *stamp_word(ev);
        return s;
    };
    const Seen a = look(*start), b = look(*stop);
    if (!a.recorded || !b.recorded) return hipErrorInvalidHandle;
    if (!a.complete || !b.complete) return hipErrorNotReady;
    // Both stamps from one device's counter (an engine that ignored the
    // packet leaves 0); otherwise the host clock of the two records.
    if (a.gpu && b.gpu && a.dev == b.dev && a.ticks && b.ticks) {
        const double khz = double(a.dev->dev->info().gpu_counter_freq_khz);
        ms = float(double(int64_t(b.ticks - a.ticks)) / khz);
    } else {
        ms = float(double(int64_t(b.host_ns - a.host_ns)) / 1e6);
    }
    return hipSuccess;
}

} // namespace peer
