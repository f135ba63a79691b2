// With no GPU visible each call answers hipErrorNoDevice first, as the spec's
// row 1 says. CTest runs it with HIP_VISIBLE_DEVICES=-1 (any machine, with or
// without a KFD) and under the simulator's no-gpu machine.
#include "peer/hip_peer.h"
#include "peer/peer_debug.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

TEST_CASE("no device: every peer call returns hipErrorNoDevice", "[peer][nodevice]") {
    int n = 7;
    CHECK(hipGetDeviceCount(&n) == hipErrorNoDevice);
    CHECK(n == 0);
    int can = 5;
    CHECK(hipDeviceCanAccessPeer(&can, 0, 1) == hipErrorNoDevice);
    CHECK(hipDeviceCanAccessPeer(nullptr, 0, 1) == hipErrorNoDevice); // row 1 before row 2
    CHECK(can == 5);
    CHECK(hipDeviceEnablePeerAccess(1, 0) == hipErrorNoDevice);
    CHECK(hipDeviceEnablePeerAccess(1, 7) == hipErrorNoDevice); // before the flags check
    CHECK(hipDeviceDisablePeerAccess(1) == hipErrorNoDevice);
    CHECK(hipMemcpyPeer(nullptr, 0, nullptr, 1, 0) == hipErrorNoDevice);
    CHECK(hipSetDevice(0) == hipErrorNoDevice);
    void *p = nullptr;
    CHECK(hipMalloc(&p, 16) == hipErrorNoDevice);
    CHECK(hipDeviceReset() == hipErrorNoDevice);
    hipDeviceptr_t base = nullptr;
    size_t size = 0;
    CHECK(hipMemGetAddressRange(&base, &size, reinterpret_cast<hipDeviceptr_t>(0x1000)) ==
          hipErrorInvalidDevicePointer);
}
