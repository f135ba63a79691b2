#include "streams.hpp"

#include "thread_state.hpp"

#include <cstring>

namespace peer {

std::shared_ptr<StreamTable> make_stream_table() {
    return std::make_shared<StreamTable>();
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

void drain_locked(Runtime &rt, ihipStream_t &s) {
    while (!s.ops.empty()) {
        finish_op(rt, s, s.ops.front());
        s.ops.pop_front();
    }
}

// Whether the job's fence has signalled (with or without an error).
bool signalled(const ihipStream_t::Op &op) {
    const kmd::Status st = op.job.dev->queue->wait(op.job.fence, 0);
    return st.ok() || !st.call || std::strcmp(st.call, "AMDGPU_WAIT_CS(timeout)") != 0;
}

} // namespace

hipError_t stream_enqueue(Runtime &rt, ihipStream_t &s, PeerDevice &exec,
                          std::span<const uint32_t> ib, std::span<const uint32_t> bos,
                          std::vector<std::shared_ptr<const void>> holds) {
    std::lock_guard lock(s.mu);
    // Another engine does not see this ring's order: wait for what came before.
    if (!s.ops.empty() && s.ops.back().job.dev != &exec) drain_locked(rt, s);
    ihipStream_t::Op op;
    if (kmd::Status st = rt.submit_job(exec, ib, bos, op.job); !st) {
        record_kernel_error(st);
        return Runtime::map_kernel_error(st);
    }
    op.holds = std::move(holds);
    s.ops.push_back(std::move(op));
    return hipSuccess;
}

void stream_drain(Runtime &rt, ihipStream_t &s) {
    std::lock_guard lock(s.mu);
    drain_locked(rt, s);
}

hipError_t stream_query(Runtime &rt, ihipStream_t &s) {
    std::lock_guard lock(s.mu);
    while (!s.ops.empty()) {
        if (!signalled(s.ops.front())) return hipErrorNotReady;
        finish_op(rt, s, s.ops.front());
        s.ops.pop_front();
    }
    return s.error;
}

hipError_t stream_synchronize(Runtime &rt, ihipStream_t &s) {
    std::lock_guard lock(s.mu);
    drain_locked(rt, s);
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
