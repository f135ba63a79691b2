// amdgpu's lockup_timeout parsing (amdgpu_device_get_job_timeout_settings),
// one row per rule.
#include "kmd/job_timeout.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

namespace {
constexpr std::optional<uint64_t> kNone = std::nullopt;
}

TEST_CASE("lockup_timeout: the SDMA entry as the kernel reads it", "[kmd][unit]") {
    struct Row {
        const char *param;
        std::optional<uint64_t> sdma_ms;
        const char *rule;
    };
    const Row rows[] = {
        {"", 10000, "empty: every default (10 s for SDMA)"},
        {"\n", 10000, "sysfs prints the empty string with a newline"},
        {"200\n", 200, "one entry sets every non-compute timeout"},
        {"0", 10000, "0 keeps the default"},
        {"-1", kNone, "negative: no timeout"},
        {"1000,2000,3000,4000", 3000, "four entries: the third is SDMA"},
        {"1000,2000", 10000, "two entries: SDMA keeps its default"},
        {"1000,0,0,5", 10000, "0 in the SDMA slot keeps its default"},
        {"1000,2000,-5", kNone, "negative SDMA entry: no timeout"},
        {"1000,,3000", 1000, "an empty entry ends the list (strsep loop condition): one entry"},
        {"5,6,7,8,9", 7, "entries past the fourth are ignored"},
        {"abc", 10000, "not a number: the default"},
    };
    for (const Row &r : rows) {
        INFO(std::string("'") + r.param + "': " + r.rule);
        CHECK(kmd::sdma_job_timeout_ms(r.param) == r.sdma_ms);
    }
}
