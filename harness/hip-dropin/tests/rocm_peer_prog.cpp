// A ROCm-style HIP host program, built once against ROCm's own headers and
// library (Debian's libamdhip64-dev 5.2.3: g++ -D__HIP_PLATFORM_AMD__ ...
// -lamdhip64) and run unchanged on whichever libamdhip64.so.5 the dynamic
// loader finds. It checks the peer-memory surface both runtimes share:
// device identity, the access matrix, enable/disable, hipMalloc,
// hipMemGetAddressRange, hipPointerGetAttributes, hipMemcpy and hipMemcpyPeer
// of every ordered pair, byte by byte.
//
// Expectations come from the environment (written from the machine file by
// CTest, never from the library under test):
//   PEER_EXPECT_HIP_LIBRARY  the libamdhip64.so.5 this process must have mapped
//   PEER_EXPECT_GPUS         "pci_slot=gfxNAME=CUs/..." per device
//   PEER_EXPECT_ACCESS       rows of hipDeviceCanAccessPeer's matrix, "0110/..."
#include <hip/hip_runtime.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <stdlib.h>

namespace {

int failures = 0;
int checks = 0;

#define CHECK_THAT(cond, ...)                                                                      \
    do {                                                                                           \
        ++checks;                                                                                  \
        if (!(cond)) {                                                                             \
            ++failures;                                                                            \
            std::fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);                 \
            std::fprintf(stderr, __VA_ARGS__);                                                     \
            std::fputc('\n', stderr);                                                              \
        }                                                                                          \
    } while (0)
#define HIP_EXPECT(expr, want)                                                                     \
    do {                                                                                           \
        const hipError_t got_ = (expr);                                                            \
        CHECK_THAT(got_ == (want), "%s returned %s, expected %s", #expr, hipGetErrorName(got_),    \
                   hipGetErrorName(want));                                                         \
    } while (0)

std::string env(const char *name) {
    const char *v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size() && !s.empty()) {
        const size_t end = std::min(s.find(sep, pos), s.size());
        out.push_back(s.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

std::string real(const std::string &path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? buf : path;
}

// The libamdhip64 this process runs on, from its own memory map.
void check_runtime_library() {
    std::ifstream maps("/proc/self/maps");
    std::string line, mapped;
    while (std::getline(maps, line)) {
        const size_t at = line.find('/');
        if (at != std::string::npos && line.find("libamdhip64.so") != std::string::npos) {
            mapped = line.substr(at);
            break;
        }
    }
    std::printf("HIP runtime: %s\n", mapped.c_str());
    CHECK_THAT(!mapped.empty(), "no libamdhip64 mapped");
    const std::string want = env("PEER_EXPECT_HIP_LIBRARY");
    CHECK_THAT(!want.empty() && real(mapped) == real(want), "mapped %s, expected %s",
               real(mapped).c_str(), real(want).c_str());
}

struct Gpu {
    unsigned domain = 0, bus = 0, dev = 0;
    std::string arch;
    int cus = 0;
};

std::vector<Gpu> expected_gpus() {
    std::vector<Gpu> out;
    for (const std::string &item : split(env("PEER_EXPECT_GPUS"), '/')) {
        const std::vector<std::string> f = split(item, '=');
        Gpu g;
        if (f.size() == 3 &&
            std::sscanf(f[0].c_str(), "%x:%x:%x", &g.domain, &g.bus, &g.dev) == 3) {
            g.arch = f[1];
            g.cus = std::atoi(f[2].c_str());
        }
        out.push_back(g);
    }
    return out;
}

void check_devices(const std::vector<Gpu> &gpus) {
    int n = -1;
    HIP_EXPECT(hipGetDeviceCount(&n), hipSuccess);
    CHECK_THAT(n == int(gpus.size()), "%d devices, the machine has %zu", n, gpus.size());
    for (int d = 0; d < n && d < int(gpus.size()); ++d) {
        hipDeviceProp_t p;
        std::memset(&p, 0x5a, sizeof p);
        HIP_EXPECT(hipGetDeviceProperties(&p, d), hipSuccess);
        // ROCm appends target features (gfx90a:sramecc+:xnack-).
        const std::string arch = std::string(p.gcnArchName).substr(0, gpus[d].arch.size());
        CHECK_THAT(arch == gpus[d].arch, "device %d gcnArchName %s, expected %s", d, p.gcnArchName,
                   gpus[d].arch.c_str());
        CHECK_THAT(p.multiProcessorCount == gpus[d].cus, "device %d has %d CUs, expected %d", d,
                   p.multiProcessorCount, gpus[d].cus);
        CHECK_THAT(unsigned(p.pciDomainID) == gpus[d].domain &&
                       unsigned(p.pciBusID) == gpus[d].bus &&
                       unsigned(p.pciDeviceID) == gpus[d].dev,
                   "device %d at %04x:%02x:%02x", d, p.pciDomainID, p.pciBusID, p.pciDeviceID);
        CHECK_THAT(p.name[0] != '\0' && std::memchr(p.name, '\0', sizeof p.name), "device %d name",
                   d);
        CHECK_THAT(p.totalGlobalMem > 0, "device %d totalGlobalMem 0", d);
        int cus = -1;
        HIP_EXPECT(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, d),
                   hipSuccess);
        CHECK_THAT(cus == p.multiProcessorCount, "attribute %d, property %d", cus,
                   p.multiProcessorCount);
        char bus_id[32] = {};
        HIP_EXPECT(hipDeviceGetPCIBusId(bus_id, sizeof bus_id, d), hipSuccess);
        int by_bus = -1;
        HIP_EXPECT(hipDeviceGetByPCIBusId(&by_bus, bus_id), hipSuccess);
        CHECK_THAT(by_bus == d, "hipDeviceGetByPCIBusId(%s) = %d, expected %d", bus_id, by_bus, d);
    }
}

void fill(std::vector<unsigned char> &v, int seed) {
    for (size_t i = 0; i < v.size(); ++i)
        v[i] =
            static_cast<unsigned char>((i * 2654435761u) >> 13) ^ static_cast<unsigned char>(seed);
}

// One ordered pair: data made on `src`, copied to `dst` with hipMemcpyPeer.
void check_pair(int src, int dst, bool can) {
    constexpr size_t kBytes = (256u << 10) + 7; // not a multiple of any packet or page
    HIP_EXPECT(hipSetDevice(dst), hipSuccess);
    if (can) {
        HIP_EXPECT(hipDeviceEnablePeerAccess(src, 0), hipSuccess);
        HIP_EXPECT(hipDeviceEnablePeerAccess(src, 0), hipErrorPeerAccessAlreadyEnabled);
    }
    unsigned char *a = nullptr, *b = nullptr;
    HIP_EXPECT(hipSetDevice(src), hipSuccess);
    HIP_EXPECT(hipMalloc(reinterpret_cast<void **>(&a), kBytes), hipSuccess);
    HIP_EXPECT(hipSetDevice(dst), hipSuccess);
    HIP_EXPECT(hipMalloc(reinterpret_cast<void **>(&b), kBytes), hipSuccess);
    if (!a || !b) return;
    hipDeviceptr_t base = nullptr;
    size_t size = 0;
    HIP_EXPECT(hipMemGetAddressRange(&base, &size, a + 4099), hipSuccess);
    CHECK_THAT(base == a && size == kBytes, "range of a+4099: %p+%zu, expected %p+%zu", base, size,
               static_cast<void *>(a), kBytes);
    hipPointerAttribute_t attr;
    HIP_EXPECT(hipPointerGetAttributes(&attr, b + 5), hipSuccess);
    CHECK_THAT(attr.memoryType == hipMemoryTypeDevice && attr.device == dst,
               "attributes of b+5: type %d device %d", int(attr.memoryType), attr.device);
    std::vector<unsigned char> in(kBytes), out(kBytes, 0xee);
    fill(in, src * 16 + dst);
    HIP_EXPECT(hipMemcpy(a, in.data(), kBytes, hipMemcpyHostToDevice), hipSuccess);
    HIP_EXPECT(hipMemcpyPeer(b, dst, a, src, kBytes), hipSuccess);
    HIP_EXPECT(hipMemcpy(out.data(), b, kBytes, hipMemcpyDeviceToHost), hipSuccess);
    size_t first = kBytes;
    for (size_t i = 0; i < kBytes && first == kBytes; ++i)
        if (in[i] != out[i]) first = i;
    CHECK_THAT(first == kBytes, "pair %d>%d: first wrong byte at %zu", src, dst, first);
    HIP_EXPECT(hipFree(b), hipSuccess);
    HIP_EXPECT(hipSetDevice(src), hipSuccess);
    HIP_EXPECT(hipFree(a), hipSuccess);
    if (can) {
        HIP_EXPECT(hipSetDevice(dst), hipSuccess);
        HIP_EXPECT(hipDeviceDisablePeerAccess(src), hipSuccess);
    }
}

} // namespace

int main() {
    check_runtime_library();
    const std::vector<Gpu> gpus = expected_gpus();
    check_devices(gpus);
    const std::vector<std::string> rows = split(env("PEER_EXPECT_ACCESS"), '/');
    const int n = int(gpus.size());
    int pairs = 0;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b) continue;
            const bool want =
                size_t(a) < rows.size() && size_t(b) < rows[a].size() && rows[a][b] == '1';
            int can = -1, attr = -1;
            HIP_EXPECT(hipDeviceCanAccessPeer(&can, a, b), hipSuccess);
            CHECK_THAT(can == (want ? 1 : 0), "canAccessPeer(%d,%d) = %d", a, b, can);
            HIP_EXPECT(hipDeviceGetP2PAttribute(&attr, hipDevP2PAttrAccessSupported, a, b),
                       hipSuccess);
            CHECK_THAT(attr == can, "P2P AccessSupported(%d,%d) = %d", a, b, attr);
            // b reads a's memory when b enabled access to a: check_pair(a, b, ...)
            int b_reaches_a = 0;
            HIP_EXPECT(hipDeviceCanAccessPeer(&b_reaches_a, b, a), hipSuccess);
            check_pair(a, b, b_reaches_a == 1);
            ++pairs;
        }
    CHECK_THAT(pairs == n * (n - 1) && n > 0, "%d pairs checked on %d devices", pairs, n);
    std::printf("%d checks, %d failed, %d ordered pairs copied\n", checks, failures, pairs);
    return failures == 0 ? 0 : 1;
}
