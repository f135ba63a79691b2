// A small HIP host program: which HIP runtime it runs on, the devices, and
// a byte-exact hipMemcpyPeer from the first device to the last. Plain HIP,
// so it builds against ROCm's headers as well as the harness's (README.md's
// recipes build it both ways).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        const hipError_t e = (expr);                                                               \
        if (e != hipSuccess) {                                                                     \
            std::fprintf(stderr, "consumer: %s -> %s\n", #expr, hipGetErrorName(e));               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main() {
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);)
        if (line.find("libamdhip64.so") != std::string::npos) {
            std::printf("HIP runtime: %s\n", line.substr(line.find('/')).c_str());
            break;
        }
    int n = 0;
    CHECK(hipGetDeviceCount(&n));
    for (int d = 0; d < n; ++d) {
        hipDeviceProp_t p;
        CHECK(hipGetDeviceProperties(&p, d));
        std::printf("device %d: %s (%s)\n", d, p.name, p.gcnArchName);
    }
    const size_t bytes = 1 << 20;
    std::vector<unsigned char> in(bytes), out(bytes);
    for (size_t i = 0; i < bytes; ++i)
        in[i] = static_cast<unsigned char>(i * 131 + 7);
    void *src = nullptr, *dst = nullptr;
    CHECK(hipSetDevice(0));
    CHECK(hipMalloc(&src, bytes));
    CHECK(hipMemcpy(src, in.data(), bytes, hipMemcpyHostToDevice));
    CHECK(hipSetDevice(n - 1));
    CHECK(hipMalloc(&dst, bytes));
    CHECK(hipMemcpyPeer(dst, n - 1, src, 0, bytes));
    CHECK(hipMemcpy(out.data(), dst, bytes, hipMemcpyDeviceToHost));
    CHECK(hipFree(dst));
    CHECK(hipSetDevice(0));
    CHECK(hipFree(src));
    const bool same = in == out;
    std::printf("consumer: %d devices, hipMemcpyPeer 0 -> %d %s\n", n, n - 1,
                same ? "byte-exact" : "WRONG BYTES");
    return same ? 0 : 1;
}
