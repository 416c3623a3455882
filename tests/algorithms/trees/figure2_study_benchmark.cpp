// The whole Figure 2 study as `starnet reduce --study figure2` computes it: 2 ≤ n ≤ 10000, exact
// lengths and ratios, and the CSV. Goal: under 10 s.
#include <starnet/algorithms/trees/figure2_study.hpp>

#include <benchmark/benchmark.h>

namespace {

void BM_Figure2Study(benchmark::State& state) {
  const auto max_n = static_cast<int>(state.range(0));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto rows = starnet::algorithms::trees::figure2_study(max_n);
    bytes = starnet::algorithms::trees::figure2_csv(rows).size();
  }
  state.counters["max_n"] = max_n;
  state.counters["csv_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Figure2Study)->Arg(10'000)->Unit(benchmark::kMillisecond);

}  // namespace
