// Steps of events, hipStreamWaitEvent and host callbacks
// (harness/peer/CONTRACT.md §5.9). The case has two event slots, `start` and
// `stop`; `null` is a NULL handle and `destroyed` one hipEventDestroy ended.
#include "executor_impl.hpp"

#include "cases/step_table.hpp"

#include <cmath>

namespace harness::runner::detail {

namespace {

unsigned flags_of(const std::string &w) {
    if (w == "blocking_sync") return hipEventBlockingSync;
    if (w == "disable_timing") return hipEventDisableTiming;
    if (w == "interprocess") return hipEventInterprocess;
    if (w == "interprocess_disable_timing") return hipEventInterprocess | hipEventDisableTiming;
    if (w == "unknown_bit") return 0x8; // no hipEvent* flag has this bit
    return hipEventDefault;
}

void count_callback(hipStream_t, hipError_t, void *user) {
    static_cast<std::atomic<int> *>(user)->fetch_add(1);
}

} // namespace

std::string Interpreter::event_of(const Step &s, const char *arg, hipEvent_t &out) {
    const std::string w = word(s, arg, "null");
    out = nullptr;
    if (w == "null") return {};
    if (w == "destroyed") {
        // Made after the case's own events, so none of them can take its place.
        if (!destroyed_event_) {
            hipEvent_t t = nullptr;
            if (hipError_t e = hipEventCreate(&t); e != hipSuccess)
                return fmt::format("hipEventCreate returned {} while preparing the step",
                                   hip_code_name(e));
            if (hipError_t e = hipEventDestroy(t); e != hipSuccess)
                return fmt::format("hipEventDestroy returned {} while preparing the step",
                                   hip_code_name(e));
            destroyed_event_ = t;
        }
        out = destroyed_event_;
        return {};
    }
    auto it = events_.find(w);
    if (it == events_.end()) throw StepError{"event '" + w + "' was never created (event_create)"};
    out = it->second;
    return {};
}

std::string Interpreter::event_step(const Step &s) {
    const std::string name = word(s, "event", "null");
    if (s.spec->kind == StepKind::event_create) {
        const bool null_out = word(s, "out", "out") == "null";
        if (!null_out && events_.count(name))
            throw StepError{"event_create: the case's event '" + name + "' exists already"};
        const std::string fw = word(s, "flags", "default");
        hipEvent_t t = nullptr;
        const hipError_t e = hipEventCreateWithFlags(null_out ? nullptr : &t, flags_of(fw));
        if (e == hipSuccess) events_[name] = t;
        if (auto m = code_check(
                s, e, fmt::format("hipEventCreateWithFlags({}, {})", null_out ? "NULL" : "&e", fw));
            !m.empty())
            return m;
        if (e == hipSuccess)
            if (hipError_t q = hipEventQuery(t); q != hipSuccess)
                return fmt::format("hipEventQuery of the new (never recorded) event returned {}",
                                   hip_code_name(q));
        return {};
    }
    hipEvent_t ev = nullptr;
    if (auto m = event_of(s, "event", ev); !m.empty()) return m;
    switch (s.spec->kind) {
    case StepKind::event_record: {
        hipStream_t st = nullptr;
        if (auto m = stream_of(s, st); !m.empty()) return m;
        return code_check(s, hipEventRecord(ev, st),
                          fmt::format("hipEventRecord({}, {})", name, word(s, "stream", "null")));
    }
    case StepKind::event_query:
        return code_check(s, hipEventQuery(ev), fmt::format("hipEventQuery({})", name));
    case StepKind::event_synchronize:
        return code_check(s, hipEventSynchronize(ev), fmt::format("hipEventSynchronize({})", name));
    case StepKind::event_destroy: {
        const hipError_t e = hipEventDestroy(ev);
        if (e == hipSuccess && events_.count(name)) {
            events_.erase(name);
            if (!destroyed_event_) destroyed_event_ = ev;
        }
        return code_check(s, e, fmt::format("hipEventDestroy({})", name));
    }
    case StepKind::stream_wait_event: {
        hipStream_t st = nullptr;
        if (auto m = stream_of(s, st); !m.empty()) return m;
        const auto flags = static_cast<unsigned>(num(s, "flags", 0));
        return code_check(
            s, hipStreamWaitEvent(st, ev, flags),
            fmt::format("hipStreamWaitEvent({}, {}, {})", word(s, "stream", "null"), name, flags));
    }
    default:
        break;
    }
    throw StepError{"not an event step"};
}

std::string Interpreter::elapsed_time(const Step &s) {
    hipEvent_t a = nullptr, b = nullptr;
    if (auto m = event_of(s, "start", a); !m.empty()) return m;
    if (auto m = event_of(s, "stop", b); !m.empty()) return m;
    const bool null_ms = word(s, "ms", "out") == "null";
    float ms = NAN;
    const hipError_t e = hipEventElapsedTime(null_ms ? nullptr : &ms, a, b);
    const std::string call =
        fmt::format("hipEventElapsedTime({}, {}, {})", null_ms ? "NULL" : "&ms",
                    word(s, "start", "null"), word(s, "stop", "null"));
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess) return {};
    if (!std::isfinite(ms)) return fmt::format("{} succeeded without writing a time", call);
    if (a == b && ms != 0.0f) return fmt::format("{} of one event gave {} ms, not 0", call, ms);
    return {};
}

std::string Interpreter::add_callback(const Step &s) {
    hipStream_t st = nullptr;
    const std::string name = word(s, "stream", "null");
    if (name == "destroyed" && destroyed_stream_)
        st = destroyed_stream_; // as it is (stream_lifetime explains why)
    else if (auto m = stream_of(s, st); !m.empty())
        return m;
    const bool set = word(s, "callback", "set") == "set";
    auto &count = callbacks_[st];
    if (!count) count = std::make_unique<CallbackCount>();
    const auto flags = static_cast<unsigned>(num(s, "flags", 0));
    const hipError_t e =
        hipStreamAddCallback(st, set ? count_callback : nullptr, &count->ran, flags);
    if (e == hipSuccess && set) count->queued.fetch_add(1);
    return code_check(s, e,
                      fmt::format("hipStreamAddCallback({}, {}, data, {})", name,
                                  set ? "callback" : "NULL", flags));
}

std::string Interpreter::callbacks_ran(hipStream_t st, const std::string &name) const {
    auto it = callbacks_.find(st);
    if (it == callbacks_.end()) return {};
    const int queued = it->second->queued.load(), ran = it->second->ran.load();
    if (ran == queued) return {};
    return fmt::format("hipStreamSynchronize({}) returned with {} of {} callbacks run", name, ran,
                       queued);
}

void Interpreter::release_events_and_callbacks() {
    if (!callbacks_.empty()) {
        int n = 0, cur = 0;
        (void)hipGetDevice(&cur);
        if (hipGetDeviceCount(&n) == hipSuccess)
            for (int d = 0; d < n; ++d)
                if (hipSetDevice(d) == hipSuccess) (void)hipDeviceSynchronize();
        (void)hipSetDevice(cur);
    }
    for (auto &[name, e] : events_)
        (void)hipEventDestroy(e);
    events_.clear();
}

} // namespace harness::runner::detail
