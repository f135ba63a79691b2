#include "runner/coverage.hpp"

#include "cases/step_table.hpp"

#include <fmt/format.h>

namespace harness::runner {

namespace {

const char *hip_function(const std::string &step) {
    if (step == "can_access_peer") return "hipDeviceCanAccessPeer";
    if (step == "enable_peer_access") return "hipDeviceEnablePeerAccess";
    if (step == "disable_peer_access") return "hipDeviceDisablePeerAccess";
    if (step == "get_address_range") return "hipMemGetAddressRange";
    if (step == "memcpy_peer") return "hipMemcpyPeer";
    if (step == "memcpy") return "hipMemcpy";
    if (step == "memcpy_async") return "hipMemcpyAsync";
    if (step == "stream_synchronize") return "hipStreamSynchronize";
    if (step == "stream_query") return "hipStreamQuery";
    if (step == "stream_hold") return "hipStreamWaitValue32";
    if (step == "memcpy_peer_async") return "hipMemcpyPeerAsync";
    if (step == "host_malloc") return "hipHostMalloc";
    if (step == "host_free") return "hipHostFree";
    if (step == "host_register") return "hipHostRegister";
    if (step == "host_unregister") return "hipHostUnregister";
    if (step == "host_get_device_pointer") return "hipHostGetDevicePointer";
    if (step == "mem_get_info") return "hipMemGetInfo";
    if (step == "stream_create") return "hipStreamCreate";
    if (step == "stream_destroy") return "hipStreamDestroy";
    if (step == "get_last_error") return "hipGetLastError";
    if (step == "peek_at_last_error") return "hipPeekAtLastError";
    if (step == "alloc") return "hipMalloc";
    if (step == "memset") return "hipMemset";
    if (step == "memset_async") return "hipMemsetAsync";
    if (step == "device_synchronize") return "hipDeviceSynchronize";
    if (step == "get_device_properties") return "hipGetDeviceProperties";
    if (step == "device_get_attribute") return "hipDeviceGetAttribute";
    if (step == "set_copy_packet_max") return "peerSetCopyPacketMax";
    if (step == "event_create") return "hipEventCreateWithFlags";
    if (step == "event_record") return "hipEventRecord";
    if (step == "event_query") return "hipEventQuery";
    if (step == "event_synchronize") return "hipEventSynchronize";
    if (step == "event_elapsed_time") return "hipEventElapsedTime";
    if (step == "event_destroy") return "hipEventDestroy";
    if (step == "stream_wait_event") return "hipStreamWaitEvent";
    if (step == "stream_add_callback") return "hipStreamAddCallback";
    return "?";
}

} // namespace

std::vector<PairCoverage> documented_coverage(const std::vector<cases::Instance> &instances) {
    std::vector<PairCoverage> out;
    for (const auto &p : cases::documented_pairs()) {
        PairCoverage c{p, 0, {}};
        const int code = cases::hip_code_value(p.code).value_or(-1);
        for (const auto &in : instances) {
            if (!in.skip_reason.empty()) continue;
            bool asserts = false;
            for (const auto &s : in.kase->steps)
                asserts = asserts || (in.runs(s) && s.spec->name == std::string(p.function) &&
                                      s.expect == code);
            if (!asserts) continue;
            if (c.instances++ == 0) c.first_instance = in.name;
        }
        out.push_back(c);
    }
    return out;
}

std::string render_coverage(const std::vector<PairCoverage> &c) {
    std::string out;
    int missing = 0;
    for (const auto &x : c) {
        out += fmt::format("{:<28} {:<34} {:>5}  {}\n", hip_function(x.pair.function), x.pair.code,
                           x.instances, x.instances ? x.first_instance : "NOT ASSERTED");
        missing += x.instances == 0;
    }
    out += fmt::format("{} documented function/code pairs, {} not asserted\n", c.size(), missing);
    return out;
}

} // namespace harness::runner
