// What expansion needs to know about a machine: how many devices, and for each
// ordered pair the link type and whether the first device can directly access
// the second's memory. The runner fills it from the KFD topology (libhsakmt),
// independently of the peer API under test, so `expect_value: topology` is a
// real oracle; tests fill it by hand.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace harness::cases {

enum class LinkType { none, self, xgmi, pcie };
const char *link_type_name(LinkType t);

struct Topology {
    int device_count = 0;
    // [from * device_count + to]
    std::vector<LinkType> link;
    std::vector<bool> direct;       // from can directly access to's VRAM
    std::vector<std::string> names; // per device, e.g. "gfx90a 0000:03:00.0"
    // Per device: part of its VRAM lies outside the CPU-visible BAR (the
    // manifest's visible_vram, or a FRAME_BUFFER_PRIVATE bank in KFD).
    std::vector<bool> small_bar;
    // Per device, what the source says of the KFD node (the kernel's
    // topology) or must be there (a manifest): an io_link to a CPU node, and
    // num_sdma_xgmi_engines (-1: not stated). Compared by the runner when a
    // manifest is given (harness/runner/src/plan.cpp).
    std::vector<bool> cpu_link;
    std::vector<int> sdma_xgmi_engines;
    // [from * device_count + to]: `from` may map `to`'s register BARs (its
    // doorbell or MMIO remap page) through KFD, which kfd_mem_attach judges by
    // amdgpu_device_is_peer_accessible for all BARs. Only a machine manifest
    // says (harness/manifest/rules.hpp); empty when the topology came from KFD,
    // which publishes no such fact.
    std::vector<bool> register_bar;
    // [exporter * device_count + importer]: a dma-buf of the exporter's VRAM
    // imported by the importer stays in VRAM (amdgpu_dma_buf_attach: the same
    // XGMI hive, or PCIe P2P to a large BAR; harness/manifest/rules.hpp
    // expected_import_placement). Only a manifest says; empty from KFD.
    std::vector<bool> import_vram;
    std::string source; // where the facts came from, for reports

    static Topology make(int n); // n devices, no links
    // n devices in one XGMI hive, every ordered pair direct (mi300x-8's shape
    // for n = 8): what tests and benchmarks size the suite's expansion with.
    static Topology xgmi_hive(int n);
    LinkType link_type(int a, int b) const {
        return link[static_cast<size_t>(a * device_count + b)];
    }
    bool can_access(int a, int b) const {
        return a != b && direct[static_cast<size_t>(a * device_count + b)];
    }
    void set(int a, int b, LinkType t, bool can);
    bool knows_register_bar() const { return !register_bar.empty(); }
    bool import_stays_in_vram(int exporter, int importer) const {
        return exporter != importer && !import_vram.empty() &&
               import_vram[static_cast<size_t>(exporter * device_count + importer)];
    }
    bool can_map_registers(int a, int b) const {
        return a != b && knows_register_bar() &&
               register_bar[static_cast<size_t>(a * device_count + b)];
    }

    bool operator==(const Topology &) const = default;
};

// The devices `keep` of `t` (indexes into t, in the order given), numbered
// from 0 in that order: what a process sees of the machine when its HIP
// runtime lists only those GPUs. nullopt when an index is out of range or
// repeated.
std::optional<Topology> subset(const Topology &t, const std::vector<int> &keep);

// Device tuples a selector yields, in a stable order (a, then b, then c).
struct DeviceTuple {
    int a = -1, b = -1, c = -1;
};

// nullopt: unknown selector. An empty vector: the machine has no such tuple
// (expansion turns that into a skipped instance with the reason).
std::optional<std::vector<DeviceTuple>> select(const Topology &t, const std::string &selector);
// One line saying what the selector means, for skip reasons.
std::string describe_selector(const std::string &selector);

} // namespace harness::cases
