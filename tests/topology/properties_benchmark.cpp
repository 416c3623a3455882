// What `starnet topo info` costs: the star graph's distances by one BFS on the implicit S_n
// (goal: S_10 in < 2 s and well under 1 GiB; S_11 if it fits), and the all-pairs BFS that every
// platform that is not vertex-transitive pays (it sets MAX_ALL_PAIRS_WORK).
// Peak memory is the process's: measure it with `/usr/bin/time -v build/bin/starnet topo info star:10`.
#include <starnet/topology/families.hpp>
#include <starnet/topology/properties.hpp>

#include <benchmark/benchmark.h>

namespace {

using namespace starnet::topology;

void BM_StarGraphProperties(benchmark::State& state) {
  const StarGraph g(static_cast<int>(state.range(0)));
  std::uint32_t diameter = 0;
  for (auto _ : state) {
    const auto props = star_graph_properties(g);
    diameter = props.diameter().value_or(0);
    benchmark::DoNotOptimize(props.distance_histogram.data());
  }
  state.counters["nodes"] = static_cast<double>(g.size());
  state.counters["diameter"] = diameter;
  state.counters["nodes_per_second"] =
      benchmark::Counter(static_cast<double>(g.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_StarGraphProperties)->Arg(8)->Arg(9)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StarGraphProperties)->Arg(11)->Iterations(1)->Unit(benchmark::kSecond);

void BM_AllPairsBfs(benchmark::State& state) {
  const Platform p = debruijn_platform(static_cast<int>(state.range(0)));
  const double work = static_cast<double>(p.num_nodes()) *
                      static_cast<double>(p.num_nodes() + boost::num_edges(p.graph()));
  for (auto _ : state) {
    const auto props = platform_properties(p, DistanceMethod::ALL_PAIRS_BFS);
    benchmark::DoNotOptimize(props.distance_histogram.data());
  }
  state.counters["nodes"] = static_cast<double>(p.num_nodes());
  state.counters["steps_per_second"] = benchmark::Counter(work, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_AllPairsBfs)->Arg(10)->Arg(12)->Unit(benchmark::kMillisecond);

}  // namespace
