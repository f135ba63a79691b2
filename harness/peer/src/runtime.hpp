// The process-wide state behind the API: devices in HIP order, the shared VA
// allocator, the allocation table with every peer mapping, the enabled
// matrix, and the SDMA job helpers every copy path uses.
//
// Locking: `mu` guards the table, the enabled matrix and the mappings. Copies
// resolve what they need under it and run their SDMA jobs outside it, so
// several threads can copy between different pairs at once (each device's
// Queue serialises only its own submissions).
#pragma once

#include "alloc_table.hpp"
#include "host_memory.hpp"
#include "kfd/kfd.hpp"
#include "kmd/bo.hpp"
#include "kmd/device.hpp"
#include "kmd/kmsg.hpp"
#include "kmd/queue.hpp"
#include "kmd/topology.hpp"
#include "kmd/va_allocator.hpp"
#include "peer/hip_peer.h"
#include "sdma/packets.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace peer {

// A host-visible GTT buffer mapped in one or two VMs at one address; used for
// host transfers, raw access and the staged peer path.
struct GttBuffer {
    std::unique_ptr<kmd::Bo> bo;         // on the allocating device
    std::unique_ptr<kmd::Bo> import;     // the same pages imported on a second device
    std::unique_ptr<kmd::VaMapping> map; // in the allocating device's VM
    std::unique_ptr<kmd::VaMapping> import_map;
    uint64_t va = 0, bytes = 0;
    uint8_t *cpu = nullptr;
    std::mutex mu; // one user at a time
    // KFD path: libhsakmt host memory mapped onto one or two GPU nodes
    // instead of bo/import (va is its address on those nodes).
    std::unique_ptr<kfd::Memory> kmem;
};

// Which kernel interface the API drives (PEER_HARNESS_PATH, read once at
// initialisation; CONTRACT.md §7).
enum class KernelPath { drm, kfd };

struct PeerDevice {
    int index = 0;
    kmd::GpuNode node;
    std::string pci_slot;
    std::unique_ptr<kmd::Device> dev;
    std::unique_ptr<kmd::Queue> queue;
    sdma::Generation gen = sdma::Generation::v4;
    std::unique_ptr<GttBuffer> staging; // host transfers and raw access
    // Slots of 16 bytes for the two SDMA TIMESTAMP values around a timed
    // copy (peerLastCopyTiming); handed out round robin, so concurrent copies
    // on this device use different slots. Null when it could not be made:
    // copies are then timed on the host.
    std::unique_ptr<GttBuffer> clock;
    std::atomic<uint32_t> clock_slot{0};
    // 8-byte slots for the SDMA TIMESTAMP of a recorded event (events.cpp).
    // Unlike `clock`, a slot belongs to one event from its record until it is
    // recorded on another device or destroyed, so no later job can overwrite
    // the value before hipEventElapsedTime reads it. Null when it could not
    // be made: events are then timed on the host.
    std::unique_ptr<GttBuffer> stamps;
    std::mutex stamps_mu;
    std::vector<uint32_t> stamps_free; // guarded by stamps_mu
    // KFD path: the device's SDMA user queue and a host staging buffer
    // mapped onto its node (the DRM queue and staging above stay for the
    // calls that only exist on the DRM path).
    std::unique_ptr<kfd::SdmaQueue> kqueue;
    std::unique_ptr<GttBuffer> kstaging;
    // Bytes per COPY_LINEAR packet. The kernel's copy_max_bytes is 4 MiB on
    // SDMA v4-v7, but Mesa keeps below 0x3fff00 before SDMA 5.2 because of an
    // undocumented hardware limit on the last 255 bytes of a 2^22-byte count
    // (fixtures/amdgpu-sim/KERNEL-MODEL.md §3.6). The API's own copies must not depend on
    // that boundary, so below 5.2 they use Mesa's size; peerSetCopyPacketMax
    // lets a case probe the boundary on purpose.
    std::atomic<uint64_t> packet_max{0};
};

// Default per-packet copy size for an SDMA IP version (see packet_max).
uint64_t default_packet_max(uint32_t sdma_major, uint32_t sdma_minor);

// One hipMalloc: the owner's BO and mapping, plus an import and mapping per
// device that enabled access to the owner.
struct Allocation {
    int owner = -1;
    uint64_t base = 0, size = 0;
    std::unique_ptr<kmd::Bo> bo;
    std::unique_ptr<kmd::VaMapping> map;
    struct PeerMap {
        std::unique_ptr<kmd::Bo> import;
        std::unique_ptr<kmd::VaMapping> map;
    };
    std::map<int, PeerMap> peers; // device -> its mapping of this allocation
    // KFD path: the hsaKmtAllocMemory buffer; a peer's mapping is its node in
    // kmem->nodes(), and its `peers` entry has no import or map.
    std::unique_ptr<kfd::Memory> kmem;
};

// KMS handle of a BO, 0 on the KFD path (no BO; a user queue needs no list).
inline uint32_t kms_of(const std::unique_ptr<kmd::Bo> &bo) {
    return bo ? bo->kms_handle() : 0;
}

// Outcome of one SDMA job as the API reports it.
struct JobOutcome {
    hipError_t status = hipSuccess;
    bool vm_fault = false;
    uint64_t fault_address = 0;
    kmd::Status kernel; // failing call, if any
};

// A submitted job not yet waited for (the staged path overlaps two).
struct PendingJob {
    PeerDevice *dev = nullptr;
    kmd::Fence fence;
    uint64_t kmsg_mark = 0;
    kmd::Device::VmFaultInfo fault_before;
    bool have_fault_before = false;
    uint64_t kfd_seq = 0; // KFD path: the job's fence value on dev->kqueue
};

struct StreamTable; // streams.hpp
std::shared_ptr<StreamTable> make_stream_table();

class Runtime {
  public:
    // The one instance, initialised on first use. init_status() says whether
    // opening the devices worked.
    static Runtime &get();
    hipError_t init_status() const { return init_status_; }
    const kmd::Status &init_kernel_status() const { return init_kernel_; }

    int count() const { return static_cast<int>(devs_.size()); }
    bool valid(int id) const { return id >= 0 && id < count(); }
    PeerDevice &device(int id) { return *devs_[size_t(id)]; }
    bool can_access(int from, int to) const { return can_access_[size_t(from)][size_t(to)]; }
    const kmd::Link *link(int from, int to) const;
    KernelPath path() const { return path_; }
    bool kfd() const { return path_ == KernelPath::kfd; }
    // KFD path: replaces the device's user queue if it hung; success otherwise.
    // A device whose queues the kernel evicted after a VM fault keeps them
    // evicted (a new queue would start evicted): EFAULT, the queue's own
    // "evicted after a VM fault" status.
    kmd::Status renew_kfd_queue_if_hung(PeerDevice &d);

    std::mutex mu;
    AllocTable<Allocation> table;           // guarded by mu
    std::vector<std::vector<bool>> enabled; // [from][to], guarded by mu
    HostTable host;                         // pinned host memory, guarded by mu
    const std::shared_ptr<StreamTable> streams = make_stream_table(); // own locking
    kmd::VaAllocator &va() { return *va_; }

    // Under mu: map `a` into device d's VM at a->base (export, import, map).
    kmd::Status map_into(Allocation &a, int d);
    // Under mu: drop device d's mapping of `a`; the first unmap error is kept.
    kmd::Status unmap_from(Allocation &a, int d);
    // Under mu: frees one allocation completely and forgets it.
    kmd::Status free_locked(uint64_t base);

    // SDMA jobs. submit_job never waits; finish_job waits, checks for a VM
    // fault on the job's device and maps the outcome (CONTRACT.md §3).
    kmd::Status submit_job(PeerDevice &d, std::span<const uint32_t> ib,
                           std::span<const uint32_t> bos, PendingJob &job);
    // The same on the device's KFD user queue (KFD path); finish_job and
    // run_kfd_job wait for it.
    kmd::Status submit_kfd_job(PeerDevice &d, std::span<const uint32_t> ib, PendingJob &job);
    JobOutcome run_kfd_job(PeerDevice &d, std::span<const uint32_t> ib);
    // The device's host staging buffer of the current path.
    GttBuffer &staging_of(PeerDevice &d) { return kfd() ? *d.kstaging : *d.staging; }
    JobOutcome finish_job(PendingJob &job);
    // The outcome of a job the kernel refused to take (recorded as the
    // thread's kernel error), for both paths.
    JobOutcome not_submitted(const kmd::Status &s);
    JobOutcome run_job(PeerDevice &d, std::span<const uint32_t> ib, std::span<const uint32_t> bos);

    // Staged-path bounce buffer for the ordered pair src -> dst (created on
    // first use: GTT on src, imported on dst, same VA in both VMs).
    kmd::Status bounce(int src, int dst, GttBuffer *&out);
    // Fills every staging and bounce buffer with `byte` through the CPU, so a
    // transfer whose engine job silently did nothing leaves poison, never the
    // bytes of an earlier transfer (peerPoisonStaging).
    void poison_staging(int a, int b, uint64_t bytes, uint8_t byte);
    static constexpr uint64_t kBounceChunk = 8ull << 20; // two chunks per buffer
    static constexpr uint64_t kStagingBytes = 8ull << 20;
    static constexpr uint64_t kClockBytes = 4096;

    // Maps a failed kernel call to the API's code (§3).
    static hipError_t map_kernel_error(const kmd::Status &s);

  private:
    Runtime();
    void init();
    kmd::Status open_devices(const kmd::Topology &topo,
                             std::vector<std::unique_ptr<PeerDevice>> &devs, uint64_t &va_lo,
                             uint64_t &va_hi);
    void set_peer_matrix();
    kmd::Status make_device_buffers();
    kmd::Status make_gtt(PeerDevice &d, PeerDevice *second, uint64_t bytes,
                         std::unique_ptr<GttBuffer> &out);

    kmd::Status make_kfd_host(std::span<const uint32_t> nodes, uint64_t bytes,
                              std::unique_ptr<GttBuffer> &out);

    KernelPath path_ = KernelPath::drm;
    std::unique_ptr<kfd::Session> kfd_session_;
    // KFD path: the process's VM fault reports; outlives the devices' queues.
    std::unique_ptr<kfd::FaultEvents> kfd_faults_;
    hipError_t init_status_ = hipSuccess;
    kmd::Status init_kernel_;
    std::vector<std::unique_ptr<PeerDevice>> devs_;
    std::vector<std::vector<bool>> can_access_;
    std::unique_ptr<kmd::VaAllocator> va_;
    std::unique_ptr<kmd::KmsgLog> kmsg_;
    std::mutex bounce_mu_;
    std::map<std::pair<int, int>, std::unique_ptr<GttBuffer>> bounce_;
};

// Entry checks shared by the API files.
inline bool has_devices(Runtime &rt) {
    return rt.count() > 0;
}

} // namespace peer
