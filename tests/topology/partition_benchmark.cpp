// What the partitioner's bound costs (topology/partition.hpp) at the sizes MAX_PARTITION_NODES
// allows: the most nodes (torus:256x256, hypercube:16: 65,536), the most links a platform holds
// (complete:1448: 1,047,628), and a family without a formula (pancake:8: 40,320 nodes).
// Peak memory is the process's, platform included: `/usr/bin/time -v build/bin/starnet_benchmarks
// --benchmark_filter='BM_BalancedPartition/0'`.
#include <starnet/topology/families.hpp>
#include <starnet/topology/partition.hpp>

#include <benchmark/benchmark.h>

#include <array>

namespace {

using namespace starnet::topology;

constexpr std::array<const char*, 4> SPECS = {"torus:256x256", "hypercube:16", "complete:1448", "pancake:8"};

void BM_BalancedPartition(benchmark::State& state) {
  const char* spec = SPECS.at(static_cast<std::size_t>(state.range(0)));
  const Platform p = make_platform(spec);
  std::uint64_t cut = 0;
  for (auto _ : state) {
    const auto part = balanced_partition(p);
    cut = part.cut;
    benchmark::DoNotOptimize(part.side.data());
  }
  state.SetLabel(spec);
  state.counters["nodes"] = static_cast<double>(p.num_nodes());
  state.counters["links"] = static_cast<double>(p.num_links());
  state.counters["cut"] = static_cast<double>(cut);
}
BENCHMARK(BM_BalancedPartition)->DenseRange(0, SPECS.size() - 1)->Unit(benchmark::kMillisecond);

}  // namespace
