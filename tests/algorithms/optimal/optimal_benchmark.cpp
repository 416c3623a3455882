// Exact optima by SAT (S_4 gossip proved optimal) and the uniform search's bitset kernel and
// beam searches on S_9 and S_10: the performance goals of docs/optimal.md and docs/beyond.md.
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/topology/families.hpp>

#include <benchmark/benchmark.h>

namespace {

namespace opt = starnet::algorithms::optimal;

void BM_OptimalGossipProof(benchmark::State& state, const char* spec) {
  const auto t = starnet::topology::make_topology(spec);
  std::uint64_t optimum = 0;
  for (auto _ : state) {
    opt::OptimalSearch s;
    s.topology(*t, spec).goal(opt::Goal::GOSSIP);
    const auto& r = s.run().result();
    if (!r.optimum || !r.schedule_verified) state.SkipWithError("not proved");
    optimum = r.optimum.value_or(0);
  }
  state.counters["optimum"] = static_cast<double>(optimum);
}
BENCHMARK_CAPTURE(BM_OptimalGossipProof, star4, "star:4")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OptimalGossipProof, hypercube4, "hypercube:4")->Unit(benchmark::kMillisecond);

/// One step P ∪ τ∘P on S_n with |P| about n!/2.
void BM_UniformStep(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto g = opt::CayleyGroup::star(n);
  auto p = g.identity_set();
  opt::CayleyGroup::Set q;
  for (int k = 2; opt::CayleyGroup::count(p) * 2 < g.order(); k = k == n ? 2 : k + 1) {
    g.step(p, k, q);
    std::swap(p, q);
  }
  for (auto _ : state) {
    g.step(p, 2, q);
    benchmark::DoNotOptimize(q.data());
  }
  state.counters["set_elements"] = static_cast<double>(opt::CayleyGroup::count(p));
  state.counters["elements_per_second"] =
      benchmark::Counter(static_cast<double>(opt::CayleyGroup::count(p)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_UniformStep)->Arg(8)->Arg(9)->Arg(10)->Unit(benchmark::kMillisecond);

void BM_UniformBeam(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto width = static_cast<std::size_t>(state.range(1));
  const auto g = opt::CayleyGroup::star(n);
  std::size_t steps = 0;
  for (auto _ : state) steps = opt::uniform_beam(g, width, n * (n - 1) / 2, 0).dimensions.size();
  state.counters["steps"] = static_cast<double>(steps);
}
BENCHMARK(BM_UniformBeam)->Args({9, 200})->Args({10, 20})->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
