// The kmd layer against the simulated kernel (run under amdgpu-sim): real
// ioctls through libdrm_amdgpu/libhsakmt, the errno and call name of each
// failure, SDMA jobs whose bytes are checked, job timeout, guilty context,
// and VM faults found in the kernel log.
#include "kmd/bo.hpp"
#include "kmd/device.hpp"
#include "kmd/kmsg.hpp"
#include "kmd/queue.hpp"
#include "kmd/topology.hpp"
#include "kmd/va_allocator.hpp"
#include "sdma/packets.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>

namespace {

// libhsakmt 5.2.3 leaks a few bytes on every hsaKmtOpenKFD/CloseKFD cycle
// (seen by LeakSanitizer inside libhsakmt.so.1), so the topology is read once
// per process, as the peer API does.
const kmd::Topology &topology() {
    static const kmd::Topology t = [] {
        kmd::Topology r;
        const kmd::Status s = kmd::read_topology(r);
        if (!s.ok()) r.gpus.clear();
        return r;
    }();
    return t;
}

struct Fixture {
    kmd::Topology topo;
    std::unique_ptr<kmd::Device> dev;
    std::unique_ptr<kmd::VaAllocator> va;
    std::unique_ptr<kmd::Queue> q;
    sdma::Generation gen = sdma::Generation::v4;

    Fixture() {
        topo = topology();
        REQUIRE(!topo.gpus.empty());
        kmd::Status s = kmd::Device::open(topo.gpus[0].render_minor, dev);
        INFO(s.describe());
        REQUIRE(s.ok());
        auto g = sdma::generation_for_ip(dev->info().sdma_major);
        REQUIRE(g.has_value());
        gen = *g;
        va = std::make_unique<kmd::VaAllocator>(
            std::max<uint64_t>(dev->info().va_offset, 1ull << 32), dev->info().va_max);
        s = kmd::Queue::create(*dev, *va, q);
        INFO(s.describe());
        REQUIRE(s.ok());
    }
};

struct MappedGtt {
    std::unique_ptr<kmd::Bo> bo;
    std::unique_ptr<kmd::VaMapping> map;
    uint64_t va = 0;
    uint8_t *cpu = nullptr;
    MappedGtt(Fixture &f, uint64_t bytes) {
        REQUIRE(kmd::Bo::alloc(*f.dev, bytes, kmd::Domain::gtt, 0, bo).ok());
        void *p = nullptr;
        REQUIRE(bo->cpu_map(&p).ok());
        cpu = static_cast<uint8_t *>(p);
        va = *f.va->allocate(bytes);
        REQUIRE(kmd::VaMapping::map(*bo, va, bytes, kmd::VaMapping::kReadWrite, map).ok());
    }
};

} // namespace

TEST_CASE("topology lists GPU nodes with render minors and PCI locations", "[kmd][sim]") {
    const kmd::Topology &t = topology();
    REQUIRE(!t.gpus.empty());
    for (size_t i = 0; i < t.gpus.size(); ++i) {
        CHECK(t.gpus[i].render_minor >= 128);
        if (i) CHECK(t.gpus[i].node > t.gpus[i - 1].node);
    }
}

TEST_CASE("device info: SDMA IP version, IB alignment and VA range", "[kmd][sim]") {
    Fixture f;
    const auto &i = f.dev->info();
    CHECK(i.sdma_major >= 4);
    CHECK(i.sdma_major <= 7);
    CHECK(i.ib_start_alignment >= 4u);
    CHECK(i.va_max > i.va_offset);
    CHECK(i.vram_bytes > 0);
}

TEST_CASE("an SDMA job writes, fills and copies; the bytes land", "[kmd][sim]") {
    Fixture f;
    MappedGtt buf(f, 64 * 1024);
    std::memset(buf.cpu, 0x5a, 64 * 1024);
    std::vector<uint32_t> ib;
    const uint32_t data[] = {0x11223344, 0x55667788};
    REQUIRE(sdma::write_linear(ib, f.gen, buf.va, data) == sdma::Error::none);
    REQUIRE(sdma::constant_fill(ib, f.gen, buf.va + 100, 0x000000ee, 7) == sdma::Error::none);
    REQUIRE(sdma::copy_linear(ib, f.gen, buf.va, buf.va + 4096 + 3, 8) == sdma::Error::none);
    REQUIRE(sdma::fence(ib, f.gen, buf.va + 8192, 0xfeedf00d) == sdma::Error::none);
    const uint32_t bos[] = {buf.bo->kms_handle()};
    kmd::Fence seq;
    kmd::Status s = f.q->submit(ib, bos, seq);
    INFO(s.describe());
    REQUIRE(s.ok());
    CHECK(seq.seq >= 1);
    s = f.q->wait(seq, 5'000'000'000ull);
    INFO(s.describe());
    REQUIRE(s.ok());
    uint32_t w[2];
    std::memcpy(w, buf.cpu, 8);
    CHECK(w[0] == 0x11223344u);
    CHECK(w[1] == 0x55667788u);
    for (int i = 0; i < 7; ++i)
        CHECK(buf.cpu[100 + i] == 0xee);
    CHECK(buf.cpu[99] == 0x5a);
    CHECK(buf.cpu[107] == 0x5a);
    CHECK(std::memcmp(buf.cpu + 4096 + 3, buf.cpu, 8) == 0);
    uint32_t fence = 0;
    std::memcpy(&fence, buf.cpu + 8192, 4);
    CHECK(fence == 0xfeedf00du);
}

TEST_CASE("failing ioctls keep their errno and name", "[kmd][sim]") {
    Fixture f;
    std::unique_ptr<kmd::Bo> bo;
    REQUIRE(kmd::Bo::alloc(*f.dev, 8192, kmd::Domain::vram, 0, bo).ok());
    std::unique_ptr<kmd::VaMapping> m;
    // amdgpu_vm_verify_parameters: unaligned address -> -EINVAL.
    kmd::Status s =
        kmd::VaMapping::map(*bo, (1ull << 33) + 12, 4096, kmd::VaMapping::kReadWrite, m);
    CHECK(s.err == EINVAL);
    CHECK(std::string(s.call) == "AMDGPU_GEM_VA(MAP)");
    // amdgpu_gem_va_ioctl: below AMDGPU_VA_RESERVED_BOTTOM -> -EINVAL.
    s = kmd::VaMapping::map(*bo, 0, 4096, kmd::VaMapping::kReadWrite, m);
    CHECK(s.err == EINVAL);
    // MAP overlapping an existing mapping -> -EINVAL (amdgpu_vm_bo_map).
    REQUIRE(kmd::VaMapping::map(*bo, 1ull << 34, 8192, kmd::VaMapping::kReadWrite, m).ok());
    std::unique_ptr<kmd::VaMapping> m2;
    s = kmd::VaMapping::map(*bo, (1ull << 34) + 4096, 4096, kmd::VaMapping::kReadWrite, m2);
    CHECK(s.err == EINVAL);
    // PRIME import of something that is not a dma-buf -> -EBADF (dma_buf_get).
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    std::unique_ptr<kmd::Bo> imp;
    s = kmd::Bo::import_dmabuf(*f.dev, fds[0], imp);
    close(fds[0]);
    close(fds[1]);
    CHECK_FALSE(s.ok());
    CHECK(std::string(s.call) == "DRM_IOCTL_PRIME_FD_TO_HANDLE");
    CHECK(s.describe().find(kmd::errno_name(s.err)) != std::string::npos);
}

TEST_CASE("a job that never ends times out (ETIME), its context turns guilty (ECANCELED)",
          "[kmd][sim][timeout]") {
    Fixture f;
    MappedGtt buf(f, 4096);
    std::memset(buf.cpu, 0, 4096);
    std::vector<uint32_t> ib;
    // Wait for a value nobody writes: the scheduler's job timeout fires.
    REQUIRE(sdma::poll_regmem_mem(ib, f.gen, buf.va, 1, 0xffffffff) == sdma::Error::none);
    const uint32_t bos[] = {buf.bo->kms_handle()};
    kmd::Fence seq;
    REQUIRE(f.q->submit(ib, bos, seq).ok());
    kmd::Status s = f.q->wait(seq, 10'000'000'000ull);
    CHECK(s.err == ETIME);
    uint64_t flags = 0;
    REQUIRE(f.q->reset_state(flags).ok());
    CHECK((flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) != 0);
    std::vector<uint32_t> ok_ib;
    REQUIRE(sdma::fence(ok_ib, f.gen, buf.va, 7) == sdma::Error::none);
    s = f.q->submit(ok_ib, bos, seq);
    CHECK(s.err == ECANCELED);
    CHECK(std::string(s.call) == "AMDGPU_CS");
    REQUIRE(f.q->renew_context().ok());
    REQUIRE(f.q->submit(ok_ib, bos, seq).ok());
    REQUIRE(f.q->wait(seq, 5'000'000'000ull).ok());
    uint32_t v = 0;
    std::memcpy(&v, buf.cpu, 4);
    CHECK(v == 7u);
}

TEST_CASE("a read from an unmapped VA is a VM fault in the kernel log and GPUVM_FAULT",
          "[kmd][sim][fault]") {
    Fixture f;
    kmd::KmsgLog log;
    REQUIRE(log.available());
    MappedGtt buf(f, 4096);
    const uint64_t hole = *f.va->allocate(1 << 20); // reserved, never mapped
    std::vector<uint32_t> ib;
    REQUIRE(sdma::copy_linear(ib, f.gen, hole + 0x2345, buf.va, 16) == sdma::Error::none);
    const uint32_t bos[] = {buf.bo->kms_handle()};
    const uint64_t mark = log.mark();
    kmd::Fence seq;
    REQUIRE(f.q->submit(ib, bos, seq).ok());
    REQUIRE(f.q->wait(seq, 5'000'000'000ull).ok());
    const kmd::Topology &t = topology();
    const std::string slot = kmd::pci_slot_name(t.gpus[0].domain, t.gpus[0].location_id);
    auto faults = log.faults_since(mark, slot);
    REQUIRE(faults.size() >= 1);
    CHECK(faults[0].address == hole + 0x2000);
    kmd::Device::VmFaultInfo vf;
    kmd::Status s = f.dev->query_vm_fault(vf);
    if (s.ok()) CHECK(vf.addr == hole + 0x2000); // K6.7+ only
}

TEST_CASE("dma-buf: a VRAM BO exported by one device is imported, mapped and read by another",
          "[kmd][sim][dmabuf]") {
    const kmd::Topology &t = topology();
    REQUIRE(t.gpus.size() >= 2);
    Fixture f; // device 0 and its queue
    std::unique_ptr<kmd::Device> other;
    REQUIRE(kmd::Device::open(t.gpus[1].render_minor, other).ok());
    std::unique_ptr<kmd::Queue> oq;
    REQUIRE(kmd::Queue::create(*other, *f.va, oq).ok());
    auto ogen = sdma::generation_for_ip(other->info().sdma_major);
    REQUIRE(ogen.has_value());

    // Owner (device 0): a VRAM BO filled by its own engine.
    const uint64_t bytes = 3 * 4096;
    std::unique_ptr<kmd::Bo> vram;
    REQUIRE(kmd::Bo::alloc(*f.dev, bytes, kmd::Domain::vram, 0, vram).ok());
    const uint64_t va = *f.va->allocate(bytes);
    std::unique_ptr<kmd::VaMapping> own_map;
    REQUIRE(kmd::VaMapping::map(*vram, va, bytes, kmd::VaMapping::kReadWrite, own_map).ok());
    std::vector<uint32_t> ib;
    REQUIRE(sdma::constant_fill(ib, f.gen, va, 0xc3c3c3c3u, bytes) == sdma::Error::none);
    const uint32_t own_bos[] = {vram->kms_handle()};
    kmd::Fence seq;
    REQUIRE(f.q->submit(ib, own_bos, seq).ok());
    REQUIRE(f.q->wait(seq, 5'000'000'000ull).ok());

    // Importer (device 1): same VA in its own VM.
    kmd::UniqueFd fd;
    kmd::Status s = vram->export_dmabuf(fd);
    INFO(s.describe());
    REQUIRE(s.ok());
    std::unique_ptr<kmd::Bo> imp;
    s = kmd::Bo::import_dmabuf(*other, fd.get(), imp);
    INFO(s.describe());
    REQUIRE(s.ok());
    CHECK(imp->size() == bytes);
    std::unique_ptr<kmd::VaMapping> imp_map;
    s = kmd::VaMapping::map(*imp, va, bytes, kmd::VaMapping::kReadWrite, imp_map);
    INFO(s.describe());
    REQUIRE(s.ok());

    std::unique_ptr<kmd::Bo> gtt;
    REQUIRE(kmd::Bo::alloc(*other, 4096, kmd::Domain::gtt, 0, gtt).ok());
    void *cpu = nullptr;
    REQUIRE(gtt->cpu_map(&cpu).ok());
    std::memset(cpu, 0, 4096);
    const uint64_t gva = *f.va->allocate(4096);
    std::unique_ptr<kmd::VaMapping> gmap;
    REQUIRE(kmd::VaMapping::map(*gtt, gva, 4096, kmd::VaMapping::kReadWrite, gmap).ok());
    ib.clear();
    REQUIRE(sdma::copy_linear(ib, *ogen, va + 4096 + 5, gva, 100) == sdma::Error::none);
    const uint32_t bos[] = {imp->kms_handle(), gtt->kms_handle()};
    REQUIRE(oq->submit(ib, bos, seq).ok());
    REQUIRE(oq->wait(seq, 5'000'000'000ull).ok());
    auto *b = static_cast<uint8_t *>(cpu);
    for (int i = 0; i < 100; ++i)
        CHECK(b[i] == 0xc3);
    CHECK(b[100] == 0);
}
