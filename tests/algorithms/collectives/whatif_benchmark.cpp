// Wall time of a what-if study (≥ 4 topologies of ~120–1024 nodes × 2 port models ×
// 3 fault rates in under a minute). Every row is planned, emulated in strict unit time and
// verified node by node, as `starnet whatif` does. Run:
//   build/bin/starnet_benchmarks --benchmark_filter=WhatIf
#include <starnet/algorithms/collectives/whatif.hpp>

#include <benchmark/benchmark.h>

#include <stdexcept>

namespace {

using starnet::algorithms::generic::Collective;
using starnet::algorithms::collectives::WhatIfStudy;

void study(benchmark::State& state, const std::vector<std::string>& topologies, Collective collective) {
  std::size_t rows = 0;
  for (auto _ : state) {
    WhatIfStudy s;
    s.collective(collective)
        .topologies(topologies)
        .port_models({{1, false}, {2, false}})
        .fault_rates({0, 0.01, 0.05})
        .seed(1)
        .run();
    if (!s.all_verified()) throw std::runtime_error("a what-if row was not verified");
    rows = s.rows().size();
    benchmark::DoNotOptimize(rows);
  }
  state.counters["rows"] = static_cast<double>(rows);
}

// The issue's example: 120, 128, 128 and 121 nodes.
void BM_WhatIfStudyIssueTopologies(benchmark::State& state) {
  study(state, {"star:5", "hypercube:7", "debruijn:7", "torus:11x11"}, Collective::ALLREDUCE);
}
BENCHMARK(BM_WhatIfStudyIssueTopologies)->Unit(benchmark::kMillisecond);

// The top of the range: 720 and 1024 nodes.
void BM_WhatIfStudyLargeTopologies(benchmark::State& state) {
  study(state, {"star:6", "hypercube:10", "debruijn:10", "torus:32x32"}, Collective::ALLREDUCE);
}
BENCHMARK(BM_WhatIfStudyLargeTopologies)->Unit(benchmark::kMillisecond);

void BM_WhatIfStudyLargeTopologiesBroadcast(benchmark::State& state) {
  study(state, {"star:6", "hypercube:10", "debruijn:10", "torus:32x32"}, Collective::BROADCAST);
}
BENCHMARK(BM_WhatIfStudyLargeTopologiesBroadcast)->Unit(benchmark::kMillisecond);

}  // namespace
