// Host functions on a stream (streams.hpp): the pump thread and the work
// deferred behind a host function.
#include "streams.hpp"

#include <utility>

ihipStream_t::~ihipStream_t() {
    // Destroy and reset drain first, so the pump has finished or is leaving.
    if (pump.joinable()) pump.join();
}

namespace peer {
namespace {

// Runs the deferred steps in order until none is left. A step's failure has
// no caller any more: it is kept for the stream's synchronize.
void pump_loop(Runtime &rt, ihipStream_t &s) {
    std::unique_lock lock(s.mu);
    while (!s.deferred.empty()) {
        ihipStream_t::Step step = std::move(s.deferred.front());
        s.deferred.pop_front();
        const hipError_t e = step(rt, s, lock);
        if (e != hipSuccess && s.error == hipSuccess) s.error = e;
    }
    s.pumping = false;
    s.pump_done.notify_all();
}

// Under s.mu, with `step` already in s.deferred.
void start_pump_locked(Runtime &rt, ihipStream_t &s) {
    if (s.pumping) return;
    // A previous pump set pumping=false under the lock and only returns now.
    if (s.pump.joinable()) s.pump.join();
    s.pumping = true;
    s.pump = std::thread(pump_loop, std::ref(rt), std::ref(s));
}

} // namespace

void stream_wait_pump(ihipStream_t &s, std::unique_lock<std::mutex> &lock) {
    s.pump_done.wait(lock, [&] { return !s.pumping; });
    if (s.pump.joinable()) s.pump.join();
}

hipError_t stream_run(Runtime &rt, ihipStream_t &s, ihipStream_t::Step step) {
    std::unique_lock lock(s.mu);
    if (s.pumping) {
        s.deferred.push_back(std::move(step));
        return hipSuccess;
    }
    return step(rt, s, lock);
}

hipError_t stream_add_host_fn(Runtime &rt, ihipStream_t &s, std::function<void(hipError_t)> fn) {
    std::unique_lock lock(s.mu);
    s.deferred.push_back(
        [fn = std::move(fn)](Runtime &r, ihipStream_t &st, std::unique_lock<std::mutex> &held) {
            // Wait without the lock, so other threads can query the stream and
            // queue more work (it lands behind this step) meanwhile. Nothing is
            // submitted while the pump runs, so the position stays the last one.
            const std::vector<JobMark> position = stream_position_locked(st);
            held.unlock();
            for (const JobMark &m : position)
                (void)mark_wait(m); // a failure is the job's, collected below
            held.lock();
            stream_complete_locked(r, st);
            const hipError_t status = st.error;
            held.unlock();
            fn(status);
            held.lock();
            return hipSuccess;
        });
    start_pump_locked(rt, s);
    return hipSuccess;
}

} // namespace peer
