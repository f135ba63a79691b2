// kernel_vm: what an SDMA job sees through the VM right after a GEM_VA change
// or a GEM_CLOSE, on the instance's own DRM file (kmd/raw.hpp). Each op sets
// up BOs with patterns of their own, makes one VA change, and reads the range
// back with the very next job into a poisoned GTT buffer, so a page-table
// update the kernel did not make visible at once (a missing TLB flush), a
// mapping at the wrong offset of its BO, or PTEs that outlive their BO all
// show up as the wrong bytes. The kernel rule behind each op is named in
// cases/contract/vm.yaml.
#include "executor_impl.hpp"
#include "executor_kernel.hpp"

#include "cases/step_table.hpp"

#include <libdrm/amdgpu_drm.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <sys/ioctl.h>
#include <thread>
#include <unistd.h>

namespace harness::runner::detail {

namespace {

constexpr uint64_t kWaitNs = 10ull * 1000 * 1000 * 1000;
constexpr uint64_t kPage = 4096;
constexpr uint32_t kRw = AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE;
constexpr uint8_t kPoison = 0x5a; // even: no pattern byte (all odd) equals it
// AMDGPU_INFO_GPUVM_FAULT (K6.7+); not in every distribution's amdgpu_drm.h.
constexpr uint32_t kInfoGpuvmFault = 0x23;

// Byte i of pattern `seed`: odd (never 0, never the poison), and different
// from the other seeds' byte at most positions.
uint8_t pattern_byte(uint32_t seed, uint64_t i) {
    uint32_t x = uint32_t(i) * 2654435761u ^ (seed * 0x9e3779b9u);
    x ^= x >> 15;
    return uint8_t(x | 1);
}

struct VmFault {
    bool known = false; // the kernel answers GPUVM_FAULT
    uint64_t addr = 0;
    uint32_t status = 0;
};

VmFault last_fault(const kmd::RawFile &f) {
    struct {
        uint64_t addr;
        uint32_t status;
        uint32_t vmhub;
    } raw{};
    drm_amdgpu_info q{};
    q.return_pointer = reinterpret_cast<uintptr_t>(&raw);
    q.return_size = sizeof raw;
    q.query = kInfoGpuvmFault;
    VmFault v;
    if (::ioctl(f.fd(), DRM_IOCTL_AMDGPU_INFO, &q) != 0) return v;
    v.known = true;
    v.addr = raw.addr;
    v.status = raw.status;
    return v;
}

class VmOps {
  public:
    VmOps(KernelSteps &k, KernelFile &f) : k_(k), f_(f) {}

    // A GTT BO filled by the CPU with pattern `seed`, or a VRAM BO filled
    // with it by an SDMA copy from such a BO (no CPU mapping of VRAM needed).
    uint32_t pattern_bo(bool vram, uint64_t bytes, uint32_t seed) {
        uint32_t gtt = 0;
        require(f_.file->gem_create(bytes, AMDGPU_GEM_DOMAIN_GTT, 0, gtt), "GEM_CREATE(GTT)");
        void *cpu = nullptr;
        require(f_.file->cpu_map(gtt, bytes, &cpu), "mapping a GTT BO");
        for (uint64_t i = 0; i < bytes; ++i)
            static_cast<uint8_t *>(cpu)[i] = pattern_byte(seed, i);
        if (!vram) return gtt;
        uint32_t v = 0;
        require(f_.file->gem_create(bytes, AMDGPU_GEM_DOMAIN_VRAM, 0, v), "GEM_CREATE(VRAM)");
        const uint64_t src = k_.map_new(f_, gtt, bytes), dst = k_.map_new(f_, v, bytes);
        if (std::string m = copy(src, dst, bytes, {gtt, v}); !m.empty())
            throw StepError{"filling a VRAM BO: " + m};
        // Both helper mappings stay: their VAs are never reused by the op.
        return v;
    }

    // A range of the file's VM no helper uses, `align`-aligned.
    uint64_t reserve(uint64_t bytes, uint64_t align) {
        const uint64_t va = (f_.next_va + align - 1) & ~(align - 1);
        f_.next_va = va + ((bytes + 0xffff) & ~uint64_t(0xffff)) + 0x10000;
        return va;
    }

    // One COPY_LINEAR job; "" when it completed.
    std::string copy(uint64_t src, uint64_t dst, uint64_t bytes, std::vector<uint32_t> bos) {
        std::vector<uint32_t> ib;
        if (sdma::copy_linear(ib, generation(*f_.file), src, dst, bytes) != sdma::Error::none)
            throw StepError{"cannot encode COPY_LINEAR"};
        const uint32_t ib_bytes = uint32_t(((ib.size() + 7) / 8) * 8 * 4);
        const uint64_t ib_va = k_.place_ib(f_, ib);
        bos.push_back(f_.ib_bo);
        uint32_t list = 0;
        require(f_.file->bo_list_create(bos, list), "AMDGPU_BO_LIST");
        const kmd::RawChunk chunks[] = {kmd::ib_chunk(ib_va, ib_bytes)};
        uint64_t seq = 0;
        require(f_.file->cs(f_.ctx, list, chunks, seq), "AMDGPU_CS");
        bool busy = false;
        kmd::Status st = f_.file->wait_cs(f_.ctx, seq, kWaitNs, busy);
        if (!st.ok()) return "WAIT_CS: " + st.describe();
        if (busy) return "the copy job did not finish within 10 s";
        return {};
    }

    // The next job reads [va, va + bytes) into a poisoned GTT BO.
    std::vector<uint8_t> read(uint64_t va, uint64_t bytes, std::vector<uint32_t> bos) {
        uint32_t rb = 0;
        require(f_.file->gem_create(bytes, AMDGPU_GEM_DOMAIN_GTT, 0, rb), "GEM_CREATE(read-back)");
        void *cpu = nullptr;
        require(f_.file->cpu_map(rb, bytes, &cpu), "mapping the read-back BO");
        std::memset(cpu, kPoison, bytes);
        // Mapping the read-back BO is itself a VA change: made before the op
        // under test (the caller maps nothing between the op and this job).
        const uint64_t rb_va = k_.map_new(f_, rb, bytes);
        bos.push_back(rb);
        if (std::string m = copy(va, rb_va, bytes, bos); !m.empty()) throw StepError{m};
        const auto *p = static_cast<const uint8_t *>(cpu);
        return {p, p + bytes};
    }

    // Read-back BOs are mapped up front (prepare_read), so the job that
    // follows an op is the first job after it.
    void prepare_read(uint64_t bytes) {
        pending_rb_bytes_ = bytes;
        require(f_.file->gem_create(bytes, AMDGPU_GEM_DOMAIN_GTT, 0, pending_rb_),
                "GEM_CREATE(read-back)");
        pending_rb_va_ = k_.map_new(f_, pending_rb_, bytes);
    }

    std::vector<uint8_t> read_prepared(uint64_t va, std::vector<uint32_t> bos) {
        void *cpu = nullptr;
        require(f_.file->cpu_map(pending_rb_, pending_rb_bytes_, &cpu), "mapping the read-back BO");
        std::memset(cpu, kPoison, pending_rb_bytes_);
        bos.push_back(pending_rb_);
        if (std::string m = copy(va, pending_rb_va_, pending_rb_bytes_, bos); !m.empty())
            throw StepError{m};
        const auto *p = static_cast<const uint8_t *>(cpu);
        return {p, p + pending_rb_bytes_};
    }

  private:
    KernelSteps &k_;
    KernelFile &f_;
    uint32_t pending_rb_ = 0;
    uint64_t pending_rb_va_ = 0, pending_rb_bytes_ = 0;
};

// "" when `got` is pattern `seed` from byte `from` of its BO; else where not.
std::string compare(const std::vector<uint8_t> &got, uint32_t seed, uint64_t from,
                    const char *what) {
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != pattern_byte(seed, from + i)) {
            std::string seen = got[i] == kPoison ? "nothing (the read-back poison)"
                                                 : fmt::format("0x{:02x}", got[i]);
            return fmt::format("{}: byte {} of {} read {}, expected 0x{:02x}", what, i, got.size(),
                               seen, pattern_byte(seed, from + i));
        }
    return {};
}

bool matches(const std::vector<uint8_t> &got, uint32_t seed, uint64_t from) {
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != pattern_byte(seed, from + i)) return false;
    return true;
}

} // namespace

// drm_gem_prime_fd_to_handle on another device: the dma-buf holds its own
// reference to the exporter's GEM object (drm_gem_prime_export ->
// drm_gem_dmabuf_export), so an import after the exporter closed its last
// handle works and maps the same pages (R33, fb4ef4a52b79: obj->dma_buf
// was dropped with the last handle and the attach path dereferenced it).
std::string dmabuf_after_close(KernelSteps &k, int a, int b, uint64_t bytes) {
    KernelFile &fa = k.file(a);
    KernelFile &fb = k.file(b);
    VmOps va(k, fa), vb(k, fb);
    const uint32_t bo = va.pattern_bo(false, bytes, 7);
    int fd = -1;
    require(fa.file->prime_export(bo, fd), "PRIME_HANDLE_TO_FD");
    if (kmd::Status closed = fa.file->gem_close(bo); !closed.ok()) {
        ::close(fd);
        require(closed, "GEM_CLOSE of the exporter's handle");
    }
    uint32_t imported = 0;
    kmd::Status st = fb.file->prime_import(fd, imported);
    ::close(fd);
    if (!st.ok())
        return fmt::format("PRIME_FD_TO_HANDLE on device {} of a dma-buf whose exporter (device "
                           "{}) closed its last GEM handle failed: {}",
                           b, a, st.describe());
    vb.prepare_read(bytes);
    const uint64_t at = k.map_new(fb, imported, bytes);
    return compare(vb.read_prepared(at, {imported}), 7, 0, "the imported BO read on the peer");
}

// amdgpu_dma_buf_move_notify / amdgpu_bo_move: an import that moves the
// exporter's VRAM BO to GTT (a BO beyond the exporter's BAR) while a job of
// the exporter still writes it orders the page-table switch after that job's
// fence, so the job's bytes land and survive the move (R30, b18fc0ab8373:
// the page tables switched at once and the job faulted). The job is held on a
// flag a helper thread releases shortly after the import started, so a kernel
// whose import waits for the job does not deadlock with this thread.
std::string dmabuf_move_under_job(KernelSteps &k, int a, int b, uint64_t bytes) {
    KernelFile &fa = k.file(a);
    KernelFile &fb = k.file(b);
    VmOps va(k, fa);
    const sdma::Generation g = generation(*fa.file);
    for (int round = 0; round < 6; ++round) {
        const uint32_t src = va.pattern_bo(false, bytes, 8);
        const uint64_t src_va = k.map_new(fa, src, bytes);
        // The BO is larger than the exporter's CPU-visible VRAM, so no
        // importer reaches it through the BAR and the import must move it;
        // the held job writes its first `bytes`.
        const uint64_t x_bytes = beyond_bar_bytes(*fa.file, bytes);
        uint32_t x = 0, fl = 0;
        require(fa.file->gem_create(x_bytes, AMDGPU_GEM_DOMAIN_VRAM, 0, x), "GEM_CREATE(VRAM)");
        const uint64_t x_va = k.map_new(fa, x, x_bytes);
        require(fa.file->gem_create(4096, AMDGPU_GEM_DOMAIN_GTT, 0, fl), "GEM_CREATE(flags)");
        void *cpu = nullptr;
        require(fa.file->cpu_map(fl, 4096, &cpu), "mapping the flags");
        volatile uint32_t *flags = static_cast<volatile uint32_t *>(cpu);
        flags[0] = 0;
        flags[16] = 0;
        const uint64_t fl_va = k.map_new(fa, fl, 4096);
        std::vector<uint32_t> ib;
        if (sdma::fence(ib, g, fl_va, 1) != sdma::Error::none ||
            sdma::poll_regmem_mem(ib, g, fl_va + 64, 1, 0xffffffffu) != sdma::Error::none ||
            sdma::copy_linear(ib, g, src_va, x_va, bytes) != sdma::Error::none)
            throw StepError{"cannot encode the held copy"};
        const uint32_t ib_bytes = uint32_t(((ib.size() + 7) / 8) * 8 * 4);
        const uint64_t ib_va = k.place_ib(fa, ib);
        uint32_t ctx = 0, list = 0;
        require(fa.file->ctx_alloc(ctx), "AMDGPU_CTX");
        const uint32_t handles[] = {fa.ib_bo, fl, src, x};
        require(fa.file->bo_list_create(handles, list), "AMDGPU_BO_LIST");
        const kmd::RawChunk chunks[] = {kmd::ib_chunk(ib_va, ib_bytes)};
        uint64_t seq = 0;
        require(fa.file->cs(ctx, list, chunks, seq), "AMDGPU_CS");
        const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (flags[0] != 1 && std::chrono::steady_clock::now() < limit)
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        if (flags[0] != 1) {
            flags[16] = 1;
            return fmt::format("the job on device {} did not start within 2 s", a);
        }
        std::thread releaser([flags] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            flags[16] = 1;
        });
        int fd = -1;
        kmd::Status st = fa.file->prime_export(x, fd);
        uint32_t imported = 0;
        if (st.ok()) {
            st = fb.file->prime_import(fd, imported);
            ::close(fd);
        }
        if (st.ok()) k.map_new(fb, imported, x_bytes);
        releaser.join();
        bool busy = false;
        kmd::Status done = fa.file->wait_cs(ctx, seq, kWaitNs, busy);
        require(st, "exporting the BO and importing it on the peer");
        if (ctx_guilty(*fa.file, ctx)) continue; // the held job timed out: again
        if (!done.ok()) return "WAIT_CS on the exporter's job: " + done.describe();
        if (busy) return "the exporter's job did not finish within 10 s";
        return compare(va.read(x_va, bytes, {x}), 8, 0,
                       "the BO written by the exporter's job while the import moved it");
    }
    return "inconclusive: the held job timed out in every round";
}

namespace {

void gem_va(KernelFile &f, uint32_t bo, uint32_t opcode, uint64_t va, uint64_t offset,
            uint64_t size, const char *what) {
    require(f.file->gem_va(bo, opcode, va, offset, size, kRw), what);
}

// The BO an op offset maps: made by the VM's own file, or by the owner's file
// and imported into the VM's through a dma-buf (drm_gem_prime_fd_to_handle:
// the import shares the exporter's pages, so offset_in_bo counts in them).
uint32_t offset_bo(KernelSteps &k, KernelFile &f, VmOps &vm, int owner, bool vram, uint64_t bytes) {
    if (owner < 0) return vm.pattern_bo(vram, bytes, 1);
    KernelFile &fo = k.file(owner);
    VmOps vo(k, fo);
    const uint32_t exported = vo.pattern_bo(vram, bytes, 1);
    int fd = -1;
    require(fo.file->prime_export(exported, fd), "PRIME_HANDLE_TO_FD on the owner");
    uint32_t imported = 0;
    kmd::Status st = f.file->prime_import(fd, imported);
    ::close(fd);
    require(st, "PRIME_FD_TO_HANDLE on the VM's device");
    return imported;
}

// op offset: amdgpu_vm_bo_map: the mapping starts offset_in_bo bytes into the
// BO, here the last `bytes` of a BO of offset + bytes (so the mapping ends at
// the BO's end); every byte is checked, the first and the last included.
// `owner` >= 0: the BO is another device's, imported (a peer BO in this VM).
std::string vm_offset(KernelSteps &k, KernelFile &f, VmOps &vm, int owner, bool vram,
                      uint64_t bytes, uint64_t offset) {
    if (offset % kPage) return fmt::format("offset {} is not a multiple of 4Ki", offset);
    const uint32_t bo = offset_bo(k, f, vm, owner, vram, offset + bytes);
    vm.prepare_read(bytes);
    const uint64_t va = vm.reserve(bytes, 64 * 1024);
    gem_va(f, bo, AMDGPU_VA_OP_MAP, va, offset, bytes, "GEM_VA(MAP, offset_in_bo)");
    auto got = vm.read_prepared(va, {bo});
    if (matches(got, 1, 0) && offset)
        return fmt::format("a mapping with offset_in_bo {} shows the BO from its start", offset);
    return compare(got, 1, offset, "through a mapping with offset_in_bo");
}

// ops replace, unmap_map, clear_map: amdgpu_vm_bo_replace_map /
// amdgpu_vm_bo_unmap / amdgpu_vm_bo_clear_mappings, then amdgpu_vm_update_range
// with a TLB flush before the next job: the first job after the change sees
// the new BO.
std::string vm_change(KernelFile &f, VmOps &vm, const std::string &op, bool vram, uint64_t bytes) {
    const uint32_t old_bo = vm.pattern_bo(vram, bytes, 2);
    const uint32_t new_bo = vm.pattern_bo(vram, bytes, 3);
    vm.prepare_read(bytes);
    const uint64_t va = vm.reserve(bytes, 64 * 1024);
    gem_va(f, old_bo, AMDGPU_VA_OP_MAP, va, 0, bytes, "GEM_VA(MAP)");
    // A job through the old mapping first, so its translation is cached.
    if (std::string m = compare(vm.read(va, bytes, {old_bo}), 2, 0, "before the change");
        !m.empty())
        return m;
    if (op == "replace") {
        gem_va(f, new_bo, AMDGPU_VA_OP_REPLACE, va, 0, bytes, "GEM_VA(REPLACE)");
    } else {
        if (op == "unmap_map")
            gem_va(f, old_bo, AMDGPU_VA_OP_UNMAP, va, 0, bytes, "GEM_VA(UNMAP)");
        else
            gem_va(f, 0, AMDGPU_VA_OP_CLEAR, va, 0, bytes, "GEM_VA(CLEAR)");
        gem_va(f, new_bo, AMDGPU_VA_OP_MAP, va, 0, bytes, "GEM_VA(MAP) of the new BO");
    }
    auto got = vm.read_prepared(va, {old_bo, new_bo});
    if (matches(got, 2, 0))
        return fmt::format("the first job after {} still read the old BO's pages (a stale "
                           "translation: no TLB flush)",
                           op);
    return compare(got, 3, 0, ("the first job after " + op).c_str());
}

// op neighbour_map: amdgpu_vm_bo_map beside valid PTEs of the same block of
// 8 (GFX8 and later cache whole blocks): the new page must be reachable by
// the next job (R19, 84205d009343 flushes for it).
std::string vm_neighbour_map(KernelFile &f, VmOps &vm, bool vram, uint64_t bytes) {
    const uint32_t first = vm.pattern_bo(vram, kPage, 4);
    const uint32_t second = vm.pattern_bo(vram, bytes, 5);
    vm.prepare_read(bytes);
    const uint64_t va = vm.reserve(kPage + bytes, 64 * 1024);
    gem_va(f, first, AMDGPU_VA_OP_MAP, va, 0, kPage, "GEM_VA(MAP) of the first page");
    if (std::string m = compare(vm.read(va, kPage, {first}), 4, 0, "the first page"); !m.empty())
        return m;
    gem_va(f, second, AMDGPU_VA_OP_MAP, va + kPage, 0, bytes, "GEM_VA(MAP) beside it");
    return compare(vm.read_prepared(va + kPage, {first, second}), 5, 0,
                   "the first job after a map beside a valid PTE");
}

// op fresh_vm_after_fault: amdgpu_vm_fini frees the PASID only after its
// pending faults are handled (14b81abe7bdc): a VM created right after another
// VM of this process faulted and was closed has no fault of its own
// (GPUVM_FAULT, from 6.7; older kernels cannot be asked).
std::string vm_fresh_after_fault(KernelSteps &k, int dev, bool vram, uint64_t bytes) {
    {
        KernelFile old_file = k.open(dev);
        VmOps old_vm(k, old_file);
        const uint32_t bo = old_vm.pattern_bo(vram, bytes, 9);
        old_vm.prepare_read(bytes);
        const uint64_t va = old_vm.reserve(bytes, 64 * 1024);
        gem_va(old_file, bo, AMDGPU_VA_OP_MAP, va, 0, bytes, "GEM_VA(MAP)");
        gem_va(old_file, bo, AMDGPU_VA_OP_UNMAP, va, 0, bytes, "GEM_VA(UNMAP)");
        (void)old_vm.read_prepared(va, {bo}); // faults
        if (!last_fault(*old_file.file).known) return {};
    } // the faulted VM's file closes here
    KernelFile fresh = k.open(dev);
    const VmFault v = last_fault(*fresh.file);
    if (v.known && v.status != 0)
        return fmt::format("a VM created after another VM's fault reports a fault of its "
                           "own at 0x{:x} (status 0x{:x}) before it ran anything: the "
                           "PASID was reused with the old owner's pending fault",
                           v.addr, v.status);
    return {};
}

// The fault a read of [va, va + bytes) must have raised after `op`, against
// the one known before.
std::string fault_after(const VmFault &before, const VmFault &after, const std::string &op,
                        uint64_t va, uint64_t bytes) {
    if (!after.known) return {};
    const uint64_t page = after.addr & ~(kPage - 1);
    if (after.status == 0 || (after.addr == before.addr && after.status == before.status))
        return fmt::format("after {} a read of the former VA raised no VM fault "
                           "(GPUVM_FAULT unchanged)",
                           op);
    if (page < (va & ~(kPage - 1)) || page >= va + bytes)
        return fmt::format("the VM fault of a read at 0x{:x}..0x{:x} was reported at "
                           "0x{:x} (GPUVM_FAULT)",
                           va, va + bytes - 1, after.addr);
    return {};
}

// ops unmap, free: amdgpu_vm_bo_unmap, or GEM_CLOSE of the last handle
// (amdgpu_gem_object_close -> amdgpu_vm_bo_del): the range's PTEs are invalid
// before the next job, which faults there (GPUVM_FAULT, from 6.7) and never
// reads the BO's bytes.
std::string vm_unmap_or_free(KernelFile &f, VmOps &vm, const std::string &op, bool vram,
                             uint64_t bytes) {
    const uint32_t bo = vm.pattern_bo(vram, bytes, 6);
    vm.prepare_read(bytes);
    const uint64_t va = vm.reserve(bytes, 64 * 1024);
    gem_va(f, bo, AMDGPU_VA_OP_MAP, va, 0, bytes, "GEM_VA(MAP)");
    if (std::string m = compare(vm.read(va, bytes, {bo}), 6, 0, "while mapped"); !m.empty())
        return m;
    const VmFault before = last_fault(*f.file);
    std::vector<uint32_t> bos;
    if (op == "unmap") {
        gem_va(f, bo, AMDGPU_VA_OP_UNMAP, va, 0, bytes, "GEM_VA(UNMAP)");
        bos.push_back(bo);
    } else {
        require(f.file->gem_close(bo), "GEM_CLOSE");
    }
    auto got = vm.read_prepared(va, bos);
    size_t same = 0;
    for (size_t i = 0; i < got.size(); ++i)
        same += got[i] == pattern_byte(6, i);
    if (same == got.size())
        return fmt::format("after {} the next job still read the BO's {} bytes through its "
                           "former VA (PTEs left valid)",
                           op == "free" ? "GEM_CLOSE" : "UNMAP", bytes);
    return fault_after(before, last_fault(*f.file), op, va, bytes);
}

} // namespace

std::string Interpreter::kernel_vm(const Step &s) {
    KernelSteps k(kernel_state());
    const int dev = int(num(s, "device", 0));
    KernelFile &f = k.file(dev);
    VmOps vm(k, f);
    const std::string op = word(s, "op", "offset");
    const bool vram = word(s, "domain", "gtt") == "vram";
    const uint64_t bytes = uint64_t(num(s, "bytes", 64 * 1024));
    if (bytes == 0 || bytes % kPage) return fmt::format("bytes {} is not a multiple of 4Ki", bytes);
    if (op == "offset") {
        // peer: whose BO is mapped; the VM's own device is the same as none.
        const int peer = int(num(s, "peer", dev));
        return vm_offset(k, f, vm, peer == dev ? -1 : peer, vram, bytes,
                         uint64_t(num(s, "offset", 4096)));
    }
    if (op == "replace" || op == "unmap_map" || op == "clear_map")
        return vm_change(f, vm, op, vram, bytes);
    if (op == "neighbour_map") return vm_neighbour_map(f, vm, vram, bytes);
    if (op == "fresh_vm_after_fault") {
        expected_kernel_events_ |= kExpectVmFault;
        return vm_fresh_after_fault(k, dev, vram, bytes);
    }
    if (op == "unmap" || op == "free") {
        expected_kernel_events_ |= kExpectVmFault;
        return vm_unmap_or_free(f, vm, op, vram, bytes);
    }
    return "unknown kernel_vm op " + op;
}

} // namespace harness::runner::detail
