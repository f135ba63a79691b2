#include "kmd/kmsg.hpp"

#include <catch2/catch.hpp>

using kmd::KmsgLog;

TEST_CASE("kernel log: gmc_v9/v10 fault lines are recognised per device", "[kmd][kmsg]") {
    const char *v9 = "amdgpu 0000:0c:00.0: [mmhub0] no-retry page fault (src_id:0 ring:0 vmid:3 "
                     "pasid:32770)";
    const char *v10 = "amdgpu 0000:03:00.0: [gfxhub] page fault (src_id:0 ring:8 vmid:1 pasid:1)";
    CHECK(KmsgLog::parse_fault_line(v9, "0000:0c:00.0"));
    CHECK_FALSE(KmsgLog::parse_fault_line(v9, "0000:0d:00.0"));
    CHECK(KmsgLog::parse_fault_line(v10, "0000:03:00.0"));
    CHECK_FALSE(
        KmsgLog::parse_fault_line("amdgpu 0000:03:00.0: ring sdma0 timeout", "0000:03:00.0"));
    // A slot that is a prefix of another must not match it.
    CHECK_FALSE(KmsgLog::parse_fault_line(v10, "0000:03:00"));
}

TEST_CASE("kernel log: a fault of another process is not ours", "[kmd][kmsg]") {
    const char *line = "amdgpu 0000:0c:00.0: amdgpu: [mmhub] page fault (src_id:0 ring:0 vmid:8 "
                       "pasid:32770, for process peer-harness pid 4242 thread peer-harness pid "
                       "4243)";
    CHECK(KmsgLog::parse_fault_line(line, "0000:0c:00.0", 4242));
    CHECK_FALSE(KmsgLog::parse_fault_line(line, "0000:0c:00.0", 4243));
    CHECK_FALSE(KmsgLog::parse_fault_line(line, "0000:0c:00.0", 17));
    CHECK(KmsgLog::parse_fault_line(line, "0000:0c:00.0")); // any process
    // A line without process information cannot be attributed: keep it.
    CHECK(KmsgLog::parse_fault_line("amdgpu 0000:0c:00.0: [gfxhub] page fault (src_id:0 ring:8 "
                                    "vmid:1 pasid:1)",
                                    "0000:0c:00.0", 17));
}

TEST_CASE("kernel log: fault address line", "[kmd][kmsg]") {
    uint64_t a = 0;
    CHECK(KmsgLog::parse_address_line("amdgpu 0000:0c:00.0:   in page starting at address "
                                      "0x00007f0012345000 from IH client 0x12 (VMC)",
                                      "0000:0c:00.0", a));
    CHECK(a == 0x00007f0012345000ull);
    CHECK_FALSE(
        KmsgLog::parse_address_line("amdgpu 0000:0c:00.0: something else", "0000:0c:00.0", a));
    CHECK_FALSE(KmsgLog::parse_address_line(
        "amdgpu 0000:0d:00.0:   in page starting at address 0x1000 from", "0000:0c:00.0", a));
}
