// The bisect-run exit rule, the bisect log parser and the shrinking order.
#include "lab/bisect.hpp"

#include <catch2/catch.hpp>

using namespace harness::lab;

TEST_CASE("bisect-run exit rule", "[bisect]") {
    // No amdgpu at all where GPUs are promised: cannot judge.
    CHECK(bisect_verdict({false, 0}, 4, 0).exit_code == 125);
    // The driver is there, a GPU is not: bad, whatever the suite said.
    CHECK(bisect_verdict({true, 3}, 4, 0).exit_code == 1);
    CHECK_THAT(bisect_verdict({true, 3}, 4, 0).reason, Catch::StartsWith("GPU vanished"));
    CHECK(bisect_verdict({true, 4}, 4, 0).exit_code == 0);
    CHECK(bisect_verdict({true, 4}, 4, 1).exit_code == 1);
    // The harness could not run: abort, never a verdict on the commit.
    CHECK(bisect_verdict({true, 4}, 4, 2).exit_code == 128);
    // No promise: the driver's absence is not judged.
    CHECK(bisect_verdict({false, 0}, -1, 0).exit_code == 0);
}

TEST_CASE("git bisect log parsing", "[bisect]") {
    auto log = parse_bisect_log("git bisect start 'HEAD' 'abc'\n"
                                "# bad: [1111] c7\n# good: [2222] c1\n"
                                "git bisect bad 4444\n# good: [3333] c3\ngit bisect good 3333\n"
                                "git bisect skip 5555\n"
                                "# first bad commit: [4444] commit 4: tail handling\n");
    CHECK(log.first_bad == "4444");
    CHECK(log.first_bad_subject == "commit 4: tail handling");
    REQUIRE(log.steps.size() == 3);
    CHECK(log.steps[0] == std::pair<std::string, std::string>{"bad", "4444"});
    CHECK(log.steps[2] == std::pair<std::string, std::string>{"skip", "5555"});
    CHECK(parse_bisect_log("git bisect bad 1\n").first_bad.empty());
}

TEST_CASE("shrinking order: size, then offsets, then pair", "[bisect]") {
    const std::string a = "m/c/pair=0>1/size=4Mi-1/src_offset=3/dst_offset=1";
    CHECK(shrink_cost(a) == std::vector<double>{4194303, 4, 1});
    CHECK(shrink_cost("m/c/pair=0>1/size=64Ki+1/src_offset=0/dst_offset=0") < shrink_cost(a));
    CHECK(shrink_cost("m/c/pair=1>0/size=4Mi-1/src_offset=0/dst_offset=0") < shrink_cost(a));
    CHECK(shrink_cost(a) < shrink_cost("m/c/pair=2>0/size=4Mi-1/src_offset=3/dst_offset=1"));
}
