// Events (events.hpp), hipStreamWaitEvent and the host functions of a
// stream; checks in the order of CONTRACT.md §5.9.
#include "api_common.hpp"
#include "events.hpp"

using namespace peer;

namespace {

// Flags HIP defines for events; anything else is refused.
constexpr unsigned kKnownEventFlags =
    hipEventDefault | hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess |
    hipEventDisableSystemFence | hipEventReleaseToDevice | hipEventReleaseToSystem;

hipError_t event_of(hipEvent_t handle, std::shared_ptr<ihipEvent_t> &out) {
    if (!handle) return hipErrorInvalidHandle;
    out = find_event(handle);
    return out ? hipSuccess : hipErrorInvalidHandle;
}

} // namespace

hipError_t api::hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!event) return hipErrorInvalidValue;
    if (flags & ~kKnownEventFlags) return hipErrorInvalidValue;
    // Documented: Interprocess needs DisableTiming. (ROCm) both release
    // scopes at once are contradictory.
    if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming))
        return hipErrorInvalidValue;
    if ((flags & hipEventReleaseToDevice) && (flags & hipEventReleaseToSystem))
        return hipErrorInvalidValue;
    // No hipIpcGetEventHandle here: an event another process could open
    // cannot be made (decision, CONTRACT.md §5.9).
    if (flags & hipEventInterprocess) return hipErrorNotSupported;
    auto ev = std::make_shared<ihipEvent_t>();
    ev->device = thread_state().current_device;
    ev->flags = flags;
    EventTable &t = event_table();
    std::lock_guard lock(t.mu);
    *event = ev.get();
    t.live.emplace(ev.get(), std::move(ev));
    return hipSuccess;
}

hipError_t api::hipEventRecord(hipEvent_t event, hipStream_t stream) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    std::shared_ptr<ihipEvent_t> ev;
    if (hipError_t e = event_of(event, ev); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    return event_record(*rt, ev, *s);
}

hipError_t api::hipEventQuery(hipEvent_t event) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    std::shared_ptr<ihipEvent_t> ev;
    if (hipError_t e = event_of(event, ev); e != hipSuccess) return e;
    return event_query(ev);
}

hipError_t api::hipEventSynchronize(hipEvent_t event) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    std::shared_ptr<ihipEvent_t> ev;
    if (hipError_t e = event_of(event, ev); e != hipSuccess) return e;
    return event_synchronize(ev);
}

hipError_t api::hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!ms) return hipErrorInvalidValue; // (ROCm) before the handles
    std::shared_ptr<ihipEvent_t> a, b;
    if (hipError_t e = event_of(start, a); e != hipSuccess) return e;
    if (hipError_t e = event_of(stop, b); e != hipSuccess) return e;
    if (a->device != b->device) return hipErrorInvalidHandle; // (ROCm)
    if ((a->flags | b->flags) & hipEventDisableTiming) return hipErrorInvalidHandle;
    return event_elapsed(a, b, *ms);
}

// The event's record may still be running: its jobs keep their own fences,
// and the stamp slot goes back (a later owner's job runs after it).
hipError_t api::hipEventDestroy(hipEvent_t event) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    if (!event) return hipErrorInvalidHandle;
    std::shared_ptr<ihipEvent_t> ev;
    {
        EventTable &t = event_table();
        std::lock_guard lock(t.mu);
        auto it = t.live.find(event);
        if (it == t.live.end()) return hipErrorInvalidHandle;
        ev = std::move(it->second);
        t.live.erase(it);
    }
    std::lock_guard lock(ev->mu);
    ev->generation++; // a deferred record of it no longer applies
    event_release(*ev);
    return hipSuccess;
}

hipError_t api::hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    std::shared_ptr<ihipEvent_t> ev;
    if (hipError_t e = event_of(event, ev); e != hipSuccess) return e;
    if (flags != 0) return hipErrorInvalidValue;
    return stream_run(*rt, *s, [ev](Runtime &, ihipStream_t &st, std::unique_lock<std::mutex> &) {
        for (JobMark &m : event_position(ev))
            st.waits.push_back(std::move(m));
        return hipSuccess;
    });
}

hipError_t api::hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                     void *userData, unsigned int flags) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    if (!callback || flags != 0) return hipErrorInvalidValue;
    // The callback gets the handle the caller named, the null stream as NULL.
    return stream_add_host_fn(*rt, *s, [stream, callback, userData](hipError_t status) {
        callback(stream, status, userData);
    });
}

hipError_t api::hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData) {
    Runtime *rt = nullptr;
    if (hipError_t e = prologue(rt); e != hipSuccess) return e;
    ihipStream_t *s = nullptr;
    if (hipError_t e = resolve_stream(*rt, stream, s); e != hipSuccess) return e;
    if (!fn) return hipErrorInvalidValue;
    return stream_add_host_fn(*rt, *s, [fn, userData](hipError_t) { fn(userData); });
}
