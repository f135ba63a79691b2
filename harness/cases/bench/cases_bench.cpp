// Runner-side overheads that scale with the suite (DR-6): loading and
// expanding the default suite on a large machine, choosing pairwise rows, and
// filling buffers with patterns. Prints figures; never a pass/fail test.
#include "cases/covering.hpp"
#include "cases/expand.hpp"
#include "cases/loader.hpp"
#include "cases/pattern.hpp"

#include <benchmark/benchmark.h>

#include <vector>

using namespace harness::cases;

namespace {

void BM_LoadDefaultSuite(benchmark::State &state) {
    for (auto _ : state) {
        LoadResult r = load_paths({DEFAULT_SUITE});
        benchmark::DoNotOptimize(r.suites.size());
    }
}
BENCHMARK(BM_LoadDefaultSuite)->Unit(benchmark::kMillisecond);

void BM_ExpandDefaultSuiteQuick(benchmark::State &state) {
    LoadResult r = load_paths({DEFAULT_SUITE});
    Topology t = Topology::xgmi_hive(static_cast<int>(state.range(0)));
    size_t n = 0;
    for (auto _ : state) {
        Expansion e = expand(r.suites, t, {Depth::quick, 1});
        n = e.instances.size();
        benchmark::DoNotOptimize(n);
    }
    state.counters["instances"] = static_cast<double>(n);
}
BENCHMARK(BM_ExpandDefaultSuiteQuick)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond);

void BM_PairwiseCopyMatrix(benchmark::State &state) {
    const int pairs = static_cast<int>(state.range(0));
    CoveringProblem p{{pairs, 23, 7, 7, 3}, {}};
    size_t rows = 0;
    for (auto _ : state) {
        rows = pairwise(p, 1).size();
        benchmark::DoNotOptimize(rows);
    }
    state.counters["rows"] = static_cast<double>(rows);
}
BENCHMARK(BM_PairwiseCopyMatrix)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);

void BM_FillPattern(benchmark::State &state) {
    std::vector<uint8_t> buf(static_cast<size_t>(state.range(0)));
    for (auto _ : state) {
        fill_pattern(PatternKind::lfsr, 7, 3, buf.data(), buf.size());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_FillPattern)->Arg(64 << 20)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
