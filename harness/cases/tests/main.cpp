// Catch2's own main for the case-language unit tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
