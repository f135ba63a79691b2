#include "runner/plan.hpp"

#include "cases/loader.hpp"
#include "runner/topology_probe.hpp"

#include <iostream>

namespace harness::runner {

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
            std::cerr << "peer-harness: cannot read the machine's topology: " << *e << "\n";
            return std::nullopt;
        }
        p.topology = std::get<cases::Topology>(t);
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
