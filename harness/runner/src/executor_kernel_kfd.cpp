// kernel_kfd: kfd_mem_attach's decision for another GPU's VRAM, asked the way
// ROCm's runtime asks it (libhsakmt: hsaKmtAllocMemory on the owner's node,
// hsaKmtMapMemoryToGPUNodes onto the owner's and the peer's nodes), checked
// against what the case's pair selector says from the machine manifest:
// `map` pairs must map and the peer's own SDMA user queue must read the
// owner's bytes; `refuse` pairs must fail with EINVAL while the owner keeps
// its mapping. The peer API never asks the kernel to map a pair without a
// peer link, so a kernel that maps where it must refuse (or reports a
// partial map as complete) is visible only here.
#include "executor_impl.hpp"
#include "executor_kernel.hpp"
#include "self_process.hpp"

#include "kfd/kfd.hpp"
#include "kfd/register_probe.hpp"
#include "runner/run.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace harness::runner::detail {

namespace {

constexpr uint64_t kKfdPage = 4096;
constexpr uint8_t kKfdPoison = 0x5a;

uint8_t pattern_byte(uint64_t i) {
    return uint8_t((i * 131 + (i >> 9) + 17) | 1); // odd: never the poison
}

struct KfdGpu {
    uint32_t node = 0;
    sdma::Generation gen = sdma::Generation::v4;
    std::unique_ptr<kfd::SdmaQueue> queue;
};

// The node and SDMA generation only: queues need the session open first.
KfdGpu find_gpu(KernelSteps &k, int device) {
    KfdGpu g;
    g.node = k.kfd_node(device);
    g.gen = generation(*k.file(device).file);
    return g;
}

void create_queue(KfdGpu &g, int device) {
    require(kfd::SdmaQueue::create(g.node, g.gen, g.queue),
            fmt::format("hsaKmtCreateQueue(SDMA) on device {}", device));
}

kmd::Status copy(KfdGpu &g, uint64_t src, uint64_t dst, uint64_t n) {
    std::vector<uint32_t> dw;
    if (sdma::copy_linear_split(dw, g.queue->generation(), src, dst, n) != sdma::Error::none)
        return kmd::Status::fail(EINVAL, "sdma::copy_linear_split");
    return g.queue->run(dw, g.queue->default_timeout_ns());
}

// The first byte of `got` that is not the pattern, as a step failure.
std::string compare(const uint8_t *got, uint64_t n, const std::string &through) {
    for (uint64_t i = 0; i < n; ++i)
        if (got[i] != pattern_byte(i))
            return fmt::format("{}: byte {} is {:#04x}, expected {:#04x}{}", through, i, got[i],
                               pattern_byte(i), got[i] == kKfdPoison ? " (nothing written)" : "");
    return "";
}

// `peer-harness kfd-map-probe OWNER MAPPER` (kfd/register_probe.hpp) in a
// process of its own: its one output line, "mapped" or "<errno> <call>".
std::string run_mmio_probe(int owner_minor, int mapper_minor) {
    const SelfRunResult r =
        run_self({"kfd-map-probe", std::to_string(owner_minor), std::to_string(mapper_minor)});
    if (!r.started) throw StepError{r.error};
    if (r.exit_code != 0)
        throw StepError{fmt::format("kfd-map-probe ended with status {}: {}", r.exit_code, r.out)};
    std::string text = r.out;
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text;
}

// kind: mmio. The decision only (a register page has no bytes to compare).
std::string mmio_peer_map(KernelSteps &k, int owner, int mapper, const std::string &must) {
    const std::string got = run_mmio_probe(k.render_minor(owner), k.render_minor(mapper));
    const bool mapped = got == "mapped";
    if (must == "map" && !mapped)
        return fmt::format("mapping device {}'s MMIO remap page onto device {} failed ({}); the "
                           "manifest says kfd_mem_attach allows it",
                           owner, mapper, got);
    if (must == "refuse" && mapped)
        return fmt::format("device {} mapped device {}'s MMIO remap page; the manifest says "
                           "kfd_mem_attach must refuse it (EINVAL)",
                           mapper, owner);
    if (must == "refuse" && got.rfind(std::to_string(EINVAL) + " AMDKFD_IOC_MAP", 0) != 0)
        return fmt::format("mapping device {}'s MMIO remap page onto device {}: {}, expected "
                           "EINVAL from MAP_MEMORY_TO_GPU",
                           owner, mapper, got);
    return "";
}

} // namespace

std::string Interpreter::kernel_kfd(const Step &s) {
    KernelSteps k(kernel_state());
    const int owner = int(num(s, "device", 0));
    const int mapper = int(num(s, "peer", 0));
    const uint64_t bytes = uint64_t(num(s, "bytes", 64 * 1024));
    const std::string must = word(s, "must", "map");
    const std::string kind = word(s, "kind", "vram");
    if (owner == mapper) return "kernel_kfd: device and peer must be two devices";
    if (must != "map" && must != "refuse") return "unknown kernel_kfd must " + must;
    if (kind == "mmio") return mmio_peer_map(k, owner, mapper, must);
    if (kind != "vram") return "unknown kernel_kfd kind " + kind;
    if (bytes == 0 || bytes % kKfdPage)
        return fmt::format("bytes {} is not a multiple of 4Ki", bytes);

    // The topology is read before the session opens (harness/kfd/README.md),
    // but the session is declared first: the queues and memory below are
    // released while it is still open, never after hsaKmtCloseKFD.
    std::unique_ptr<kfd::Session> session;
    KfdGpu own = find_gpu(k, owner);
    KfdGpu peer = find_gpu(k, mapper);
    require(kfd::Session::open(session), "hsaKmtOpenKFD");
    create_queue(own, owner);
    create_queue(peer, mapper);
    const uint32_t both[] = {own.node, peer.node};
    const uint32_t only_owner[] = {own.node};

    // Host buffers (GTT: kfd_mem_attach never refuses them) on both nodes.
    std::unique_ptr<kfd::Memory> in, out, vram;
    require(kfd::Memory::alloc_host(bytes, in), "hsaKmtAllocMemory(host)");
    require(in->map_to(both), "hsaKmtMapMemoryToGPUNodes(host)");
    require(kfd::Memory::alloc_host(bytes, out), "hsaKmtAllocMemory(host)");
    require(out->map_to(both), "hsaKmtMapMemoryToGPUNodes(host)");
    for (uint64_t i = 0; i < bytes; ++i)
        in->cpu()[i] = pattern_byte(i);
    require(kfd::Memory::alloc_vram(own.node, bytes, false, vram), "hsaKmtAllocMemory(VRAM)");
    require(vram->map_to(only_owner), "hsaKmtMapMemoryToGPUNodes(VRAM, owner)");
    require(copy(own, in->va(), vram->va(), bytes), "the owner's copy into its VRAM");

    // kfd_ioctl_map_memory_to_gpu -> kfd_mem_attach for the peer's VM.
    const kmd::Status st = vram->map_to(both);
    std::memset(out->cpu(), kKfdPoison, bytes);
    if (must == "refuse") {
        if (st.ok())
            return fmt::format("device {} mapped device {}'s VRAM; the manifest says "
                               "kfd_mem_attach must refuse it (EINVAL)",
                               mapper, owner);
        if (st.err != EINVAL)
            return fmt::format("mapping device {}'s VRAM onto device {}: {}, expected EINVAL",
                               owner, mapper, st.describe());
        // The refusal leaves the owner's own mapping as it was.
        require(copy(own, vram->va(), out->va(), bytes), "the owner's read after the refusal");
        return compare(out->cpu(), bytes, "the owner's VRAM after the refused peer map");
    }
    if (!st.ok())
        return fmt::format("mapping device {}'s VRAM onto device {} failed ({}); the manifest "
                           "says the peer reaches it",
                           owner, mapper, st.describe());
    if (kmd::Status c = copy(peer, vram->va(), out->va(), bytes); !c)
        return fmt::format("device {}'s queue reading device {}'s mapped VRAM: {}", mapper, owner,
                           c.describe());
    return compare(out->cpu(), bytes,
                   fmt::format("device {} reading device {}'s VRAM", mapper, owner));
}

} // namespace harness::runner::detail

namespace harness::runner {

// The other end of run_mmio_probe above: one line, "mapped" or "<errno> <call>".
int kfd_map_probe_command(int owner_render_minor, int mapper_render_minor, std::ostream &out) {
    const kmd::Status st = kfd::probe_mmio_peer_map(owner_render_minor, mapper_render_minor);
    if (st.ok())
        out << "mapped\n";
    else
        out << st.err << " " << (st.call ? st.call : "?") << "\n";
    return 0;
}

} // namespace harness::runner
