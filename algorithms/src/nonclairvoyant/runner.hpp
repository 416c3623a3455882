#pragma once
// One emulated run of a non-clairvoyant algorithm: the programs it runs and the check of its
// result, shared by MonteCarlo (montecarlo.cpp) and the single runs (single_run.cpp) so that a
// study's sample and a single run with its trace are the same computation.
// Private to the nonclairvoyant part.

#include <starnet/algorithms/nonclairvoyant/reduce_value.hpp>
#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/complete_graph.hpp>

#include <string>

namespace starnet::algorithms::nonclairvoyant {

/// What every run on n processors shares: the platform, the checked operator with the value a
/// right reduction leaves, and the plans of the static algorithms (static_plan()).
struct Prepared {
  explicit Prepared(int n);
  topology::CompleteGraph graph;
  CheckedOperator op;
  std::string expected;
  trees::ReductionPlan plans[2];  // indexed by Algorithm::BINOMIAL_STAT, FIBONACCI_STAT
};

/// Runs @p a once with @p costs (timed, arbitrated, as the papers' model) on @p engine and checks
/// the result: the sum for all four, the interval order too for the three that support it.
template <class Time>
Emulation<Time> run_algorithm(Algorithm a, const Prepared& p, const emulator::CostModel<Time>& costs,
                              emulator::LocalEngine<Time>& engine, bool trace);

}  // namespace starnet::algorithms::nonclairvoyant
