// Exact solve of Tree-dyn's Markov chain: the rationals grow with n (denominators lcm(1..n/2)²),
// which is what bounds `starnet markov --n` (20,000).
#include <starnet/algorithms/stochastic/tree_dyn_markov.hpp>

#include <benchmark/benchmark.h>

namespace {

void BM_TreeDynMarkovChain(benchmark::State& state) {
  for (auto _ : state) {
    starnet::algorithms::stochastic::TreeDynMarkovChain chain(state.range(0));
    chain.run();
    benchmark::DoNotOptimize(chain.variance().get_d());
  }
  state.counters["states"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_TreeDynMarkovChain)->Arg(64)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
