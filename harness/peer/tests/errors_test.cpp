#include "peer/hip_peer.h"

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("error codes keep HIP's numeric values", "[peer][errors]") {
    CHECK(hipSuccess == 0);
    CHECK(hipErrorInvalidValue == 1);
    CHECK(hipErrorOutOfMemory == 2);
    CHECK(hipErrorNotInitialized == 3);
    CHECK(hipErrorInvalidDevicePointer == 17);
    CHECK(hipErrorNoDevice == 100);
    CHECK(hipErrorInvalidDevice == 101);
    CHECK(hipErrorIllegalState == 401);
    CHECK(hipErrorNotFound == 500);
    CHECK(hipErrorIllegalAddress == 700);
    CHECK(hipErrorLaunchTimeOut == 702);
    CHECK(hipErrorPeerAccessAlreadyEnabled == 704);
    CHECK(hipErrorPeerAccessNotEnabled == 705);
    CHECK(hipErrorLaunchFailure == 719);
    CHECK(hipErrorUnknown == 999);
    CHECK(HSA_AMD_LINK_INFO_TYPE_PCIE == 2);
    CHECK(HSA_AMD_LINK_INFO_TYPE_XGMI == 4);
}

TEST_CASE("hipGetErrorName gives HIP's names", "[peer][errors]") {
    CHECK(std::string(hipGetErrorName(hipSuccess)) == "hipSuccess");
    CHECK(std::string(hipGetErrorName(hipErrorPeerAccessAlreadyEnabled)) ==
          "hipErrorPeerAccessAlreadyEnabled");
    CHECK(std::string(hipGetErrorName(hipErrorInvalidDevicePointer)) ==
          "hipErrorInvalidDevicePointer");
    CHECK(std::string(hipGetErrorName(static_cast<hipError_t>(12345))) == "hipErrorUnknown");
    CHECK(std::string(hipGetErrorString(hipErrorInvalidDevice)) == "invalid device ordinal");
    CHECK(std::string(hipGetErrorString(hipErrorNoDevice)).size() > 0);
}
