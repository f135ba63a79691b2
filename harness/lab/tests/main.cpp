// Main of the lab tests. peer_lab links the runner, which already holds
// Catch2's implementation (peer-harness's own session), so the tests run
// through that session instead of defining CATCH_CONFIG_MAIN a second time.
#include "runner/catch_registration.hpp"

#include <string>
#include <vector>

int main(int argc, char **argv) {
    harness::runner::CatchSession session;
    if (session.apply_command_line(std::vector<std::string>(argv + 1, argv + argc)) != 0) return 2;
    return session.run();
}
