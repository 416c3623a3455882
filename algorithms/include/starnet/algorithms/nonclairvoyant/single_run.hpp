#pragma once
/// @file
/// Single runs of the four non-clairvoyant reductions on costs chosen by the caller: fixed
/// heterogeneous costs d_ij, c_i (exact rationals; the worst-case instances of Section 4), a
/// clairvoyant schedule with processors relabelled (the optima those instances are compared
/// with), or the random costs of run r of a Monte-Carlo study, with the emulator's trace.
///
/// Paper: A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for
/// heterogeneous platforms", Concurrency Computat.: Pract. Exper. 2014, Sections 3–4.
/// Model as in tree_dyn.hpp: d_ij is the time to send a value from P_i to P_j, c_i the time of
/// one reduction on P_i; the emulator (timed, arbitrated, complete graph) reveals them.
///
/// Complexity: one run is O(n log n) emulator work plus the trace when asked for.
/// emulate_study_run() is MonteCarlo's own run r (montecarlo.cpp), with the trace kept: one runner
/// (runner.hpp) serves the studies and every single run here.

#include <starnet/algorithms/nonclairvoyant/fixed_costs.hpp>
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/core/rational.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// What one emulated reduction gave.
template <class Time>
struct Emulation {
  Time makespan{};
  /// The result was checked: the sum of all values, and for the algorithms that support a
  /// non-commutative ⊕ (and relabelled trees, see emulate_tree()) as documented there.
  bool verified = false;
  /// Every event, when asked for (RunConfig::trace); what Gantt charts are drawn from.
  std::vector<emulator::TraceEvent<Time>> trace;
};

/// The plan Binomial-stat or Fibonacci-stat executes on n processors: static_tree() laid out by
/// trees::plan_asap() with unit costs (the plan's times are unused: machines go when ready), so
/// processor ids are the plan's machine ids. This is the plan MonteCarlo runs.
/// @throws UsageError for the dynamic algorithms or n < 1.
[[nodiscard]] trees::ReductionPlan static_plan(Algorithm a, int n);

/// Runs @p a once on fixed costs: n = costs.n() processors, exact times.
/// Verified as in MonteCarlo: the sum for all four, plus the interval order for the three that
/// support a non-commutative operator.
/// @throws Error when the run breaks the emulator's model (a bug). O(n log n) plus the trace.
[[nodiscard]] Emulation<Rational> emulate(Algorithm a, const FixedCosts& costs, bool trace = false);

/// Runs a clairvoyant schedule — @p plan at its planned times — on fixed costs, machine m of the
/// plan played by processor @p label[m]: strict checking, half-duplex single port, as the plan
/// program requires at planned times (trees/plan_program.hpp). Verified: the sum (a relabelled
/// tree need not combine neighbours) and no machine late for its planned start, which holds when
/// every cost the schedule meets is at most the plan's d and c.
/// @param label a permutation of 0..plan.n()−1; plan.n() must equal costs.n().
/// @throws InputError when @p label is not a permutation of the right size (naming the entry).
[[nodiscard]] Emulation<Rational> emulate_tree(const trees::ReductionPlan& plan, std::span<const int> label,
                                               const FixedCosts& costs, bool trace = false);

/// Run @p run_index of a MonteCarlo study with @p seed on @p scenario, for algorithm @p a: the
/// study's own computation, hence its sample's makespan, with the trace when asked for.
/// @throws InputError / UsageError as MonteCarlo::scenario().
[[nodiscard]] Emulation<double> emulate_study_run(Algorithm a, const Scenario& scenario, std::uint64_t seed,
                                                  std::uint64_t run_index, bool trace = true);

}  // namespace starnet::algorithms::nonclairvoyant
