#include "manifest/rules.hpp"

namespace harness::manifest {

namespace {

bool p2p_listed(const Manifest &m, int a, int b) {
    for (const auto &[x, y] : m.pcie_p2p)
        if ((x == a && y == b) || (x == b && y == a)) return true;
    return false;
}

// The owner's BAR [bar, bar + visible) inside the accessor's DMA mask. An
// absent dma_mask_bits means the schema's default, 48 bits; an absent BAR
// address means reachable (the manifest cannot say otherwise).
bool bar_reachable(const Gpu &owner, const Gpu &accessor) {
    if (owner.bar_address == 0) return true;
    const int bits = accessor.dma_mask_bits > 0 ? accessor.dma_mask_bits : 48;
    if (bits >= 64) return true;
    const uint64_t limit = (1ull << bits) - 1;
    const uint64_t last = owner.bar_address + owner.visible_vram_bytes - 1;
    return owner.bar_address <= limit && last <= limit;
}

} // namespace

bool same_hive(const Manifest &m, int a, int b) {
    const uint64_t h = m.hive_of[static_cast<size_t>(a)];
    return a != b && h != 0 && h == m.hive_of[static_cast<size_t>(b)];
}

bool pcie_peer_accessible(const Manifest &m, int owner, int accessor, std::string *why) {
    auto no = [&](std::string w) {
        if (why) *why = std::move(w);
        return false;
    };
    const Gpu &o = m.gpus[static_cast<size_t>(owner)];
    const Gpu &a = m.gpus[static_cast<size_t>(accessor)];
    // CONFIG_HSA_AMD_P2P depends on CONFIG_PCI_P2PDMA and CONFIG_DMABUF_MOVE_NOTIFY.
    if (!(m.kernel.hsa_amd_p2p && m.kernel.pci_p2pdma && m.kernel.dmabuf_move_notify))
        return no("the kernel lacks CONFIG_HSA_AMD_P2P (or what it depends on)");
    if (!m.kernel.param_pcie_p2p) return no("amdgpu.pcie_p2p=0");
    if (!p2p_listed(m, owner, accessor)) return no("the chipset allows no PCIe P2P between them");
    if (!o.large_bar()) return no(o.name + " has a small BAR");
    // A remapping IOMMU in front of the accessor lifts the mask (from the
    // release fixtures/machines/kernel/releases.yaml names).
    const auto [im, in] = m.kernel.iommu_remap_lifts_dma_mask_from;
    const bool remapped = m.kernel.at_least(im, in) && a.iommu_remapping;
    if (!remapped && !bar_reachable(o, a))
        return no(o.name + "'s BAR lies outside " + a.name + "'s DMA mask");
    return true;
}

bool register_bar_peer_accessible(const Manifest &m, int owner, int mapper) {
    const auto [bm, bn] = m.kernel.all_bars_peer_check_from;
    if (!m.kernel.at_least(bm, bn)) return pcie_peer_accessible(m, owner, mapper);
    return m.kernel.hsa_amd_p2p && m.kernel.pci_p2pdma && m.kernel.dmabuf_move_notify &&
           m.kernel.param_pcie_p2p && p2p_listed(m, owner, mapper);
}

cases::Topology expected_topology(const Manifest &m) {
    const int n = static_cast<int>(m.gpus.size());
    cases::Topology t = cases::Topology::make(n);
    t.source = "machine manifest " + m.file;
    for (int g = 0; g < n; ++g) {
        t.small_bar[static_cast<size_t>(g)] = !m.gpus[static_cast<size_t>(g)].large_bar();
        t.sdma_xgmi_engines[static_cast<size_t>(g)] =
            m.gpus[static_cast<size_t>(g)].sdma_xgmi_engines;
    }
    t.import_vram.assign(static_cast<size_t>(n * n), false);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b)
                t.import_vram[static_cast<size_t>(a * n + b)] =
                    expected_import_placement(m, a, b) == Placement::vram;
    t.register_bar.assign(static_cast<size_t>(n * n), false);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (a != b)
                t.register_bar[static_cast<size_t>(a * n + b)] =
                    register_bar_peer_accessible(m, b, a);
    for (int a = 0; a < n; ++a) {
        t.names[static_cast<size_t>(a)] = m.gpus[static_cast<size_t>(a)].product + " (" +
                                          m.gpus[static_cast<size_t>(a)].name + ")";
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            if (same_hive(m, a, b))
                t.set(a, b, cases::LinkType::xgmi, true);
            else
                t.set(a, b, cases::LinkType::pcie, pcie_peer_accessible(m, b, a));
        }
    }
    return t;
}

const char *placement_name(Placement p) {
    return p == Placement::vram ? "VRAM" : "GTT";
}

Placement expected_import_placement(const Manifest &m, int exporter, int importer) {
    if (exporter == importer) return Placement::vram;
    if (same_hive(m, exporter, importer)) return Placement::vram; // is_xgmi
    if (!m.kernel.dmabuf_move_notify) return Placement::gtt;      // pinned into GTT
    const bool p2p = m.kernel.pci_p2pdma && p2p_listed(m, exporter, importer);
    return p2p && m.gpus[static_cast<size_t>(exporter)].large_bar() ? Placement::vram
                                                                    : Placement::gtt;
}

} // namespace harness::manifest
