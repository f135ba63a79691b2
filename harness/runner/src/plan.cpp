#include "runner/plan.hpp"

#include "cases/loader.hpp"
#include "manifest/manifest.hpp"
#include "manifest/rules.hpp"
#include "runner/topology_probe.hpp"

#include <fmt/format.h>

#include <iostream>

namespace harness::runner {

namespace {

// What the kernel's KFD nodes must show whatever the manifest's peer rules
// say (regression K13, malformed topology): every GPU has an io_link to a CPU
// node (kfd_crat.c, kfd_fill_gpu_direct_io_link_to_cpu; ROCr finds a GPU's
// NUMA node through it), and num_sdma_xgmi_engines is what the manifest
// states (ROCr picks XGMI copy engines by it). "" when all holds.
std::string node_mismatch(const cases::Topology &want, const cases::Topology &kfd) {
    for (int d = 0; d < kfd.device_count; ++d) {
        const size_t i = static_cast<size_t>(d);
        if (!kfd.cpu_link[i])
            return fmt::format("the kernel's KFD node of device {} has no io_link to a CPU node "
                               "(kfd_crat.c gives every GPU one)",
                               d);
        if (want.sdma_xgmi_engines[i] >= 0 && kfd.sdma_xgmi_engines[i] >= 0 &&
            want.sdma_xgmi_engines[i] != kfd.sdma_xgmi_engines[i])
            return fmt::format("device {} reports num_sdma_xgmi_engines {}, the manifest says {}",
                               d, kfd.sdma_xgmi_engines[i], want.sdma_xgmi_engines[i]);
    }
    return "";
}

} // namespace

namespace {

constexpr const char *kDisruptiveReason =
    "disruptive (provokes VM faults, hangs or resets): on real hardware it runs only with "
    "--allow-disruptive";

} // namespace

void print_diagnostics(const cases::Diagnostics &d) {
    for (const auto &e : d)
        std::cerr << e.to_string() << "\n";
}

std::optional<Plan> make_plan(const RunSettings &s, const cases::Topology *saved) {
    Plan p;
    cases::LoadResult loaded = cases::load_paths(s.case_paths);
    if (!loaded.ok()) {
        print_diagnostics(loaded.errors);
        std::cerr << loaded.errors.size() << " error(s) in case files; nothing was run\n";
        return std::nullopt;
    }
    p.suites = std::move(loaded.suites);
    if (saved) {
        p.topology = *saved;
    } else {
        auto t = probe_topology(30);
        if (auto *e = std::get_if<std::string>(&t)) {
            // With a manifest promising the machine, an unreadable topology is
            // the kernel's failure (malformed KFD sysfs, regression K13): a
            // failed run (exit 1) a bisection marks bad. Without one nothing
            // says what should be there: the run cannot start (exit 2).
            if (!s.manifest.empty()) {
                p.manifest_mismatch = "the kernel's KFD topology cannot be read (" + *e + ")";
                return p;
            }
            std::cerr << "peer-harness: cannot read the machine's topology: " << *e << "\n";
            return std::nullopt;
        }
        p.topology = std::get<cases::Topology>(t);
        if (!s.devices.empty()) { // what a runtime listing only those GPUs sees
            auto kept = cases::subset(p.topology, s.devices);
            if (!kept) {
                std::cerr << "peer-harness: --devices names a GPU the kernel does not show ("
                          << p.topology.device_count << " GPU(s))\n";
                return std::nullopt;
            }
            p.topology = std::move(*kept);
        }
        if (!s.manifest.empty()) {
            // Expectations from the manifest, never from the kernel under test;
            // the probe only counts what the kernel shows.
            auto m = manifest::load_manifest(s.manifest);
            if (auto *d = std::get_if<cases::Diagnostic>(&m)) {
                std::cerr << d->to_string() << "\n";
                return std::nullopt;
            }
            const cases::Topology kfd = p.topology;
            p.topology = manifest::expected_topology(std::get<manifest::Manifest>(m));
            if (!s.devices.empty()) {
                auto kept = cases::subset(p.topology, s.devices);
                if (!kept) {
                    std::cerr << "peer-harness: --devices names a GPU the manifest " << s.manifest
                              << " does not list\n";
                    return std::nullopt;
                }
                p.topology = std::move(*kept);
            }
            if (kfd.device_count != p.topology.device_count)
                p.manifest_mismatch =
                    fmt::format("the manifest {} lists {} GPU(s), the kernel shows {} ({})",
                                s.manifest, p.topology.device_count, kfd.device_count, kfd.source);
            else
                p.manifest_mismatch = node_mismatch(p.topology, kfd);
        } else if (p.topology.device_count == 0) {
            p.no_device = "no GPU found (" + p.topology.source +
                          ") and no manifest (--expect FILE) says this machine has none";
        }
    }
    cases::Expansion ex = cases::expand(p.suites, p.topology, {s.depth, s.seed});
    if (!ex.errors.empty()) {
        print_diagnostics(ex.errors);
        std::cerr << ex.errors.size() << " error(s) expanding case files; nothing was run\n";
        return std::nullopt;
    }
    p.instances = std::move(ex.instances);
    // A developer's desktop GPU is never faulted or reset by surprise.
    if (!s.on_simulator && !s.allow_disruptive) {
        for (auto &in : p.instances) {
            if (in.disruptive && in.skip_reason.empty()) {
                in.skip_reason = kDisruptiveReason;
                in.tags.push_back("skipped");
            }
        }
    }
    return p;
}

} // namespace harness::runner
