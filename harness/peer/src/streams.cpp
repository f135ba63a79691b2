#include "streams.hpp"

#include "thread_state.hpp"

#include <cstring>

namespace peer {

std::shared_ptr<StreamTable> make_stream_table() {
    return std::make_shared<StreamTable>();
}

bool mark_signalled(const JobMark &m) {
    const kmd::Status st = m.dev->queue->wait(m.fence, 0);
    return st.ok() || !st.call || std::strcmp(st.call, "AMDGPU_WAIT_CS(timeout)") != 0;
}

kmd::Status mark_wait(const JobMark &m) {
    return m.dev->queue->wait(m.fence, m.dev->queue->default_timeout_ns());
}

hipError_t resolve_stream(Runtime &rt, hipStream_t handle, ihipStream_t *&out) {
    StreamTable &t = *rt.streams;
    std::lock_guard lock(t.mu);
    if (handle == nullptr || handle == hipStreamLegacy || handle == hipStreamPerThread) {
        const int c = thread_state().current_device;
        if (t.null_streams.size() < size_t(rt.count())) t.null_streams.resize(size_t(rt.count()));
        auto &slot = t.null_streams[size_t(c)];
        if (!slot) {
            slot = std::make_unique<ihipStream_t>();
            slot->device = c;
            slot->is_null = true;
        }
        out = slot.get();
        return hipSuccess;
    }
    auto it = t.created.find(handle);
    if (it == t.created.end()) return hipErrorInvalidHandle;
    out = it->second.get();
    return hipSuccess;
}

namespace {

// One job's end: its fence and, for a fault, the kernel log / fault record.
void finish_op(Runtime &rt, ihipStream_t &s, ihipStream_t::Op &op) {
    const JobOutcome o = rt.finish_job(op.job);
    if (o.status != hipSuccess && s.error == hipSuccess) s.error = o.status;
}

void finish_ops_locked(Runtime &rt, ihipStream_t &s) {
    while (!s.ops.empty()) {
        finish_op(rt, s, s.ops.front());
        s.ops.pop_front();
    }
}

// The positions of hipStreamWaitEvent, waited for on the host. Their jobs
// belong to other streams, which report their failures.
void wait_waits_locked(ihipStream_t &s) {
    for (const JobMark &m : s.waits)
        (void)mark_wait(m);
    s.waits.clear();
}

bool signalled(const ihipStream_t::Op &op) {
    return mark_signalled(JobMark{op.job.dev, op.job.fence});
}

} // namespace

void stream_complete_locked(Runtime &rt, ihipStream_t &s) {
    finish_ops_locked(rt, s);
    wait_waits_locked(s);
}

hipError_t stream_submit_locked(Runtime &rt, ihipStream_t &s, PeerDevice &exec,
                                std::span<const uint32_t> ib, std::span<const uint32_t> bos,
                                std::vector<std::shared_ptr<const void>> holds) {
    // Another engine does not see this ring's order: wait for what came before.
    if (!s.ops.empty() && s.ops.back().job.dev != &exec) finish_ops_locked(rt, s);
    // An event position on this engine is ahead in its ring; on another
    // engine the host waits for it.
    for (const JobMark &m : s.waits)
        if (m.dev != &exec) (void)mark_wait(m);
    s.waits.clear();
    ihipStream_t::Op op;
    if (kmd::Status st = rt.submit_job(exec, ib, bos, op.job); !st) {
        record_kernel_error(st);
        return Runtime::map_kernel_error(st);
    }
    op.holds = std::move(holds);
    s.ops.push_back(std::move(op));
    return hipSuccess;
}

hipError_t stream_enqueue(Runtime &rt, ihipStream_t &s, PeerDevice &exec,
                          std::span<const uint32_t> ib, std::span<const uint32_t> bos,
                          std::vector<std::shared_ptr<const void>> holds) {
    // Copies: a deferred job is submitted after the caller's buffers are gone.
    return stream_run(rt, s,
                      [&exec, ib = std::vector<uint32_t>(ib.begin(), ib.end()),
                       bos = std::vector<uint32_t>(bos.begin(), bos.end()),
                       holds = std::move(holds)](Runtime &r, ihipStream_t &st,
                                                 std::unique_lock<std::mutex> &) mutable {
                          return stream_submit_locked(r, st, exec, ib, bos, std::move(holds));
                      });
}

std::vector<JobMark> stream_position_locked(ihipStream_t &s) {
    std::vector<JobMark> out = s.waits;
    if (!s.ops.empty()) out.push_back(JobMark{s.ops.back().job.dev, s.ops.back().job.fence});
    return out;
}

void stream_drain(Runtime &rt, ihipStream_t &s) {
    std::unique_lock lock(s.mu);
    stream_wait_pump(s, lock);
    stream_complete_locked(rt, s);
}

hipError_t stream_query(Runtime &rt, ihipStream_t &s) {
    std::lock_guard lock(s.mu);
    if (s.pumping) return hipErrorNotReady;
    while (!s.ops.empty()) {
        if (!signalled(s.ops.front())) return hipErrorNotReady;
        finish_op(rt, s, s.ops.front());
        s.ops.pop_front();
    }
    for (const JobMark &m : s.waits)
        if (!mark_signalled(m)) return hipErrorNotReady;
    s.waits.clear();
    return s.error;
}

hipError_t stream_synchronize(Runtime &rt, ihipStream_t &s) {
    std::unique_lock lock(s.mu);
    stream_wait_pump(s, lock);
    stream_complete_locked(rt, s);
    const hipError_t e = s.error;
    s.error = hipSuccess;
    return e;
}

std::vector<ihipStream_t *> streams_of(Runtime &rt, int device) {
    StreamTable &t = *rt.streams;
    std::lock_guard lock(t.mu);
    std::vector<ihipStream_t *> out;
    for (auto &n : t.null_streams)
        if (n && (device < 0 || n->device == device)) out.push_back(n.get());
    for (auto &[h, s] : t.created)
        if (device < 0 || s->device == device) out.push_back(s.get());
    return out;
}

void drain_all_streams(Runtime &rt) {
    for (ihipStream_t *s : streams_of(rt, -1))
        stream_drain(rt, *s);
}

} // namespace peer
