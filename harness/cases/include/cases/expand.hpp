// Case model x machine topology -> case instances, the unit the runner runs.
//
// Each case's matrix is expanded over the machine: selector axes become the
// device tuples the topology offers, peer_mode is constrained by the pair
// (enabled needs b -> a access, reverse_only a -> b), value axes are taken as
// written. Depth quick = pairwise covering array, full = cross product.
// Whatever the machine cannot host becomes an instance with a skip reason,
// never a silent gap. Every expression of every instance is evaluated here, so
// one that does not evaluate is a load-time error with its location.
#pragma once

#include "cases/location.hpp"
#include "cases/model.hpp"
#include "cases/topology.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace harness::cases {

enum class Depth { quick, full };
const char *depth_name(Depth d);

struct ExpandOptions {
    Depth depth = Depth::quick;
    uint64_t seed = 1;
};

struct Instance {
    const Suite *suite = nullptr;
    const Case *kase = nullptr;
    std::string name; // suite/case/axis=value/... : stable across runs
    std::vector<std::string> tags;
    std::vector<std::pair<std::string, std::string>> params; // axis -> value text, file order
    std::map<std::string, int64_t> numbers;                  // $a, $b, $c, numeric axes, ...
    std::map<std::string, std::string> words;                // word axes (peer_mode, ...)
    std::string skip_reason; // non-empty: the machine cannot host this instance
    bool disruptive = false;

    // Does step `s` run in this instance (its `when` clauses all match)?
    bool runs(const Step &s) const;
    // A lookup over this instance's numbers, plus buffer sizes in `extra`.
    std::optional<int64_t> lookup(const std::string &var,
                                  const std::map<std::string, int64_t> &extra = {}) const;
};

struct Expansion {
    std::vector<Instance> instances;
    Diagnostics errors;
};

Expansion expand(const std::vector<Suite> &suites, const Topology &topology,
                 const ExpandOptions &options);

} // namespace harness::cases
