#include "kmd/status.hpp"
#include "kmd/topology.hpp"

#include <catch2/catch.hpp>

#include <cerrno>

using kmd::visible_devices;
using V = std::vector<size_t>;

TEST_CASE("visible devices: unset lists every GPU in order", "[kmd][visible]") {
    CHECK(visible_devices(3, nullptr, nullptr) == V{0, 1, 2});
    CHECK(visible_devices(0, nullptr, nullptr).empty());
}

TEST_CASE("visible devices: HIP_VISIBLE_DEVICES selects and reorders", "[kmd][visible]") {
    CHECK(visible_devices(4, nullptr, "2,0") == V{2, 0});
    CHECK(visible_devices(4, nullptr, " 3 , 1") == V{3, 1});
}

TEST_CASE("visible devices: the first invalid entry ends the list", "[kmd][visible]") {
    CHECK(visible_devices(4, nullptr, "-1").empty());
    CHECK(visible_devices(4, nullptr, "1,7,2") == V{1});
    CHECK(visible_devices(4, nullptr, "1,1,2") == V{1});
    CHECK(visible_devices(4, nullptr, "1,x") == V{1});
    CHECK(visible_devices(4, nullptr, "").empty());
    CHECK(visible_devices(4, nullptr, "99999999999999999999").empty());
}

TEST_CASE("visible devices: HIP indexes into what ROCR left", "[kmd][visible]") {
    CHECK(visible_devices(4, "3,1,2", nullptr) == V{3, 1, 2});
    CHECK(visible_devices(4, "3,1,2", "1") == V{1});
    CHECK(visible_devices(4, "3,1,2", "2,0") == V{2, 3});
    CHECK(visible_devices(4, "3", "1").empty());
}

TEST_CASE("peer access needs weight and no Override+NoPeerToPeerDMA", "[kmd][links]") {
    using kmd::Link;
    CHECK(kmd::link_allows_peer_access(Link{1, 11, 15, 0}));
    CHECK(kmd::link_allows_peer_access(Link{1, 2, 40, 0}));
    CHECK_FALSE(kmd::link_allows_peer_access(Link{1, 2, 0, 0}));
    CHECK_FALSE(kmd::link_allows_peer_access(Link{1, 2, 40, 0x11}));
    CHECK(kmd::link_allows_peer_access(Link{1, 2, 40, 0x10})); // flag ignored without Override
    CHECK(kmd::link_allows_peer_access(Link{1, 2, 40, 0x01}));
}

// One table for the single visible-devices parser the runner's topology probe
// and the peer API share: the rows where the runner's former copy disagreed
// (spaces, duplicates, a trailing comma) included.
TEST_CASE("visible devices: table", "[kmd][visible]") {
    struct Row {
        const char *rocr, *hip;
        V want;
    };
    const Row rows[] = {
        {nullptr, nullptr, {0, 1, 2, 3}},
        {nullptr, "0", {0}},
        {nullptr, " 2", {2}},
        {nullptr, "2 ", {2}},
        {nullptr, "1, 2", {1, 2}},
        {nullptr, "2,2", {2}},
        {nullptr, "3,1,3,0", {3, 1}},
        {nullptr, "1,", {1}},
        {nullptr, ",1", {}},
        {nullptr, "+1", {}},
        {nullptr, "1 2", {}},
        {nullptr, "4", {}},
        {"", nullptr, {}},
        {"0,0", "0", {0}},
        {"2,3", "1,0", {3, 2}},
        {"1", " 0 ", {1}},
    };
    for (const auto &r : rows) {
        INFO("ROCR=" << (r.rocr ? r.rocr : "(unset)") << " HIP=" << (r.hip ? r.hip : "(unset)"));
        CHECK(visible_devices(4, r.rocr, r.hip) == r.want);
    }
}

// The single per-link rule (CanAccessPeer rule 5): weight, and the
// NoPeerToPeerDMA flag counts only together with Override.
TEST_CASE("peer access per link: table", "[kmd][links]") {
    struct Row {
        uint32_t type, weight, flags;
        bool direct;
    };
    const Row rows[] = {
        {11, 15, 0x00, true},  {11, 0, 0x00, false}, {2, 20, 0x00, true},  {2, 20, 0x01, true},
        {2, 20, 0x10, true},   {2, 20, 0x11, false}, {2, 20, 0x13, false}, {2, 20, 0x02, true},
        {11, 15, 0x11, false}, {2, 0, 0x10, false},
    };
    for (const auto &r : rows) {
        INFO("type " << r.type << " weight " << r.weight << " flags 0x" << std::hex << r.flags);
        CHECK(kmd::link_allows_peer_access(kmd::Link{1, r.type, r.weight, r.flags}) == r.direct);
    }
}

TEST_CASE("pci slot names as amdgpu prints them", "[kmd]") {
    CHECK(kmd::pci_slot_name(0, (0x0c << 8) | (0 << 3) | 0) == "0000:0c:00.0");
    CHECK(kmd::pci_slot_name(1, (0xc1 << 8) | (0x1f << 3) | 7) == "0001:c1:1f.7");
}

TEST_CASE("status keeps errno and call name", "[kmd]") {
    auto s = kmd::Status::from_ret(-ENOMEM, "AMDGPU_GEM_CREATE");
    CHECK_FALSE(s.ok());
    CHECK(s.err == ENOMEM);
    CHECK(s.describe() == "AMDGPU_GEM_CREATE: ENOMEM (12)");
    CHECK(kmd::Status::from_ret(0, "x").ok());
    CHECK(std::string(kmd::errno_name(ETIME)) == "ETIME");
}
