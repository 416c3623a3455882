// Throughput of the Section 5 studies in simulations per second (one simulation = one emulated
// reduction of n = 64 processors). Run:
//   build/bin/starnet_benchmarks --benchmark_filter='Figure4|GridCell'
// Figure 4 at the paper's scale is 22 CVs × 4 algorithms × 1,000,000 runs = 8.8·10^7 simulations:
// 5 minutes on 2 cores needs ≈ 293,000 simulations/s.
#include <starnet/algorithms/nonclairvoyant/studies.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace starnet::algorithms::nonclairvoyant;
using starnet::algorithms::stochastic::DistributionKind;

void set_rate(benchmark::State& state, double simulations_per_iteration) {
  state.counters["simulations_per_second"] =
      benchmark::Counter(simulations_per_iteration, benchmark::Counter::kIsIterationInvariantRate);
}

// The whole Figure 4 pipeline (22 CVs, MonteCarlo per CV, summaries with exact quantiles) at
// 2,000 runs per CV on range(0) threads. Wall-clock rate: use with --benchmark_min_time small.
void BM_Figure4Study(benchmark::State& state) {
  const auto cvs = log_spaced(CV_MIN, CV_MAX, DEFAULT_CV_POINTS);
  StudyOptions o;
  o.runs = 2000;
  o.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const auto r = figure4_study(cvs, o);
    benchmark::DoNotOptimize(r.points.data());
  }
  set_rate(state, static_cast<double>(cvs.size() * o.runs * 4));
}
BENCHMARK(BM_Figure4Study)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// One Figure 4 point: CV = range(0)/100, 4,000 runs on one thread (the sampler's cost depends on
// the CV: gamma shape 10^4 at CV 0.01, 0.01 at CV 10).
void BM_Figure4Point(benchmark::State& state) {
  const double cv = static_cast<double>(state.range(0)) / 100;
  StudyOptions o;
  o.runs = 4000;
  o.threads = 1;
  const std::vector<double> cvs = {cv};
  for (auto _ : state) {
    const auto r = figure4_study(cvs, o);
    benchmark::DoNotOptimize(r.points.data());
  }
  set_rate(state, static_cast<double>(o.runs * 4));
}
BENCHMARK(BM_Figure4Point)->Arg(1)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// One cell of Figures 5/6: gamma, CV 0.3, mu_c = mu_d, 1,000 runs (the paper's count), one thread.
void BM_GridCell(benchmark::State& state) {
  StudyOptions o;
  o.runs = 1000;
  o.threads = 1;
  const std::vector<double> cvs = {0.3};
  const std::vector<double> ratios = {1};
  const std::vector<DistributionKind> laws = {DistributionKind::GAMMA};
  for (auto _ : state) {
    const auto r = grid_study(cvs, ratios, laws, o);
    benchmark::DoNotOptimize(r.cells.data());
  }
  set_rate(state, static_cast<double>(o.runs * 4));
}
BENCHMARK(BM_GridCell)->Unit(benchmark::kMillisecond);

}  // namespace
