// Steady-state planning cost: end to end on a Figure-9-like platform (goal < 1 s), and how the
// exact LP solve grows with the number of participants on Tiers-like platforms.
#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/topology/families.hpp>

#include <benchmark/benchmark.h>

namespace {

namespace ss = starnet::algorithms::steady_state;
using starnet::Rational;

/// The first tiers:SEED platform (families.hpp) with 8 LAN processors, as in Figure 9.
starnet::topology::Platform figure9_like() {
  for (std::uint64_t seed = 1;; ++seed) {
    auto p = starnet::topology::tiers_platform(seed);
    std::size_t processors = 0;
    for (const auto v : boost::make_iterator_range(boost::vertices(p.graph()))) {
      processors += p.graph()[v].role == starnet::topology::Role::PROCESSOR;
    }
    if (processors == 8) return p;
  }
}

// Section 4.7: messages of size 10, tasks of work 10; 8 participants p0..p7, target p4.
// LP, exact certificate, trees, matchings, schedule, and every exact re-check (verify()).
void BM_SteadyStateReduceEndToEnd(benchmark::State& state) {
  const auto platform = figure9_like();
  const auto problem = ss::SteadyStateProblem::reduce(platform, ss::testing::names("p", 0, 8), "p4",
                                                      {[](int, int) { return Rational(10); },
                                                       [](int, int, int) { return Rational(10); }});
  std::size_t trees = 0;
  std::size_t matchings = 0;
  bool certified = false;
  for (auto _ : state) {
    ss::SteadyStatePlanner planner(problem);
    planner.fixed_period(mpq_class(100));
    planner.run();
    certified = static_cast<bool>(planner.verify());
    trees = planner.trees().size();
    matchings = planner.schedule().matchings.size();
    benchmark::DoNotOptimize(planner.throughput().get_mpq_t());
  }
  state.counters["nodes"] = static_cast<double>(platform.num_nodes());
  state.counters["trees"] = static_cast<double>(trees);
  state.counters["matchings"] = static_cast<double>(matchings);
  state.counters["certified"] = certified;
}
BENCHMARK(BM_SteadyStateReduceEndToEnd)->Unit(benchmark::kMillisecond);

enum Kind { SCATTER, GOSSIP, REDUCE };

// The exact LP solve alone (GLPK simplex + rational basis rebuild + certificate) for a given
// number of participants on tiers_like(1, n) (steady_state_platforms.hpp): n processors, about
// 1.7·n nodes.
void BM_SteadyStateSolve(benchmark::State& state) {
  const auto kind = static_cast<Kind>(state.range(0));
  const int n = static_cast<int>(state.range(1));
  const auto platform = ss::testing::tiers_like(1, n);
  const auto all = ss::testing::names("P", 0, n);
  const auto problem = kind == SCATTER  ? ss::SteadyStateProblem::scatter(platform, "P0", ss::testing::names("P", 1, n - 1))
                       : kind == GOSSIP ? ss::SteadyStateProblem::gossip(platform, all, all)
                                        : ss::SteadyStateProblem::reduce(platform, all, "P0");
  int rows = 0;
  int columns = 0;
  bool certified = false;
  for (auto _ : state) {
    ss::SteadyStateSolver solver(problem);
    solver.run();
    certified = solver.certified();
    rows = solver.linear_program().num_constraints();
    columns = solver.linear_program().num_variables();
  }
  state.SetLabel(kind == SCATTER ? "scatter" : kind == GOSSIP ? "gossip" : "reduce");
  state.counters["participants"] = n;
  state.counters["nodes"] = static_cast<double>(platform.num_nodes());
  state.counters["rows"] = rows;
  state.counters["columns"] = columns;
  state.counters["certified"] = certified;
}
BENCHMARK(BM_SteadyStateSolve)
    ->Args({SCATTER, 8})
    ->Args({SCATTER, 16})
    ->Args({SCATTER, 32})
    ->Args({GOSSIP, 8})
    ->Args({GOSSIP, 16})
    ->Args({REDUCE, 8})
    ->Args({REDUCE, 12})
    ->Unit(benchmark::kMillisecond);
// About 10–25 s on one core: run once.
BENCHMARK(BM_SteadyStateSolve)->Args({REDUCE, 16})->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
