// hipMemcpyPeer figures on whatever machine it runs on (the simulator by
// default: `amdgpu-sim --machine mixed-4 -- peer_copy_bench`). Prints
// figures only; no timed assertion anywhere.
//   - 4 KiB copies per second on the direct and the staged path
//   - 256 MiB copy throughput per path, and as a ratio to host memcpy
#include "peer/hip_peer.h"
#include "peer/peer_debug.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

struct Setup {
    int src = -1, dst = -1; // a pair where dst can access src (direct possible)
    bool ok = false;
};

Setup &setup() {
    static Setup s = [] {
        Setup r;
        int n = 0;
        if (hipGetDeviceCount(&n) != hipSuccess) return r;
        for (int a = 0; a < n && !r.ok; ++a)
            for (int b = 0; b < n && !r.ok; ++b) {
                int can = 0;
                if (a != b && hipDeviceCanAccessPeer(&can, b, a) == hipSuccess && can) {
                    r.src = a;
                    r.dst = b;
                    r.ok = true;
                }
            }
        return r;
    }();
    return s;
}

double memcpy_bytes_per_second(size_t bytes) {
    std::vector<char> a(bytes, 1), b(bytes, 2);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 3; ++i) {
        std::memcpy(b.data(), a.data(), bytes);
        benchmark::DoNotOptimize(b.data());
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return 3.0 * double(bytes) / s;
}

void copy_bench(benchmark::State &state, bool direct, size_t bytes) {
    Setup &s = setup();
    if (!s.ok) {
        state.SkipWithError("no device pair with peer access on this machine");
        return;
    }
    void *src = nullptr, *dst = nullptr;
    hipSetDevice(s.src);
    hipMalloc(&src, bytes);
    hipSetDevice(s.dst);
    hipMalloc(&dst, bytes);
    if (direct) hipDeviceEnablePeerAccess(s.src, 0);
    // One untimed copy first: the simulator's VRAM is a sparse file, so the
    // first touch of every page is a page fault, not copy work.
    if (hipMemcpyPeer(dst, s.dst, src, s.src, bytes) != hipSuccess) {
        state.SkipWithError(peerLastKernelError());
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (auto _ : state) {
        if (hipMemcpyPeer(dst, s.dst, src, s.src, bytes) != hipSuccess) {
            state.SkipWithError(peerLastKernelError());
            break;
        }
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool path_ok = peerLastCopyPath() == (direct ? peerCopyPathDirect : peerCopyPathStaged);
    if (!path_ok) state.SkipWithError("the copy did not take the path this benchmark measures");
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
    state.SetItemsProcessed(int64_t(state.iterations()));
    if (bytes >= (1u << 20)) {
        static const double host = memcpy_bytes_per_second(bytes);
        // (peer bytes/s) / (host memcpy bytes/s), wall clock on both sides.
        const double peer = secs > 0 ? double(bytes) * double(state.iterations()) / secs : 0;
        state.counters["ratio_to_memcpy"] = peer / host;
    }
    if (direct) hipDeviceDisablePeerAccess(s.src);
    hipFree(src);
    hipFree(dst);
}

void BM_MemcpyPeer4KiB_Direct(benchmark::State &st) {
    copy_bench(st, true, 4096);
}
void BM_MemcpyPeer4KiB_Staged(benchmark::State &st) {
    copy_bench(st, false, 4096);
}
void BM_MemcpyPeer256MiB_Direct(benchmark::State &st) {
    copy_bench(st, true, 256u << 20);
}
void BM_MemcpyPeer256MiB_Staged(benchmark::State &st) {
    copy_bench(st, false, 256u << 20);
}
void BM_HostMemcpy256MiB(benchmark::State &state) {
    const size_t bytes = 256u << 20;
    std::vector<char> a(bytes, 1), b(bytes, 2);
    for (auto _ : state) {
        std::memcpy(b.data(), a.data(), bytes);
        benchmark::DoNotOptimize(b.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
}

} // namespace

// Real time: the copies run in the (simulated or real) engine, not on the
// calling thread, so CPU time would overstate every rate.
BENCHMARK(BM_MemcpyPeer4KiB_Direct)->UseRealTime();
BENCHMARK(BM_MemcpyPeer4KiB_Staged)->UseRealTime();
BENCHMARK(BM_HostMemcpy256MiB)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemcpyPeer256MiB_Direct)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_MemcpyPeer256MiB_Staged)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK_MAIN();
