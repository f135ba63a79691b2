// Steps of harness/peer/CONTRACT.md §5.2 and §5.5 that the other executors do
// not cover: byte fills (hipMemset, hipMemsetAsync) and the device queries
// (hipGetDeviceProperties, hipDeviceGetAttribute). A query that succeeds is
// checked against the library's other answers about the same device, so a
// field that drifts from its attribute, its name or its PCI id fails.
#include "executor_impl.hpp"

#include "cases/step_table.hpp"

#include <climits>
#include <cstring>
#include <optional>

namespace harness::runner::detail {

namespace {

// The case language's attribute words, the HIP attribute each names, and the
// hipDeviceProp_t field that holds the same fact (no field: the expected
// value is the constant given).
struct AttributeRow {
    const char *word;
    hipDeviceAttribute_t attr;
    long long (*field)(const hipDeviceProp_t &);
    long long constant;
};

// The peer API's own word for the path this process runs (the instance's
// `path` axis was checked against it at step 0).
bool on_kfd_path() {
    const char *p = peerKernelPath();
    return p && std::strcmp(p, "kfd") == 0;
}

// A value no hipDeviceAttribute_t enumerator has (HIP's values stay below
// 20000: hipDeviceAttributeCudaCompatibleEnd/AmdSpecificBegin are 9999 and
// 10000).
constexpr int kUnknownAttribute = 0x7ff0;

const AttributeRow kAttributeRows[] = {
    {"multiprocessor_count", hipDeviceAttributeMultiprocessorCount,
     [](const hipDeviceProp_t &p) -> long long { return p.multiProcessorCount; }, 0},
    {"pci_bus_id", hipDeviceAttributePciBusId,
     [](const hipDeviceProp_t &p) -> long long { return p.pciBusID; }, 0},
    {"pci_device_id", hipDeviceAttributePciDeviceId,
     [](const hipDeviceProp_t &p) -> long long { return p.pciDeviceID; }, 0},
    {"pci_domain_id", hipDeviceAttributePciDomainID,
     [](const hipDeviceProp_t &p) -> long long { return p.pciDomainID; }, 0},
    {"total_global_mem", hipDeviceAttributeTotalGlobalMem,
     [](const hipDeviceProp_t &p) -> long long { return static_cast<long long>(p.totalGlobalMem); },
     0},
    {"warp_size", hipDeviceAttributeWarpSize,
     [](const hipDeviceProp_t &p) -> long long { return p.warpSize; }, 0},
    {"max_threads_per_multiprocessor", hipDeviceAttributeMaxThreadsPerMultiProcessor,
     [](const hipDeviceProp_t &p) -> long long { return p.maxThreadsPerMultiProcessor; }, 0},
    {"max_shared_memory_per_block", hipDeviceAttributeMaxSharedMemoryPerBlock,
     [](const hipDeviceProp_t &p) -> long long {
         return static_cast<long long>(p.sharedMemPerBlock);
     },
     0},
    {"clock_rate", hipDeviceAttributeClockRate,
     [](const hipDeviceProp_t &p) -> long long { return p.clockRate; }, 0},
    {"compute_capability_major", hipDeviceAttributeComputeCapabilityMajor,
     [](const hipDeviceProp_t &p) -> long long { return p.major; }, 0},
    {"compute_capability_minor", hipDeviceAttributeComputeCapabilityMinor,
     [](const hipDeviceProp_t &p) -> long long { return p.minor; }, 0},
    {"is_large_bar", hipDeviceAttributeIsLargeBar,
     [](const hipDeviceProp_t &p) -> long long { return p.isLargeBar; }, 0},
    {"async_engine_count", hipDeviceAttributeAsyncEngineCount,
     [](const hipDeviceProp_t &p) -> long long { return p.asyncEngineCount; }, 0},
    // hipStreamWaitValue32 works on the DRM path (SDMA POLL_REGMEM), not on
    // the KFD path; managed memory never: CONTRACT.md §5.5 and §7 fix both.
    {"can_use_stream_wait_value", hipDeviceAttributeCanUseStreamWaitValue,
     [](const hipDeviceProp_t &) -> long long { return on_kfd_path() ? 0 : 1; }, 0},
    {"managed_memory", hipDeviceAttributeManagedMemory, nullptr, 0},
    {"unknown", static_cast<hipDeviceAttribute_t>(kUnknownAttribute), nullptr, 0},
};

const AttributeRow *attribute_row(const std::string &word) {
    for (const auto &r : kAttributeRows)
        if (word == r.word) return &r;
    return nullptr;
}

// What hipDeviceGetAttribute must answer when hipGetDeviceProperties gave p:
// nullopt where the contract refuses the value (above INT_MAX, or unknown).
std::optional<int> attribute_expected(const AttributeRow &r, const hipDeviceProp_t &p) {
    if (std::string(r.word) == "unknown") return std::nullopt;
    const long long v = r.field ? r.field(p) : r.constant;
    if (v > INT_MAX) return std::nullopt; // CONTRACT.md §4: refused, not truncated
    return static_cast<int>(v);
}

} // namespace

std::string Interpreter::memset_bytes(const Step &s) {
    const bool async = s.spec->kind == StepKind::memset_async;
    Resolved dst = resolve(s.arg("dst")->pointer);
    const int value = static_cast<int>(num(s, "value", 0));
    const size_t n = static_cast<size_t>(num(s, "bytes", 0));
    hipStream_t st = nullptr;
    if (async)
        if (auto m = stream_of(s, st); !m.empty()) return m;
    const hipError_t e =
        async ? hipMemsetAsync(dst.ptr, value, n, st) : hipMemset(dst.ptr, value, n);
    const std::string call =
        fmt::format("{}(dst, {}, {}{})", async ? "hipMemsetAsync" : "hipMemset", value, n,
                    async ? ", " + word(s, "stream", "null") : "");
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || n == 0 || !dst.buf) return {};
    if (dst.offset < 0 || static_cast<size_t>(dst.offset) + n > dst.buf->bytes)
        return fmt::format("{} succeeded on a range outside the buffer", call);
    // Only the low byte of value counts (HIP: "value: constant byte value").
    // A queued fill holds once the stream's work is done; verify reads back
    // through a synchronous call, which waits for the streams first.
    dst.buf->expect.set_value(dst.buf->guard + static_cast<size_t>(dst.offset), n,
                              static_cast<uint8_t>(value & 0xff));
    return {};
}

std::string Interpreter::device_properties(const Step &s) {
    const int d = static_cast<int>(num(s, "device", 0));
    const bool null_out = word(s, "out", "out") == "null";
    hipDeviceProp_t p;
    std::memset(&p, 0x5a, sizeof p);
    const hipError_t e = hipGetDeviceProperties(null_out ? nullptr : &p, d);
    const std::string call =
        fmt::format("hipGetDeviceProperties({}, {})", null_out ? "NULL" : "&prop", d);
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || null_out) return {};
    if (!std::memchr(p.name, '\0', sizeof p.name) || p.name[0] == '\0')
        return call + " reported an empty or unterminated name";
    if (std::strncmp(p.gcnArchName, "gfx", 3) != 0)
        return fmt::format("{} reported gcnArchName \"{:.32}\", expected gfx…", call,
                           p.gcnArchName);
    if (p.totalGlobalMem == 0 || p.multiProcessorCount <= 0 ||
        (p.warpSize != 32 && p.warpSize != 64))
        return fmt::format("{} reported totalGlobalMem {}, multiProcessorCount {}, warpSize {}: "
                           "every GPU has memory, compute units and waves of 32 or 64",
                           call, p.totalGlobalMem, p.multiProcessorCount, p.warpSize);
    char name[sizeof p.name];
    if (hipError_t g = hipDeviceGetName(name, sizeof name, d); g != hipSuccess)
        return fmt::format("hipDeviceGetName returned {}", hip_code_name(g));
    if (std::strcmp(name, p.name) != 0)
        return fmt::format("hipDeviceGetName says \"{}\", {} says \"{}\"", name, call, p.name);
    char bus[32];
    if (hipError_t g = hipDeviceGetPCIBusId(bus, sizeof bus, d); g != hipSuccess)
        return fmt::format("hipDeviceGetPCIBusId returned {}", hip_code_name(g));
    const std::string want =
        fmt::format("{:04x}:{:02x}:{:02x}.", p.pciDomainID, p.pciBusID, p.pciDeviceID);
    if (std::strncmp(bus, want.c_str(), want.size()) != 0)
        return fmt::format("hipDeviceGetPCIBusId says {}, the properties say {}", bus, want);
    for (const auto &r : kAttributeRows) {
        const auto expected = attribute_expected(r, p);
        int v = kUntouched;
        const hipError_t g = hipDeviceGetAttribute(&v, r.attr, d);
        if (!expected) {
            if (g != hipErrorInvalidValue)
                return fmt::format("hipDeviceGetAttribute({}) returned {}, expected "
                                   "hipErrorInvalidValue (harness/peer/CONTRACT.md §4, §5.5)",
                                   r.word, hip_code_name(g));
            continue;
        }
        if (g != hipSuccess || v != *expected)
            return fmt::format("hipDeviceGetAttribute({}) returned {} with {}, the properties "
                               "say {}",
                               r.word, hip_code_name(g), v, *expected);
    }
    return {};
}

std::string Interpreter::device_attribute(const Step &s) {
    const int d = static_cast<int>(num(s, "device", 0));
    const std::string w = word(s, "attribute", "");
    const AttributeRow *r = attribute_row(w);
    if (!r) throw StepError{"unknown attribute word '" + w + "'"};
    const bool null_out = word(s, "out", "out") == "null";
    int v = kUntouched;
    const hipError_t e = hipDeviceGetAttribute(null_out ? nullptr : &v, r->attr, d);
    const std::string call =
        fmt::format("hipDeviceGetAttribute({}, {}, {})", null_out ? "NULL" : "&v", w, d);
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (e != hipSuccess || null_out) return {};
    hipDeviceProp_t p;
    if (hipError_t g = hipGetDeviceProperties(&p, d); g != hipSuccess)
        return fmt::format("{} succeeded but hipGetDeviceProperties returned {}", call,
                           hip_code_name(g));
    const auto expected = attribute_expected(*r, p);
    if (!expected)
        return fmt::format("{} succeeded with {}; harness/peer/CONTRACT.md §4/§5.5 refuses it",
                           call, v);
    if (v != *expected)
        return fmt::format("{} reported {}, the properties say {}", call, v, *expected);
    return {};
}

} // namespace harness::runner::detail
