// What the default suite's quick depth must draw on every machine, however
// many GPUs: the covering array samples pairs, sizes and offsets, and a
// combination a kernel bug needs (a copy at the 4 MiB packet boundary with an
// address that is not 32-byte aligned, R01/R02) must not depend on the luck of
// the draw on a machine with many pairs.
#include "cases/expand.hpp"
#include "cases/loader.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <tuple>

using namespace harness::cases;

namespace {

// mixed-4's shape: one XGMI pair, a large-BAR PCIe peer, a GPU nobody reaches.
Topology mixed4() {
    Topology t = Topology::make(4);
    t.set(0, 1, LinkType::xgmi, true);
    t.set(1, 0, LinkType::xgmi, true);
    for (int a : {0, 1, 3}) {
        t.set(a, 2, LinkType::pcie, true);
        if (a != 3) t.set(2, a, LinkType::pcie, true);
    }
    t.set(0, 3, LinkType::pcie, false);
    t.set(1, 3, LinkType::pcie, false);
    t.set(2, 3, LinkType::pcie, false);
    return t;
}

// (size, path) of every peer copy of suite memcpy-peer at a near-4 MiB size
// whose source or destination offset is not 32-byte aligned and that runs.
std::set<std::tuple<int64_t, std::string>> misaligned_near_max(const Topology &t) {
    LoadResult r = load_paths({DEFAULT_SUITE "/memcpy-peer.yaml"});
    for (const auto &e : r.errors)
        INFO(e.to_string());
    REQUIRE(r.ok());
    Expansion x = expand(r.suites, t, {Depth::quick, 1});
    REQUIRE(x.errors.empty());
    std::set<std::tuple<int64_t, std::string>> seen;
    for (const Instance &in : x.instances) {
        if (!in.skip_reason.empty()) continue;
        auto n = [&](const char *k) { return in.numbers.count(k) ? in.numbers.at(k) : -1; };
        const int64_t size = n("size"), so = n("src_offset"), d = n("dst_offset");
        if (n("a") == n("b") || size < (4 << 20) - 1 || size > (4 << 20) + 1) continue;
        if (so < 0 || d < 0 || (so % 32 == 0 && d % 32 == 0)) continue;
        auto p = in.words.find("path");
        seen.emplace(size, p == in.words.end() ? "" : p->second);
    }
    return seen;
}

void require_every_combination(const Topology &t) {
    const auto seen = misaligned_near_max(t);
    for (int64_t size : {(4 << 20) - 1, 4 << 20, (4 << 20) + 1})
        for (const char *path : {"drm", "kfd"}) {
            INFO("size " << size << ", path " << path);
            CHECK(seen.count({size, path}) == 1);
        }
}

} // namespace

TEST_CASE("quick depth draws a misaligned near-4 MiB peer copy per size and path on mi300x-8",
          "[suite-coverage]") {
    require_every_combination(Topology::xgmi_hive(8));
}

TEST_CASE("quick depth draws a misaligned near-4 MiB peer copy on every GPU count",
          "[suite-coverage]") {
    for (int n = 2; n <= 8; ++n) {
        INFO(n << " GPUs in one hive");
        require_every_combination(Topology::xgmi_hive(n));
    }
    INFO("mixed-4's shape");
    require_every_combination(mixed4());
}
