// The KFD path against the simulated kernel (run under amdgpu-sim): libhsakmt
// allocations, peer mappings and the kernel's refusals, unmap, and SDMA user
// queues whose copies are checked byte for byte.
//
// KFD_PATH_MAP_REFUSED (set per machine by CTest from the machine file) lists
// the ordered pairs "owner>accessor" (indices into the topology's GPU list)
// where kfd_mem_attach must refuse the accessor mapping the owner's VRAM;
// every other pair must map and copy. PEER_EXPECT_VM_FAULT_EVICTS (one digit
// per GPU, cmake/machine_expectations.cmake) says where the kernel evicts the
// process's queues after a VM fault of one of them.
#include "kfd/kfd.hpp"
#include "kmd/kmsg.hpp"
#include "kmd/topology.hpp"
#include "sdma/packets.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Gpu {
    uint32_t node = 0;
    sdma::Generation gen = sdma::Generation::v4;
    std::unique_ptr<kfd::SdmaQueue> queue;
};

// SDMA generation from the GFX major version (the machines here pair GFX9
// with SDMA 4, GFX10 with 5, GFX11 with 6, GFX12 with 7).
sdma::Generation gen_of(const kmd::GpuNode &g) {
    switch (g.gfx_major) {
    case 9:
        return sdma::Generation::v4;
    case 10:
        return sdma::Generation::v5;
    case 11:
        return sdma::Generation::v6;
    default:
        return sdma::Generation::v7;
    }
}

// One KFD session, the topology and a queue per GPU for the whole process
// (libhsakmt leaks a little on every open/close cycle).
struct World {
    std::unique_ptr<kfd::Session> session;
    std::unique_ptr<kfd::FaultEvents> faults; // outlives the queues
    kmd::Topology topo;
    std::vector<Gpu> gpus;
    std::set<std::pair<size_t, size_t>> refused; // owner, accessor
    kmd::Status status;
    kmd::KmsgLog kmsg;
    std::string slot(size_t i) const {
        return kmd::pci_slot_name(topo.gpus[i].domain, topo.gpus[i].location_id);
    }

    World() {
        status = kmd::read_topology(topo);
        if (!status) return;
        status = kfd::Session::open(session);
        if (!status) return;
        kfd::FaultEvents::create(faults);
        for (const auto &g : topo.gpus) {
            Gpu x;
            x.node = g.node;
            x.gen = gen_of(g);
            status = kfd::SdmaQueue::create(g.node, x.gen, x.queue, faults.get());
            if (!status) return;
            gpus.push_back(std::move(x));
        }
        if (const char *r = std::getenv("KFD_PATH_MAP_REFUSED")) {
            std::string s(r);
            size_t pos = 0;
            while (pos < s.size()) {
                const size_t comma = s.find(',', pos);
                const std::string tok =
                    s.substr(pos, comma == std::string::npos ? s.npos : comma - pos);
                const size_t gt = tok.find('>');
                if (gt != std::string::npos)
                    refused.insert({std::stoul(tok.substr(0, gt)), std::stoul(tok.substr(gt + 1))});
                pos = comma == std::string::npos ? s.size() : comma + 1;
            }
        }
    }
    static World &get() {
        static World w;
        return w;
    }
};

std::vector<uint32_t> copy_packets(sdma::Generation g, uint64_t src, uint64_t dst, uint64_t n) {
    std::vector<uint32_t> dw;
    REQUIRE(sdma::copy_linear_split(dw, g, src, dst, n, 0x3fff00) == sdma::Error::none);
    return dw;
}

kmd::Status copy(Gpu &g, uint64_t src, uint64_t dst, uint64_t n) {
    return g.queue->run(copy_packets(g.gen, src, dst, n), g.queue->default_timeout_ns());
}

void fill_pattern(uint8_t *p, uint64_t n, uint32_t seed) {
    for (uint64_t i = 0; i < n; ++i)
        p[i] = static_cast<uint8_t>((i * 131 + seed * 7 + (i >> 9)) & 0xff);
}

} // namespace

TEST_CASE("KFD session, topology and one SDMA user queue per GPU", "[kfd][sim]") {
    World &w = World::get();
    INFO(w.status.describe());
    REQUIRE(w.status.ok());
    REQUIRE(!w.gpus.empty());
    for (Gpu &g : w.gpus) {
        // An empty job: only the fence; the engine must consume it.
        const uint32_t nop = 0;
        INFO("node " << g.node);
        const kmd::Status s = g.queue->run(std::span<const uint32_t>(&nop, 1), 5'000'000'000ull);
        INFO(s.describe());
        CHECK(s.ok());
        // The engine writes the read pointer back after the fence, not before
        // (the simulator as the hardware: rptr write-back is not ordered with
        // the job's own memory writes), so a consumed job shows up in rptr a
        // moment later; wait for it with a deadline instead of sampling once.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (g.queue->read_pointer() == 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        CHECK(g.queue->read_pointer() > 0);
    }
}

// How SdmaQueue's waits sleep (and ROCr's interrupt signals): a job writes
// the event's mailbox slot with its id, then TRAPs with that id; the kernel
// sets the event only for a written slot (kfd_signal_event_interrupt).
TEST_CASE("A job's TRAP wakes hsaKmtWaitOnEvent when it wrote the event's mailbox, and not "
          "otherwise",
          "[kfd][sim]") {
    World &w = World::get();
    REQUIRE(w.status.ok());
    for (size_t i = 0; i < w.gpus.size(); ++i) {
        Gpu &g = w.gpus[i];
        INFO("gpu " << i << " node " << g.node);
        HsaEventDescriptor desc{};
        desc.EventType = HSA_EVENTTYPE_SIGNAL;
        desc.NodeId = g.node;
        HsaEvent *ev = nullptr;
        REQUIRE(hsaKmtCreateEvent(&desc, false, false, &ev) == HSAKMT_STATUS_SUCCESS);
        // Copied out: libhsakmt's event structs are packed, so HWData2 may be
        // misaligned for a reference (UBSan).
        const uint64_t mailbox = ev->EventData.HWData2;
        REQUIRE(mailbox != 0);
        const auto id = static_cast<uint32_t>(ev->EventId);
        std::vector<uint32_t> dw;
        REQUIRE(sdma::trap(dw, g.gen, id) == sdma::Error::none);
        REQUIRE(g.queue->run(dw, g.queue->default_timeout_ns()).ok());
        CHECK(hsaKmtWaitOnEvent(ev, 50) == HSAKMT_STATUS_WAIT_TIMEOUT); // slot never written
        dw.clear();
        REQUIRE(sdma::fence(dw, g.gen, mailbox, id) == sdma::Error::none);
        REQUIRE(sdma::trap(dw, g.gen, id) == sdma::Error::none);
        uint64_t seq = 0;
        REQUIRE(g.queue->submit(dw, seq).ok());
        CHECK(hsaKmtWaitOnEvent(ev, 5000) == HSAKMT_STATUS_SUCCESS);
        CHECK(g.queue->wait(seq, g.queue->default_timeout_ns()).ok());
        CHECK(hsaKmtWaitOnEvent(ev, 0) == HSAKMT_STATUS_WAIT_TIMEOUT); // auto-reset
        CHECK(hsaKmtDestroyEvent(ev) == HSAKMT_STATUS_SUCCESS);
    }
}

TEST_CASE("VRAM on each GPU: host -> VRAM -> host byte-exact on its own queue", "[kfd][sim]") {
    World &w = World::get();
    REQUIRE(w.status.ok());
    const uint64_t n = 3 * 1024 * 1024 + 4100; // several packets, unaligned tail
    for (size_t i = 0; i < w.gpus.size(); ++i) {
        Gpu &g = w.gpus[i];
        INFO("gpu " << i << " node " << g.node);
        std::unique_ptr<kfd::Memory> vram, in, out;
        REQUIRE(kfd::Memory::alloc_vram(g.node, n, false, vram).ok());
        REQUIRE(kfd::Memory::alloc_host(n, in).ok());
        REQUIRE(kfd::Memory::alloc_host(n, out).ok());
        const uint32_t on[] = {g.node};
        REQUIRE(vram->map_to(on).ok());
        REQUIRE(in->map_to(on).ok());
        REQUIRE(out->map_to(on).ok());
        CHECK(vram->nodes() == std::vector<uint32_t>{g.node});
        fill_pattern(in->cpu(), n, uint32_t(i));
        std::memset(out->cpu(), 0xee, n);
        REQUIRE(copy(g, in->va(), vram->va(), n).ok());
        REQUIRE(copy(g, vram->va(), out->va(), n).ok());
        CHECK(std::memcmp(in->cpu(), out->cpu(), n) == 0);
    }
}

TEST_CASE("Host-visible VRAM: the CPU mapping libhsakmt makes and the engine see the same bytes; "
          "a small-BAR GPU refuses it with EINVAL",
          "[kfd][sim]") {
    World &w = World::get();
    REQUIRE(w.status.ok());
    const uint64_t n = 2 * 1024 * 1024 + 4100;
    for (size_t i = 0; i < w.gpus.size(); ++i) {
        Gpu &g = w.gpus[i];
        const bool small_bar = w.topo.gpus[i].small_bar;
        INFO("gpu " << i << " node " << g.node << (small_bar ? " (small BAR)" : ""));
        std::unique_ptr<kfd::Memory> vram, host;
        const kmd::Status s = kfd::Memory::alloc_vram(g.node, n, true, vram);
        INFO(s.describe());
        if (small_bar) {
            // kfd_ioctl_alloc_memory_of_gpu: "Alloc host visible vram on
            // small bar is not allowed" (EINVAL), which libhsakmt answers
            // as HSAKMT_STATUS_NO_MEMORY (every failed ALLOC is NULL in
            // fmm_allocate_device); the kernel's errno is left behind.
            CHECK(s.err == ENOMEM);
            HsaMemFlags f{};
            f.ui32.NonPaged = 1;
            f.ui32.NoSubstitute = 1;
            f.ui32.CoarseGrain = 1;
            f.ui32.HostAccess = 1;
            void *p = nullptr;
            errno = 0;
            CHECK(hsaKmtAllocMemory(g.node, 1 << 20, f, &p) == HSAKMT_STATUS_NO_MEMORY);
            CHECK(errno == EINVAL);
            continue;
        }
        REQUIRE(s.ok());
        REQUIRE(vram->cpu() != nullptr);
        CHECK(vram->cpu() == reinterpret_cast<uint8_t *>(vram->va())); // one address, CPU and GPU
        REQUIRE(kfd::Memory::alloc_host(n, host).ok());
        const uint32_t on[] = {g.node};
        REQUIRE(vram->map_to(on).ok());
        REQUIRE(host->map_to(on).ok());
        // CPU writes, the engine reads them back out...
        fill_pattern(vram->cpu(), n, uint32_t(i) + 40);
        std::memset(host->cpu(), 0xee, n);
        REQUIRE(copy(g, vram->va(), host->va(), n).ok());
        CHECK(std::memcmp(vram->cpu(), host->cpu(), n) == 0);
        // ...and the engine writes what the CPU then reads.
        fill_pattern(host->cpu(), n, uint32_t(i) + 80);
        REQUIRE(copy(g, host->va(), vram->va(), n).ok());
        CHECK(std::memcmp(vram->cpu(), host->cpu(), n) == 0);
    }
}

TEST_CASE("Peer mapping over every ordered pair: the accessor's queue reads the owner's VRAM, "
          "or kfd_mem_attach refuses with EINVAL",
          "[kfd][sim]") {
    World &w = World::get();
    REQUIRE(w.status.ok());
    const uint64_t n = 1024 * 1024 + 12;
    for (size_t o = 0; o < w.gpus.size(); ++o) {
        for (size_t a = 0; a < w.gpus.size(); ++a) {
            if (o == a) continue;
            Gpu &owner = w.gpus[o], &acc = w.gpus[a];
            const bool refuse = w.refused.count({o, a}) > 0;
            INFO("owner gpu " << o << " accessor gpu " << a << (refuse ? " (refused)" : ""));
            std::unique_ptr<kfd::Memory> src, dst, host_in, host_out;
            REQUIRE(kfd::Memory::alloc_vram(owner.node, n, false, src).ok());
            REQUIRE(kfd::Memory::alloc_vram(acc.node, n, false, dst).ok());
            REQUIRE(kfd::Memory::alloc_host(n, host_in).ok());
            REQUIRE(kfd::Memory::alloc_host(n, host_out).ok());
            const uint32_t on_owner[] = {owner.node}, on_acc[] = {acc.node};
            REQUIRE(src->map_to(on_owner).ok());
            REQUIRE(dst->map_to(on_acc).ok());
            REQUIRE(host_in->map_to(on_owner).ok());
            REQUIRE(host_out->map_to(on_acc).ok());
            fill_pattern(host_in->cpu(), n, uint32_t(o * 16 + a));
            REQUIRE(copy(owner, host_in->va(), src->va(), n).ok());

            // Enable: the owner's VRAM onto the accessor's node too.
            const uint32_t both[] = {owner.node, acc.node};
            const kmd::Status m = src->map_to(both);
            INFO(m.describe());
            if (refuse) {
                CHECK(m.err == EINVAL);
                CHECK(std::string(m.call ? m.call : "") == "hsaKmtMapMemoryToGPUNodes");
                // The owner keeps its mapping and its engine still works.
                CHECK(src->nodes() == std::vector<uint32_t>{owner.node});
                std::memset(host_in->cpu(), 0, n);
                CHECK(copy(owner, src->va(), host_in->va(), n).ok());
                std::vector<uint8_t> want(n);
                fill_pattern(want.data(), n, uint32_t(o * 16 + a));
                CHECK(std::memcmp(host_in->cpu(), want.data(), n) == 0);
                continue;
            }
            REQUIRE(m.ok());
            CHECK(src->nodes().size() == 2);
            // The accessor pulls from the owner's VRAM into its own, then
            // out to host memory.
            REQUIRE(copy(acc, src->va(), dst->va(), n).ok());
            std::memset(host_out->cpu(), 0xee, n);
            REQUIRE(copy(acc, dst->va(), host_out->va(), n).ok());
            CHECK(std::memcmp(host_in->cpu(), host_out->cpu(), n) == 0);
            // And pushes back into the owner's VRAM at an offset.
            REQUIRE(copy(acc, dst->va(), src->va() + 4096, 8192).ok());
            std::memset(host_in->cpu(), 0, 8192);
            REQUIRE(copy(owner, src->va() + 4096, host_in->va(), 8192).ok());
            CHECK(std::memcmp(host_in->cpu(), host_out->cpu(), 8192) == 0);

            // Disable: back to the owner only, whose engine still reads it
            // (the accessor's access then faults: the last test case, since
            // a fault ends the accessor's queues for the process).
            REQUIRE(src->map_to(on_owner).ok());
            CHECK(src->nodes() == std::vector<uint32_t>{owner.node});
            std::vector<uint8_t> want(4096);
            fill_pattern(want.data(), 4096, uint32_t(o * 16 + a));
            std::memset(host_in->cpu(), 0, 4096);
            REQUIRE(copy(owner, src->va(), host_in->va(), 4096).ok());
            CHECK(std::memcmp(host_in->cpu(), want.data(), 4096) == 0);
        }
    }
}

TEST_CASE("Memory errors carry the libhsakmt call and an errno", "[kfd][sim]") {
    World &w = World::get();
    REQUIRE(w.status.ok());
    std::unique_ptr<kfd::Memory> m;
    kmd::Status s = kfd::Memory::alloc_vram(w.gpus[0].node, 0, false, m);
    CHECK(s.err == EINVAL);
    // More VRAM than any machine file's GPU has (the largest is 192 GiB):
    // the kernel's -ENOMEM (amdgpu_amdkfd_reserve_mem_limit).
    s = kfd::Memory::alloc_vram(w.gpus[0].node, 512ull << 30, false, m);
    INFO(s.describe());
    CHECK(s.err == ENOMEM);
    CHECK(std::string(s.call ? s.call : "") == "hsaKmtAllocMemory(VRAM)");
    // Mapping onto a node that is not a GPU: libhsakmt refuses before any ioctl.
    REQUIRE(kfd::Memory::alloc_vram(w.gpus[0].node, 4096, false, m).ok());
    const uint32_t bogus[] = {9999};
    s = m->map_to(bogus);
    INFO(s.describe());
    CHECK(!s.ok());
    CHECK(m->nodes().empty());
}

namespace {

std::string evicting() {
    const char *e = std::getenv("PEER_EXPECT_VM_FAULT_EVICTS");
    return e ? e : "";
}

// A copy on a queue made without the fault reports, so only the kernel's
// answer counts: a queue made on an evicted GPU never runs its job.
kmd::Status copy_on_fresh_queue(const Gpu &g, uint64_t src, uint64_t dst, uint64_t n) {
    std::unique_ptr<kfd::SdmaQueue> q;
    if (kmd::Status s = kfd::SdmaQueue::create(g.node, g.gen, q); !s) return s;
    return q->run(copy_packets(g.gen, src, dst, n), 300'000'000ull);
}

} // namespace

// Last: each fault leaves its GPU's queues evicted for the rest of the
// process (kfd_int_process_v9.c event_interrupt_wq_v9 -> kfd_dqm_evict_pasid).
TEST_CASE("A VM fault of an accessor's job: reported with its page where the kernel evicts, and "
          "the accessor's queues, old and new, run nothing more; other GPUs' queues run on",
          "[kfd][sim]") {
    World &w = World::get();
    REQUIRE(w.status.ok());
    const std::string evicts = evicting();
    REQUIRE(evicts.size() == w.gpus.size());
    const uint64_t n = 8192;
    for (size_t a = 0; a < w.gpus.size(); ++a) {
        Gpu &acc = w.gpus[a];
        const bool evicted = evicts[a] == '1';
        INFO("accessor gpu " << a << (evicted ? " (the kernel evicts)" : " (no eviction)"));
        std::unique_ptr<kfd::Memory> gone, dst, host;
        REQUIRE(kfd::Memory::alloc_vram(acc.node, n, false, dst).ok());
        REQUIRE(kfd::Memory::alloc_host(n, host).ok());
        const uint32_t on_acc[] = {acc.node};
        REQUIRE(dst->map_to(on_acc).ok());
        REQUIRE(host->map_to(on_acc).ok());
        // A buffer mapped on the accessor, then unmapped: its read faults.
        REQUIRE(kfd::Memory::alloc_vram(acc.node, n, false, gone).ok());
        REQUIRE(gone->map_to(on_acc).ok());
        const uint64_t page = gone->va();
        REQUIRE(gone->unmap().ok());
        const uint64_t mark = w.kmsg.mark();
        CHECK(copy(acc, page, dst->va(), n).ok()); // the faulting job itself completes
        if (w.kmsg.available()) CHECK(!w.kmsg.faults_since(mark, w.slot(a)).empty());
        const kmd::Status next = copy(acc, dst->va(), host->va(), n);
        INFO(next.describe());
        if (w.faults) w.faults->poll();
        if (evicted) {
            REQUIRE(w.faults);
            CHECK(w.faults->fault_on(acc.node) == page);
            CHECK(next.err == EFAULT);
            CHECK(std::string(next.call) == kfd::SdmaQueue::kEvictedCall);
            CHECK(copy_on_fresh_queue(acc, dst->va(), host->va(), n).err == ETIME);
        } else {
            CHECK(next.ok());
            CHECK(!(w.faults && w.faults->fault_on(acc.node)));
            CHECK(copy_on_fresh_queue(acc, dst->va(), host->va(), n).ok());
        }
        // The next GPU (not faulted yet) still runs its jobs.
        if (a + 1 < w.gpus.size()) {
            Gpu &other = w.gpus[a + 1];
            std::unique_ptr<kfd::Memory> in, out;
            REQUIRE(kfd::Memory::alloc_host(n, in).ok());
            REQUIRE(kfd::Memory::alloc_host(n, out).ok());
            const uint32_t on_other[] = {other.node};
            REQUIRE(in->map_to(on_other).ok());
            REQUIRE(out->map_to(on_other).ok());
            fill_pattern(in->cpu(), n, 99);
            CHECK(copy(other, in->va(), out->va(), n).ok());
            CHECK(std::memcmp(in->cpu(), out->cpu(), n) == 0);
        }
    }
}
