// Catch2's main and implementation, compiled once for every test executable
// (CMake target peer_catch_main) instead of once per test folder.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
