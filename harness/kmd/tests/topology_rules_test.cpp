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
