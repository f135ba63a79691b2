// HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES under the simulator: CTest sets
// them and PEER_EXPECT_DEVICE_IDS lists the PCI device ids the visible
// devices must have, in HIP order (taken from the machine file).
#include "sim_support.hpp"

#include <cstdlib>
#include <sstream>

using namespace simtest;

TEST_CASE("visible devices: count, order and access follow the environment", "[visible]") {
    const char *ids = std::getenv("PEER_EXPECT_DEVICE_IDS");
    REQUIRE(ids != nullptr);
    std::vector<uint32_t> want;
    std::stringstream ss(ids);
    for (std::string tok; std::getline(ss, tok, ',');)
        want.push_back(uint32_t(std::stoul(tok, nullptr, 16)));
    const int n = device_count();
    REQUIRE(n == int(want.size()));
    for (int d = 0; d < n; ++d) {
        peerDeviceInfo info{};
        REQUIRE(peerGetDeviceInfo(d, &info) == hipSuccess);
        CAPTURE(d);
        CHECK(info.pci_device_id == want[size_t(d)]);
    }
    // Peer answers are about the renumbered devices.
    auto m = expected_access();
    REQUIRE(int(m.size()) == n);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            int can = -1;
            REQUIRE(hipDeviceCanAccessPeer(&can, a, b) == hipSuccess);
            CHECK(can == (a == b ? 0 : m[size_t(a)][size_t(b)]));
        }
    // A copy between the renumbered devices lands.
    if (n >= 2) {
        DeviceBuffer src(n - 1, 5000, 77), dst(0, 5000, 0);
        REQUIRE(hipMemcpyPeer(dst.ptr, 0, src.ptr, n - 1, 5000) == hipSuccess);
        CHECK(first_diff(dst.read(0, 5000), pattern(5000, 77)) == -1);
    }
}
