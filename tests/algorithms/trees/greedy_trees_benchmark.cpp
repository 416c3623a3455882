// Algorithm 1 as `starnet reduce` runs it: the tree (heap greedy) and the full plan (Proposition 3
// times, placement). Goal: the plan for n = 10^6 in under 1 s.
#include <starnet/algorithms/trees/greedy_trees.hpp>

#include <benchmark/benchmark.h>

namespace {

using starnet::Rational;
using starnet::algorithms::trees::CostModel;

CostModel costs(std::int64_t variant) { return variant == 0 ? CostModel(1, 1) : CostModel(Rational(3, 2), Rational(2, 3)); }

void BM_GreedyTree(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const CostModel model = costs(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(starnet::algorithms::trees::greedy_tree(n, model).length);
  state.counters["n"] = n;
}
BENCHMARK(BM_GreedyTree)->Args({1'000'000, 0})->Args({1'000'000, 1})->Unit(benchmark::kMillisecond);

void BM_GreedyPlan(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const CostModel model = costs(state.range(1));
  Rational length;
  for (auto _ : state) {
    const auto plan = starnet::algorithms::trees::greedy_plan(n, model);
    length = plan.length;
    benchmark::DoNotOptimize(plan.transfers.data());
  }
  state.counters["n"] = n;
  state.counters["length"] = length.to_double();
}
BENCHMARK(BM_GreedyPlan)->Args({1'000'000, 0})->Args({1'000'000, 1})->Unit(benchmark::kMillisecond);

}  // namespace
