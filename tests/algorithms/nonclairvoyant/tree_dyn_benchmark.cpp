// Cost of one small emulation (the unit of the Monte-Carlo studies: n = 64, random costs),
// on a reused local engine (TreeDynRun) and on the fast path with the same costs
// (TreeDynFastRun). Run: build/bin/starnet_benchmarks --benchmark_filter=TreeDyn
#include <starnet/algorithms/nonclairvoyant/fast_path.hpp>
#include <starnet/algorithms/nonclairvoyant/tree_dyn.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/complete_graph.hpp>

#include <benchmark/benchmark.h>

#include <cmath>

namespace {

using starnet::emulator::NodeId;

class ExponentialCosts final : public starnet::emulator::CostModel<double> {
 public:
  double transfer(NodeId, starnet::emulator::Port, NodeId, const starnet::Rational&) const override {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return -std::log((static_cast<double>(state_ >> 11) + 0.5) * 0x1.0p-53);
  }
  double compute(NodeId, const starnet::Rational&) const override { return 0; }

 private:
  mutable std::uint64_t state_ = 1;
};

void BM_TreeDynRun(benchmark::State& state) {
  const starnet::topology::CompleteGraph g(static_cast<NodeId>(state.range(0)));
  const ExponentialCosts costs;
  starnet::emulator::RunConfig config;
  config.checking = starnet::emulator::Checking::ARBITRATED;
  config.time = starnet::emulator::TimeMode::TIMED;
  starnet::emulator::LocalEngine<double> engine;
  for (auto _ : state) {
    auto r = engine.run(g, costs, starnet::algorithms::nonclairvoyant::make_tree_dyn, config);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["runs_per_second"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_TreeDynRun)->Arg(64)->Unit(benchmark::kMicrosecond);

void BM_TreeDynFastRun(benchmark::State& state) {
  const ExponentialCosts costs;
  starnet::algorithms::nonclairvoyant::FastPath fast(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const auto r = fast.run(starnet::algorithms::nonclairvoyant::Algorithm::TREE_DYN, costs);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["runs_per_second"] = benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_TreeDynFastRun)->Arg(64)->Unit(benchmark::kMicrosecond);

}  // namespace

#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>

namespace {

// One Figure 4 point in miniature: the four algorithms, n = 64, gamma costs, CV 1, μ_c = 0,
// on one thread, on the general engine (fast = 0) or the fast path (fast = 1). Simulations per
// second = 4 × runs / time.
void BM_MonteCarloPoint(benchmark::State& state) {
  using namespace starnet::algorithms::nonclairvoyant;
  const auto runs = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    MonteCarlo mc;
    mc.scenario({64, starnet::algorithms::stochastic::DistributionKind::GAMMA, 1, 1, 0}).runs(runs).seed(1).threads(1);
    mc.fast_path(state.range(1) != 0);
    mc.run();
    benchmark::DoNotOptimize(mc.outcomes());
  }
  state.counters["simulations_per_second"] =
      benchmark::Counter(static_cast<double>(4 * runs), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MonteCarloPoint)->ArgNames({"runs", "fast"})->Args({2000, 0})->Args({2000, 1})->Unit(benchmark::kMillisecond);

}  // namespace
