// hip-tests' checking macros, our own: HIP_CHECK fails the test on any code
// but hipSuccess (hipErrorPeerAccessAlreadyEnabled tolerated, as hip-tests
// does) and, when the code is a refusal to run GPU code, records it in the
// test context first; HIP_CHECK_ERROR requires one code.
#pragma once

#include "hip_test_context.hpp"

#include <catch2/catch.hpp>

#define HIP_CHECK(expr)                                                                            \
    {                                                                                              \
        const hipError_t localError = (expr);                                                      \
        if (localError != hipSuccess && localError != hipErrorPeerAccessAlreadyEnabled) {          \
            if (localError == hipErrorNoBinaryForGpu ||                                            \
                localError == hipErrorInvalidDeviceFunction)                                       \
                TestContext::get().recordRefusal(#expr, localError);                               \
            INFO(#expr << " -> " << hipGetErrorName(localError) << " ("                            \
                       << hipGetErrorString(localError) << ") at " << __FILE__ << ":"              \
                       << __LINE__);                                                               \
            REQUIRE(false);                                                                        \
        }                                                                                          \
    }

#define HIP_CHECK_ERROR(expr, expected)                                                            \
    {                                                                                              \
        const hipError_t localError = (expr);                                                      \
        INFO(#expr << " -> " << hipGetErrorName(localError) << ", expected "                       \
                   << hipGetErrorName(expected));                                                  \
        REQUIRE(localError == (expected));                                                         \
    }
