#include "runtime.hpp"

#include "thread_state.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace peer {
namespace {
// Keep the shared VA range clear of the 32-bit range libdrm's own managers
// prefer, and inside every device's [virtual_address_offset, max).
constexpr uint64_t kVaFloor = 1ull << 32;
} // namespace

Runtime &Runtime::get() {
    // Never destroyed: tearing devices down during static destruction would
    // race with whatever else (libdrm, an interposer) is being torn down.
    static Runtime *rt = [] {
        auto *r = new Runtime();
        r->init();
        return r;
    }();
    return *rt;
}

Runtime::Runtime() = default;

// The devices HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES leave, opened in
// their order, and the VA range every one of them accepts.
kmd::Status Runtime::open_devices(const kmd::Topology &topo,
                                  std::vector<std::unique_ptr<PeerDevice>> &devs, uint64_t &va_lo,
                                  uint64_t &va_hi) {
    const auto order = kmd::visible_devices(topo.gpus.size(), std::getenv("ROCR_VISIBLE_DEVICES"),
                                            std::getenv("HIP_VISIBLE_DEVICES"));
    for (size_t i = 0; i < order.size(); ++i) {
        auto d = std::make_unique<PeerDevice>();
        d->index = static_cast<int>(i);
        d->node = topo.gpus[order[i]];
        d->pci_slot = kmd::pci_slot_name(d->node.domain, d->node.location_id);
        if (kmd::Status o = kmd::Device::open(d->node.render_minor, d->dev); !o) return o;
        const auto gen = sdma::generation_for_ip(d->dev->info().sdma_major);
        if (!gen) return kmd::Status::fail(ENOTSUP, "HW_IP_INFO(DMA): SDMA version unsupported");
        d->gen = *gen;
        d->packet_max = default_packet_max(d->dev->info().sdma_major, d->dev->info().sdma_minor);
        // libdrm hands out one amdgpu_device per physical device: if two
        // render nodes come back as the same handle (its fd_compare found no
        // distinguishing primary node), both "devices" would share one VM and
        // every peer result would be wrong. Refuse instead.
        for (const auto &other : devs)
            if (other->dev->handle() == d->dev->handle())
                return kmd::Status::fail(EEXIST, "amdgpu_device_initialize(same device twice)");
        va_lo = std::max(va_lo, d->dev->info().va_offset);
        va_hi = std::min(va_hi, d->dev->info().va_max);
        devs.push_back(std::move(d));
    }
    return kmd::Status::success();
}

// canAccessPeer: a KFD link from a to b that allows peer access.
void Runtime::set_peer_matrix() {
    const size_t n = devs_.size();
    can_access_.assign(n, std::vector<bool>(n, false));
    enabled.assign(n, std::vector<bool>(n, false));
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) {
            if (a == b) continue;
            for (const kmd::Link &l : devs_[a]->node.links)
                if (l.to_node == devs_[b]->node.node && kmd::link_allows_peer_access(l))
                    can_access_[a][b] = true;
        }
}

// Each device's staging buffer, clock and timestamp slots, and on the KFD
// path its SDMA user queue and host staging buffer.
kmd::Status Runtime::make_device_buffers() {
    for (auto &d : devs_) {
        if (kmd::Status g = make_gtt(*d, nullptr, kStagingBytes, d->staging); !g) return g;
        // Without it copies are still timed, on the host clock.
        if (kmd::Status c = make_gtt(*d, nullptr, kClockBytes, d->clock); !c) d->clock.reset();
        if (kmd::Status c = make_gtt(*d, nullptr, kClockBytes, d->stamps); c) {
            for (uint32_t i = uint32_t(kClockBytes / 8); i-- > 0;)
                d->stamps_free.push_back(i);
        } else {
            d->stamps.reset();
        }
    }
    if (!kfd()) return kmd::Status::success();
    for (auto &d : devs_) {
        const uint32_t on[] = {d->node.node};
        kmd::Status k = kfd::SdmaQueue::create(d->node.node, d->gen, d->kqueue, kfd_faults_.get());
        if (k) k = make_kfd_host(on, kStagingBytes, d->kstaging);
        if (!k) return k;
    }
    return kmd::Status::success();
}

void Runtime::init() {
    auto failed = [this](const kmd::Status &s) {
        init_kernel_ = s;
        init_status_ = hipErrorNotInitialized;
    };
    // The kernel path, once per process: a runner sets it per case instance
    // in the child that runs the instance (CONTRACT.md §7).
    if (const char *p = std::getenv("PEER_HARNESS_PATH"); p && *p) {
        if (std::strcmp(p, "kfd") == 0) {
            path_ = KernelPath::kfd;
        } else if (std::strcmp(p, "drm") != 0) {
            return failed(kmd::Status::fail(EINVAL, "PEER_HARNESS_PATH (drm|kfd)"));
        }
    }
    kmd::Topology topo;
    kmd::Status s = kmd::read_topology(topo);
    if (!s) {
        // No KFD is "no device", as HIP reports it; the reason stays readable.
        init_kernel_ = s;
        return;
    }
    // After the topology read (which releases libhsakmt's snapshot), before
    // any render node of our own is opened.
    if (kfd() && !topo.gpus.empty()) {
        if (kmd::Status k = kfd::Session::open(kfd_session_); !k) return failed(k);
        kfd::FaultEvents::create(kfd_faults_);
    }
    uint64_t va_lo = kVaFloor, va_hi = ~0ull;
    std::vector<std::unique_ptr<PeerDevice>> devs;
    if (kmd::Status o = open_devices(topo, devs, va_lo, va_hi); !o) return failed(o);
    if (devs.empty()) return;
    va_ = std::make_unique<kmd::VaAllocator>(va_lo, va_hi);
    for (auto &d : devs)
        if (kmd::Status q = kmd::Queue::create(*d->dev, *va_, d->queue); !q) return failed(q);
    devs_ = std::move(devs);
    set_peer_matrix();
    if (kmd::Status b = make_device_buffers(); !b) {
        failed(b);
        devs_.clear();
        return;
    }
    kmsg_ = std::make_unique<kmd::KmsgLog>();
}

kmd::Status Runtime::renew_kfd_queue_if_hung(PeerDevice &d) {
    if (!kfd()) return kmd::Status::success();
    if (kfd_faults_) {
        kfd_faults_->poll();
        if (kfd_faults_->fault_on(d.node.node))
            return kmd::Status::fail(EFAULT, kfd::SdmaQueue::kEvictedCall);
    }
    if (d.kqueue && !d.kqueue->hung()) return kmd::Status::success();
    d.kqueue.reset(); // a hung queue is destroyed without waiting for its jobs
    // (null after a failed renewal: the next reset tries again)
    return kfd::SdmaQueue::create(d.node.node, d.gen, d.kqueue, kfd_faults_.get());
}

kmd::Status Runtime::make_kfd_host(std::span<const uint32_t> nodes, uint64_t bytes,
                                   std::unique_ptr<GttBuffer> &out) {
    auto g = std::make_unique<GttBuffer>();
    if (kmd::Status s = kfd::Memory::alloc_host(bytes, g->kmem); !s) return s;
    if (kmd::Status s = g->kmem->map_to(nodes); !s) return s;
    g->va = g->kmem->va();
    g->cpu = g->kmem->cpu();
    g->bytes = bytes;
    out = std::move(g);
    return kmd::Status::success();
}

uint64_t default_packet_max(uint32_t sdma_major, uint32_t sdma_minor) {
    // harness/sdma owns the numbers (the kernel's copy_max_bytes, Mesa's
    // limit below 5.2); an engine it does not know copies nothing anyway.
    return sdma::default_copy_packet_bytes(sdma_major, sdma_minor);
}

const kmd::Link *Runtime::link(int from, int to) const {
    for (const kmd::Link &l : devs_[size_t(from)]->node.links)
        if (l.to_node == devs_[size_t(to)]->node.node) return &l;
    return nullptr;
}

hipError_t Runtime::map_kernel_error(const kmd::Status &s) {
    if (s.ok()) return hipSuccess;
    const bool alloc_call = s.call && (std::strncmp(s.call, "AMDGPU_GEM_CREATE", 17) == 0 ||
                                       std::strncmp(s.call, "AMDGPU_GEM_VA", 13) == 0 ||
                                       std::strncmp(s.call, "hsaKmtAllocMemory", 17) == 0 ||
                                       std::strncmp(s.call, "hsaKmtMapMemoryToGPU", 20) == 0 ||
                                       std::strcmp(s.call, "va_allocator") == 0);
    if (s.err == ENOMEM && alloc_call) return hipErrorOutOfMemory;
    if (s.err == ETIME) return hipErrorLaunchTimeOut;
    if (s.err == ECANCELED || s.err == ENODEV) return hipErrorLaunchFailure;
    // The kernel evicted the device's queues after a VM fault: every later
    // job of the process there is an illegal-address failure (CONTRACT.md §7).
    if (s.err == EFAULT && s.call && std::strcmp(s.call, kfd::SdmaQueue::kEvictedCall) == 0)
        return hipErrorIllegalAddress;
    return hipErrorUnknown;
}

kmd::Status Runtime::make_gtt(PeerDevice &d, PeerDevice *second, uint64_t bytes,
                              std::unique_ptr<GttBuffer> &out) {
    auto g = std::make_unique<GttBuffer>();
    if (kmd::Status s = kmd::Bo::alloc(*d.dev, bytes, kmd::Domain::gtt, 0, g->bo); !s) return s;
    void *cpu = nullptr;
    if (kmd::Status s = g->bo->cpu_map(&cpu); !s) return s;
    g->cpu = static_cast<uint8_t *>(cpu);
    auto va = va_->allocate(bytes, 64 * 1024);
    if (!va) return kmd::Status::fail(ENOMEM, "va_allocator");
    g->va = *va;
    g->bytes = bytes;
    kmd::Status s = kmd::VaMapping::map(*g->bo, g->va, bytes, kmd::VaMapping::kReadWrite, g->map);
    if (s && second) {
        kmd::UniqueFd fd;
        s = g->bo->export_dmabuf(fd);
        if (s) s = kmd::Bo::import_dmabuf(*second->dev, fd.get(), g->import);
        if (s)
            s = kmd::VaMapping::map(*g->import, g->va, bytes, kmd::VaMapping::kReadWrite,
                                    g->import_map);
    }
    if (!s) {
        g->import_map.reset();
        g->map.reset();
        va_->release(g->va);
        return s;
    }
    out = std::move(g);
    return kmd::Status::success();
}

void Runtime::poison_staging(int a, int b, uint64_t bytes, uint8_t byte) {
    auto fill = [&](GttBuffer &g) {
        std::lock_guard lock(g.mu);
        if (g.cpu) std::memset(g.cpu, byte, std::min(bytes, g.bytes));
    };
    fill(staging_of(device(a)));
    if (b != a) fill(staging_of(device(b)));
    std::lock_guard lock(bounce_mu_);
    for (auto &[pair, g] : bounce_)
        if ((pair.first == a && pair.second == b) || (pair.first == b && pair.second == a))
            fill(*g);
}

kmd::Status Runtime::bounce(int src, int dst, GttBuffer *&out) {
    std::lock_guard lock(bounce_mu_);
    auto &slot = bounce_[{src, dst}];
    if (!slot) {
        if (kfd()) {
            // Host memory mapped onto both nodes: GTT is never refused by
            // kfd_mem_attach, whatever the pair.
            const uint32_t on[] = {device(src).node.node, device(dst).node.node};
            if (kmd::Status s = make_kfd_host(on, 2 * kBounceChunk, slot); !s) return s;
        } else if (kmd::Status s = make_gtt(device(src), &device(dst), 2 * kBounceChunk, slot);
                   !s) {
            return s;
        }
    }
    out = slot.get();
    return kmd::Status::success();
}

kmd::Status Runtime::map_into(Allocation &a, int d) {
    if (a.peers.count(d)) return kmd::Status::success();
    if (a.kmem) {
        // KFD path: the owner's VRAM mapped onto d's node as well
        // (hsaKmtMapMemoryToGPUNodes; kfd_mem_attach decides).
        std::vector<uint32_t> nodes = a.kmem->nodes();
        nodes.push_back(device(d).node.node);
        if (kmd::Status s = a.kmem->map_to(nodes); !s) return s;
        a.peers.emplace(d, Allocation::PeerMap{});
        return kmd::Status::success();
    }
    Allocation::PeerMap pm;
    kmd::UniqueFd fd;
    if (kmd::Status s = a.bo->export_dmabuf(fd); !s) return s;
    if (kmd::Status s = kmd::Bo::import_dmabuf(*device(d).dev, fd.get(), pm.import); !s) return s;
    if (kmd::Status s = kmd::VaMapping::map(*pm.import, a.base, a.bo->size(),
                                            kmd::VaMapping::kReadWrite, pm.map);
        !s)
        return s;
    a.peers.emplace(d, std::move(pm));
    return kmd::Status::success();
}

kmd::Status Runtime::unmap_from(Allocation &a, int d) {
    auto it = a.peers.find(d);
    if (it == a.peers.end()) return kmd::Status::success();
    if (a.kmem) {
        std::vector<uint32_t> nodes;
        for (uint32_t n : a.kmem->nodes())
            if (n != device(d).node.node) nodes.push_back(n);
        a.peers.erase(it);
        return a.kmem->map_to(nodes);
    }
    kmd::Status s = it->second.map->unmap();
    a.peers.erase(it); // the import goes with it, whatever the unmap said
    return s;
}

kmd::Status Runtime::free_locked(uint64_t base) {
    const auto *e = table.find_base(base);
    if (!e) return kmd::Status::fail(ENOENT, "allocation table");
    std::shared_ptr<Allocation> a = e->data;
    table.erase(base);
    kmd::Status first;
    if (a->kmem) {
        // KFD path: off every node, then freed; the address is libhsakmt's.
        a->peers.clear();
        first = a->kmem->unmap();
        a->kmem.reset();
        return first;
    }
    for (auto it = a->peers.begin(); it != a->peers.end();) {
        kmd::Status s = it->second.map->unmap();
        if (!s && first.ok()) first = s;
        it = a->peers.erase(it);
    }
    if (kmd::Status s = a->map->unmap(); !s && first.ok()) first = s;
    a->map.reset();
    a->bo.reset();
    va_->release(a->base);
    return first;
}

kmd::Status Runtime::submit_job(PeerDevice &d, std::span<const uint32_t> ib,
                                std::span<const uint32_t> bos, PendingJob &job) {
    job.dev = &d;
    // A position in the kernel log (or the VM's fault record) before the job,
    // so a fault afterwards is this job's (or a concurrent job's on the same
    // device: the kernel does not say which job faulted).
    if (kmsg_ && kmsg_->available()) {
        job.kmsg_mark = kmsg_->mark();
    } else {
        job.have_fault_before = d.dev->query_vm_fault(job.fault_before).ok();
    }
    return d.queue->submit(ib, bos, job.fence);
}

kmd::Status Runtime::submit_kfd_job(PeerDevice &d, std::span<const uint32_t> ib, PendingJob &job) {
    job.dev = &d;
    // A fault on the KFD VM shows only in the kernel log (the DRM file's
    // GPUVM_FAULT record is another VM's).
    if (kmsg_ && kmsg_->available()) job.kmsg_mark = kmsg_->mark();
    if (!d.kqueue) return kmd::Status::fail(ENODEV, "kfd SDMA queue(renewal failed)");
    return d.kqueue->submit(ib, job.kfd_seq);
}

JobOutcome Runtime::not_submitted(const kmd::Status &s) {
    record_kernel_error(s);
    JobOutcome o;
    o.kernel = s;
    o.status = map_kernel_error(s);
    return o;
}

JobOutcome Runtime::run_kfd_job(PeerDevice &d, std::span<const uint32_t> ib) {
    PendingJob job;
    if (kmd::Status s = submit_kfd_job(d, ib, job); !s) return not_submitted(s);
    return finish_job(job);
}

JobOutcome Runtime::finish_job(PendingJob &job) {
    JobOutcome o;
    PeerDevice &d = *job.dev;
    o.kernel = job.kfd_seq ? d.kqueue->wait(job.kfd_seq, d.kqueue->default_timeout_ns())
                           : d.queue->wait(job.fence, d.queue->default_timeout_ns());
    if (kmsg_ && kmsg_->available()) {
        auto faults = kmsg_->faults_since(job.kmsg_mark, d.pci_slot);
        if (!faults.empty()) {
            o.vm_fault = true;
            o.fault_address = faults.front().address;
        }
    } else if (job.have_fault_before) {
        kmd::Device::VmFaultInfo after;
        if (d.dev->query_vm_fault(after) && after.status != 0 && !(after == job.fault_before)) {
            o.vm_fault = true;
            o.fault_address = after.addr;
        }
    }
    if (!o.kernel.ok()) {
        o.status = map_kernel_error(o.kernel);
        record_kernel_error(o.kernel);
        // A timed-out job leaves the context guilty (amdgpu_job_timedout);
        // it stays so, and later jobs fail with -ECANCELED, until
        // hipDeviceReset replaces it: a sticky error, as HIP's after a hang.
    } else if (o.vm_fault) {
        o.status = hipErrorIllegalAddress;
    }
    return o;
}

JobOutcome Runtime::run_job(PeerDevice &d, std::span<const uint32_t> ib,
                            std::span<const uint32_t> bos) {
    PendingJob job;
    if (kmd::Status s = submit_job(d, ib, bos, job); !s) return not_submitted(s);
    return finish_job(job);
}

} // namespace peer
