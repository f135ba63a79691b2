#include "cases/expand.hpp"
#include "cases/loader.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace harness::cases;

namespace {

// Four devices: 0<->1 XGMI; 2 has a large BAR so 0 and 1 reach it over PCIe
// (2 cannot reach them back: asymmetric); 3 is reachable by nobody.
Topology machine() {
    Topology t = Topology::make(4);
    t.set(0, 1, LinkType::xgmi, true);
    t.set(1, 0, LinkType::xgmi, true);
    t.set(0, 2, LinkType::pcie, true);
    t.set(1, 2, LinkType::pcie, true);
    return t;
}

std::vector<Suite> load(const std::string &text) {
    LoadResult r = load_string(text, "t.yaml");
    for (const auto &e : r.errors)
        INFO(e.to_string());
    REQUIRE(r.ok());
    return std::move(r.suites);
}

} // namespace

TEST_CASE("selectors pick pairs from the topology", "[expand]") {
    Topology t = machine();
    CHECK(select(t, "all_pairs")->size() == 16);
    CHECK(select(t, "distinct_pairs")->size() == 12);
    CHECK(select(t, "peer_capable")->size() == 4);
    CHECK(select(t, "incapable")->size() == 8);
    CHECK(select(t, "xgmi")->size() == 2);
    CHECK(select(t, "pcie_p2p")->size() == 2);
    CHECK(select(t, "asymmetric")->size() == 2);
    CHECK(select(t, "peer_capable_with_third")->size() == 8);
    CHECK_FALSE(select(t, "nonsense").has_value());
}

TEST_CASE("instances have stable names, tags and bound variables", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: c
    matrix: { pair: xgmi, size: [4Ki, 4Mi+1] }
    steps:
      - alloc: { device: $b, bytes: $size, as: buf }
)");
    auto ex = expand(suites, machine(), {Depth::full, 1});
    REQUIRE(ex.errors.empty());
    std::set<std::string> names;
    for (const auto &in : ex.instances)
        names.insert(in.name);
    CHECK(names == std::set<std::string>{"s/c/pair=0>1/size=4Ki", "s/c/pair=0>1/size=4Mi+1",
                                         "s/c/pair=1>0/size=4Ki", "s/c/pair=1>0/size=4Mi+1"});
    const Instance &in = ex.instances.front();
    CHECK(in.numbers.at("a") == 0);
    CHECK(in.numbers.at("b") == 1);
    CHECK(in.numbers.at("size") == 4096);
    CHECK(std::count(in.tags.begin(), in.tags.end(), "xgmi") == 1);
    CHECK(in.skip_reason.empty());
}

TEST_CASE("a selector the machine cannot satisfy is a skipped instance with a reason", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: c
    matrix: { pair: xgmi }
    steps:
      - set_device: $a
)");
    Topology lone = Topology::make(1);
    auto ex = expand(suites, lone, {});
    REQUIRE(ex.instances.size() == 1);
    CHECK(ex.instances[0].name == "s/c/pair=none");
    CHECK(ex.instances[0].skip_reason.find("xgmi") != std::string::npos);
}

TEST_CASE("peer_mode is constrained by the pair; unusable modes are reported", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: copy
    matrix: { pair: all_pairs, peer_mode: [enabled, disabled, reverse_only], off: [0, 1, 3] }
    steps:
      - set_device: $a
)");
    Topology t = machine();
    for (Depth d : {Depth::quick, Depth::full}) {
        auto ex = expand(suites, t, {d, 5});
        REQUIRE(ex.errors.empty());
        std::set<std::pair<std::string, std::string>> pair_mode, pair_off, mode_off;
        for (const auto &in : ex.instances) {
            REQUIRE(in.skip_reason.empty());
            int a = static_cast<int>(in.numbers.at("a")), b = static_cast<int>(in.numbers.at("b"));
            const std::string &mode = in.words.at("peer_mode");
            if (mode == "enabled") CHECK(t.can_access(b, a));
            if (mode == "reverse_only") CHECK(t.can_access(a, b));
            pair_mode.insert({in.params[0].second, mode});
            pair_off.insert({in.params[0].second, in.params[2].second});
            mode_off.insert({mode, in.params[2].second});
        }
        // Every pair with every offset, every mode with every offset, and
        // every feasible pair/mode combination: 16 disabled + 4 + 4.
        CHECK(pair_off.size() == 16 * 3);
        CHECK(mode_off.size() == 3 * 3);
        CHECK(pair_mode.size() == 24);
        if (d == Depth::full) CHECK(ex.instances.size() == 24 * 3);
        if (d == Depth::quick) CHECK(ex.instances.size() < 24 * 3);
    }
    // On a machine where nobody can enable, the two modes are skipped by name.
    auto ex = expand(suites, Topology::make(2), {});
    std::vector<std::string> skipped;
    for (const auto &in : ex.instances)
        if (!in.skip_reason.empty()) skipped.push_back(in.name);
    CHECK(skipped ==
          std::vector<std::string>{"s/copy/peer_mode=enabled", "s/copy/peer_mode=reverse_only"});
}

TEST_CASE("quick depth is deterministic and the seed changes it", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: c
    matrix: { pair: all_pairs, size: [1, 2, 3, 4Ki], off: [0, 1, 3], m: [x, y] }
    steps:
      - set_device: $a
)");
    auto names = [&](uint64_t seed) {
        std::vector<std::string> out;
        for (const auto &in : expand(suites, machine(), {Depth::quick, seed}).instances)
            out.push_back(in.name);
        return out;
    };
    CHECK(names(1) == names(1));
    CHECK(names(1) != names(2));
}

TEST_CASE("an expression that does not evaluate is reported with its location", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: c
    matrix: { size: [4Ki, 8Ki] }
    steps:
      - alloc: { device: 0, bytes: 1Mi/($size-4Ki), as: buf }
)");
    auto ex = expand(suites, machine(), {});
    REQUIRE(ex.errors.size() == 1);
    CHECK(ex.errors[0].at.line == 6);
    CHECK(ex.errors[0].at.column == 36);
    CHECK(ex.errors[0].message.find("division by zero") != std::string::npos);
    CHECK(ex.errors[0].message.find("s/c/size=4Ki") != std::string::npos);
}

TEST_CASE("a buffer used where its alloc is excluded by when is an error", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: c
    matrix: { m: [x, y] }
    steps:
      - alloc: { device: 0, bytes: 1, as: buf }
        when: { m: x }
      - verify: buf
)");
    auto ex = expand(suites, machine(), {});
    REQUIRE(ex.errors.size() == 1);
    CHECK(ex.errors[0].at.line == 8);
}

TEST_CASE("negative allocation sizes are rejected", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: c
    steps:
      - alloc: { device: 0, bytes: 1-2, as: buf }
)");
    auto ex = expand(suites, machine(), {});
    REQUIRE(ex.errors.size() == 1);
    CHECK(ex.errors[0].message.find("expected a size >= 0") != std::string::npos);
}

TEST_CASE("machine axis: a case for machines with or without devices", "[expand]") {
    auto suites = load(R"(suite: s
cases:
  - name: none
    matrix: { machine: no_devices }
    steps:
      - get_device_count: { expect_value: 0 }
        expect: hipErrorNoDevice
  - name: some
    matrix: { machine: has_devices }
    steps:
      - get_device_count: { expect_value: topology }
)");
    auto empty = expand(suites, Topology::make(0), {});
    REQUIRE(empty.instances.size() == 2);
    CHECK(empty.instances[0].name == "s/none/machine=no_devices");
    CHECK(empty.instances[0].skip_reason.empty());
    CHECK(empty.instances[1].name == "s/some/machine=has_devices");
    CHECK(empty.instances[1].skip_reason.find("at least one device") != std::string::npos);
    auto two = expand(suites, machine(), {});
    CHECK_FALSE(two.instances[0].skip_reason.empty());
    CHECK(two.instances[1].skip_reason.empty());
}
