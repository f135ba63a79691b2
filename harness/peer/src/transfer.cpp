#include "transfer.hpp"

#include "copy_paths.hpp"
#include "thread_state.hpp"

#include <cstring>
#include <vector>

namespace peer {
namespace {

struct End {
    enum Kind { device, pinned, pageable } kind = pageable;
    int owner = -1;         // device: the allocation's owner
    uint64_t va = 0;        // device, pinned: GPU VA of the pointer
    uint8_t *cpu = nullptr; // pinned, pageable: host address
    std::shared_ptr<Allocation> alloc;
    std::shared_ptr<HostAlloc> host;
};

uint64_t addr_of(const void *p) {
    return reinterpret_cast<uintptr_t>(p);
}

// Under rt.mu. A range that starts in a device allocation but runs past its
// end is invalid; pinned memory is found by host address or by its GPU VA.
hipError_t resolve(Runtime &rt, const void *p, size_t n, End &out) {
    const uint64_t a = addr_of(p);
    if (const auto *e = rt.table.find(a)) {
        if (!rt.table.find_range(a, n)) return hipErrorInvalidValue;
        out.kind = End::device;
        out.owner = e->owner;
        out.va = a;
        out.alloc = e->data;
        return hipSuccess;
    }
    if (const auto *e = rt.host.by_va.find(a)) {
        if (!rt.host.by_va.find_range(a, n)) return hipErrorInvalidValue;
        out.kind = End::pinned;
        out.va = a;
        out.cpu = reinterpret_cast<uint8_t *>(e->data->cpu + (a - e->base));
        out.host = e->data;
        return hipSuccess;
    }
    if (const auto *e = rt.host.by_cpu.find_range(a, n)) {
        out.kind = End::pinned;
        out.cpu = const_cast<uint8_t *>(static_cast<const uint8_t *>(p));
        out.va = e->data->va + (a - e->base);
        out.host = e->data;
        return hipSuccess;
    }
    out.kind = End::pageable;
    out.cpu = const_cast<uint8_t *>(static_cast<const uint8_t *>(p));
    return hipSuccess;
}

bool device_side(const End &e) {
    return e.kind != End::pageable;
}

// One SDMA job: which engine runs it, its packets and the BOs it needs.
struct Job {
    PeerDevice *exec = nullptr;
    std::vector<uint32_t> ib;
    std::vector<uint32_t> bos;
    std::vector<std::shared_ptr<const void>> holds;
};

// KMS handle of the BO through which `device`'s VM reaches e, 0 if none.
uint32_t handle_on(const End &e, int device) {
    if (e.kind == End::pageable) return 0;
    if (e.kind == End::device) {
        if (e.owner == device) return kms_of(e.alloc->bo);
        auto it = e.alloc->peers.find(device);
        return it == e.alloc->peers.end() ? 0 : kms_of(it->second.import);
    }
    return e.host->dev[size_t(device)].bo->kms_handle();
}

// Under rt.mu: can the copy be one job, and on which engine? Device and
// pinned memory on one engine whose VM maps both ends.
bool plan_one_job(Runtime &rt, const End &dst, const End &src, Job &job) {
    auto maps = [&](const End &e, int d) { return handle_on(e, d) != 0; };
    int exec = -1;
    if (dst.kind == End::device && maps(src, dst.owner)) {
        exec = dst.owner;
    } else if (src.kind == End::device && maps(dst, src.owner)) {
        exec = src.owner;
    } else {
        return false; // pinned to pinned is a CPU copy; unmapped peers stage
    }
    (void)rt;
    job.exec = &rt.device(exec);
    job.bos = {handle_on(dst, exec)};
    const uint32_t sh = handle_on(src, exec);
    if (sh != job.bos[0]) job.bos.push_back(sh);
    for (const End *e : {&dst, &src}) {
        if (e->alloc) job.holds.push_back(e->alloc);
        if (e->host) job.holds.push_back(e->host);
    }
    return true;
}

hipError_t encode_copy(Job &job, uint64_t dst, uint64_t src, uint64_t n) {
    if (sdma::copy_linear_split(job.ib, job.exec->gen, src, dst, n, job.exec->packet_max.load()) !=
        sdma::Error::none)
        return hipErrorInvalidValue;
    return hipSuccess;
}

hipError_t run(Runtime &rt, Job &job, ihipStream_t *stream) {
    if (stream)
        return stream_enqueue(rt, *stream, *job.exec, job.ib, job.bos, std::move(job.holds));
    return rt.run_job(*job.exec, job.ib, job.bos).status;
}

bool ranges_overlap(uint64_t a, uint64_t b, uint64_t n) {
    return a < b + n && b < a + n;
}

} // namespace

hipError_t memcpy_kind(Runtime &rt, void *dst, const void *src, size_t n, hipMemcpyKind kind,
                       ihipStream_t *stream) {
    const bool known_kind = kind == hipMemcpyHostToHost || kind == hipMemcpyHostToDevice ||
                            kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice ||
                            kind == hipMemcpyDefault || kind == hipMemcpyDeviceToDeviceNoCU;
    if (!known_kind) return hipErrorInvalidMemcpyDirection;
    if (n == 0) return hipSuccess;
    if (!dst || !src) return hipErrorInvalidValue;
    End d, s;
    Job job;
    bool one_job = false;
    {
        std::lock_guard lock(rt.mu);
        if (hipError_t e = resolve(rt, dst, n, d); e != hipSuccess) return e;
        if (hipError_t e = resolve(rt, src, n, s); e != hipSuccess) return e;
        // A side the kind calls "device" must be memory a GPU can reach.
        const bool dst_dev = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice ||
                             kind == hipMemcpyDeviceToDeviceNoCU;
        const bool src_dev = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice ||
                             kind == hipMemcpyDeviceToDeviceNoCU;
        if ((dst_dev && !device_side(d)) || (src_dev && !device_side(s)))
            return hipErrorInvalidValue;
        if (d.kind == End::device && s.kind == End::device && d.owner == s.owner &&
            ranges_overlap(d.va, s.va, n))
            return hipErrorInvalidValue;
        // KFD path: no single-job plan across pinned (DRM) memory; device
        // memory goes through the synchronous paths below (§7).
        one_job = !rt.kfd() && plan_one_job(rt, d, s, job);
    }
    if (one_job) {
        if (hipError_t e = encode_copy(job, d.va, s.va, n); e != hipSuccess) return e;
        return run(rt, job, stream);
    }
    // Not one job: synchronous, after the stream's earlier work.
    if (stream) stream_drain(rt, *stream);
    if (d.kind != End::device && s.kind != End::device) {
        std::memmove(d.cpu, s.cpu, n);
        return hipSuccess;
    }
    if (d.kind == End::device && s.kind == End::device)
        return peer_copy(rt, d.va, d.owner, s.va, s.owner, n); // staged between devices
    if (d.kind == End::device) return host_transfer(rt, d.va, s.cpu, n, Direction::to_device);
    return host_transfer(rt, s.va, d.cpu, n, Direction::to_host);
}

hipError_t memset_async(Runtime &rt, void *dst, int value, size_t n, ihipStream_t &stream) {
    if (n == 0) return hipSuccess;
    if (!dst) return hipErrorInvalidValue;
    End d;
    Job job;
    {
        std::lock_guard lock(rt.mu);
        const auto *e = rt.table.find_range(addr_of(dst), n);
        if (!e) return hipErrorInvalidValue;
        d.kind = End::device;
        d.owner = e->owner;
        d.va = addr_of(dst);
        d.alloc = e->data;
        job.exec = &rt.device(d.owner);
        job.bos = {kms_of(d.alloc->bo)};
        job.holds.push_back(d.alloc);
    }
    if (rt.kfd()) { // §7: synchronous after the stream's earlier work
        stream_drain(rt, stream);
        return device_fill(rt, d.va, static_cast<uint8_t>(value), n);
    }
    const uint32_t pattern = static_cast<uint8_t>(value) * 0x01010101u;
    if (sdma::constant_fill_split(job.ib, job.exec->gen, d.va, pattern, n) != sdma::Error::none)
        return hipErrorInvalidValue;
    return run(rt, job, &stream);
}

hipError_t memcpy_peer_async(Runtime &rt, void *dst, int dst_dev, const void *src, int src_dev,
                             size_t n, ihipStream_t &stream) {
    End d, s;
    Job job;
    bool one_job = false;
    {
        std::lock_guard lock(rt.mu);
        // The same rules as hipMemcpyPeer (CONTRACT.md rows 5 and 6).
        const auto *de = rt.table.find_range(addr_of(dst), n);
        const auto *se = rt.table.find_range(addr_of(src), n);
        if (!de || !se || de->owner != dst_dev || se->owner != src_dev) return hipErrorInvalidValue;
        if (ranges_overlap(addr_of(dst), addr_of(src), n)) return hipErrorInvalidValue;
        d = End{End::device, dst_dev, addr_of(dst), nullptr, de->data, nullptr};
        s = End{End::device, src_dev, addr_of(src), nullptr, se->data, nullptr};
        // Direct only through a mapping that hipDeviceEnablePeerAccess made.
        const bool mapped =
            src_dev == dst_dev ||
            (rt.enabled[size_t(dst_dev)][size_t(src_dev)] && s.alloc->peers.count(dst_dev)) ||
            (rt.enabled[size_t(src_dev)][size_t(dst_dev)] && d.alloc->peers.count(src_dev));
        one_job = mapped && !rt.kfd() && plan_one_job(rt, d, s, job);
    }
    if (!one_job) {
        stream_drain(rt, stream);
        return peer_copy(rt, d.va, dst_dev, s.va, src_dev, n); // staged: synchronous
    }
    if (hipError_t e = encode_copy(job, d.va, s.va, n); e != hipSuccess) return e;
    return run(rt, job, &stream);
}

} // namespace peer
