// Samples per second of the random stream and of each cost law of Table II: the Monte-Carlo
// studies draw ~10^10 costs (Figure 4: 4 algorithms × 20 CVs × 10^6 runs × 63 transfers), so
// every nanosecond per sample is ~10 s of study time.
#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/algorithms/stochastic/random_stream.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

namespace {

using namespace starnet::algorithms::stochastic;

void BM_RandomStreamU64(benchmark::State& state) {
  RandomStream stream(/*seed=*/1, /*run_index=*/0);
  for (auto _ : state) benchmark::DoNotOptimize(stream.next_u64());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RandomStreamU64);

void BM_RandomStreamUniform(benchmark::State& state) {
  RandomStream stream(/*seed=*/1, /*run_index=*/0);
  for (auto _ : state) benchmark::DoNotOptimize(stream.next_uniform());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RandomStreamUniform);

void BM_StandardNormal(benchmark::State& state) {
  RandomStream stream(/*seed=*/1, /*run_index=*/0);
  for (auto _ : state) benchmark::DoNotOptimize(standard_normal(stream));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_StandardNormal);

// One law at one CV; the CV is clamped to 90 % of the law's range where the range is shorter.
void BM_CostDistribution(benchmark::State& state, DistributionKind kind, double cv) {
  const CvRange range = cv_range(kind);
  const double used_cv = std::min(cv, 0.9 * range.max);
  const CostDistribution distribution(kind, /*mean=*/1.0, used_cv);
  RandomStream stream(/*seed=*/1, /*run_index=*/0);
  for (auto _ : state) benchmark::DoNotOptimize(distribution(stream));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("cv=" + std::to_string(used_cv));
}

void register_distributions() {
  for (const DistributionKind kind : ALL_DISTRIBUTIONS) {
    for (const double cv : {0.1, 0.5, 3.0}) {
      if (cv > cv_range(kind).max && cv > 0.5) continue;  // clamped duplicate of the 0.5 case
      benchmark::RegisterBenchmark(("BM_CostDistribution/" + std::string(to_string(kind)) + "/" + std::to_string(cv)).c_str(),
                                   BM_CostDistribution, kind, cv);
    }
  }
}
const int registered = (register_distributions(), 0);

}  // namespace
