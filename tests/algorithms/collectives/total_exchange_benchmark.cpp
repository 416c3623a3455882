// Wall time of the total exchanges: the one-packet exchange on S_7 (5,040 nodes, s
// steps, every packet over its full distance) run and checked on the emulator, under a minute on
// one core; the Pareto search of uniform combining exchanges on S_6, within a minute. Run:
//   build/bin/starnet_benchmarks --benchmark_filter=Exchange
#include "bfs_status.hpp"

#include <starnet/algorithms/collectives/exchange_search.hpp>
#include <starnet/algorithms/collectives/total_exchange.hpp>
#include <starnet/topology/families.hpp>

#include <benchmark/benchmark.h>

#include <stdexcept>

namespace {

namespace coll = starnet::algorithms::collectives;

void BM_OnePacketExchangeStar7(benchmark::State& state) {
  const auto g = coll::CayleyGroup::of("star:7");
  const auto status = coll::bfs_status(*starnet::topology::make_topology("star:7"));
  std::uint64_t steps = 0;
  for (auto _ : state) {
    const auto plan = coll::one_packet_exchange(g);
    const auto check = coll::check_exchange(g, plan);
    // The step count is the status computed by BFS (the acceptance figure for S_7).
    if (!check.verified || check.steps != status || plan.status != status) {
      throw std::runtime_error("S_7 exchange: " + check.problem);
    }
    steps = check.steps;
    benchmark::DoNotOptimize(steps);
  }
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["bfs_status"] = static_cast<double>(status);
}
BENCHMARK(BM_OnePacketExchangeStar7)->Unit(benchmark::kSecond)->Iterations(1);

void BM_ExchangeParetoStar6(benchmark::State& state) {
  const auto g = coll::CayleyGroup::of("star:6");
  std::size_t points = 0;
  bool complete = false;
  for (auto _ : state) {
    const auto front = coll::exchange_pareto(g, {});
    if (front.points.empty()) throw std::runtime_error("S_6: no Pareto point");
    points = front.points.size();
    complete = front.reached_status;
    benchmark::DoNotOptimize(points);
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["complete"] = complete ? 1 : 0;
}
BENCHMARK(BM_ExchangeParetoStar6)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
