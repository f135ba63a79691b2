// The documented peer rules, implemented here from the manifest alone. The
// simulator's oracle (fixtures/amdgpu-sim/kfd/peer_oracle.cpp) models the same
// kernel decisions separately on purpose: two implementations of one rule
// disagree loudly when either is wrong. Sources: harness/peer/CONTRACT.md §2
// (CanAccessPeer rule 5) and the amdgpu facts on amdgpu_device_is_peer_accessible
// and amdgpu_dma_buf_attach/_map (kernel files named at each rule).
#pragma once

#include "cases/topology.hpp"
#include "manifest/manifest.hpp"

#include <string>

namespace harness::manifest {

// Whether `accessor` reaches `owner`'s VRAM over PCIe: the conditions of
// amdgpu_device_is_peer_accessible(owner, accessor) (amdgpu_device.c).
// `why` says which condition failed.
bool pcie_peer_accessible(const Manifest &m, int owner, int accessor, std::string *why = nullptr);

bool same_hive(const Manifest &m, int a, int b);

// Whether kfd_mem_attach lets `mapper` map `owner`'s doorbell or MMIO remap
// page: amdgpu_device_is_peer_accessible(owner, mapper) for a register BAR.
// Before "drm/amdgpu: amdgpu_device_is_peer_accessible to support all BARs"
// the VRAM conditions decide (pcie_peer_accessible); from it on only the PCIe
// path does (CONFIG_HSA_AMD_P2P, amdgpu.pcie_p2p, the chipset's P2P), so a
// small-BAR owner's registers become reachable. UNVERIFIED: 7.2 as the first
// release with that change. The XGMI hive plays no part (VRAM only).
bool register_bar_peer_accessible(const Manifest &m, int owner, int mapper);

// Expected topology: a -> b XGMI when in one hive (direct both ways), else
// PCIe, direct exactly when pcie_peer_accessible(b, a).
cases::Topology expected_topology(const Manifest &m);

enum class Placement { vram, gtt };
const char *placement_name(Placement p);

// Where a VRAM buffer of `exporter` must live once `importer` imported it
// through dma-buf (amdgpu_dma_buf.c): same hive -> VRAM (XGMI); no
// CONFIG_DMABUF_MOVE_NOTIFY -> pinned in GTT; P2P allowed (CONFIG_PCI_P2PDMA,
// listed pcie_p2p pair) and the exporter has a large BAR -> VRAM; else GTT.
// Large BAR stands for "fits the CPU-visible VRAM", which holds for the
// harness's allocations when every byte of VRAM is visible.
Placement expected_import_placement(const Manifest &m, int exporter, int importer);

} // namespace harness::manifest
