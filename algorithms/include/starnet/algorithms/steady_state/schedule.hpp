#pragma once
/// @file
/// The periodic schedule as plain data for an emulator, its start-up / steady / clean-up phases,
/// and the fixed-period approximation.
///
/// Paper: Legrand, Marchal, Robert 2004, Sections 3.3–3.4 (schedule from matchings, start-up and
/// clean-up, Lemma 1 and Proposition 1), 4.3 (one tree per time-stamp) and 4.6 (Proposition 4).
///
/// How a PeriodicSchedule runs. Period q covers [q·period, (q+1)·period).
/// - Communications: the matchings run back to back from the start of the period, matching k
///   during [Σ_{j<k} d_j, Σ_{j≤k} d_j) (d = duration). In a matching every node sends on at most
///   one link and receives on at most one (strict one-port); the transfers listed on one link
///   run one after the other from the matching's start, `amount` messages of `type` each.
/// - Computations overlap communications: a processor performs its listed computations one after
///   the other anywhere in the period (their total time is at most the period: α(P_i) ≤ 1).
/// - Phases (Section 3.4): the schedule is run for R repetitions. A transfer or computation with
///   start period s is performed in periods s, s+1, …, s+R−1 only. A message received or
///   computed in period q is used from period q+1 on, so no buffer ever runs dry; periods
///   [0, D) form the start-up (D = startup_periods), [D, R) the steady state and [R, R+D) the
///   clean-up, and every sink receives exactly R·operations_per_period results.
/// - A tree of weight w serves w operations (time-stamps) per period: a message of a given
///   time-stamp follows the transfers and computations whose `tree` is that time-stamp's tree,
///   so partial reduce results of different time-stamps never meet.
///
/// Complexity: linear in the size of the trees plus decompose_into_matchings().
///
/// IMPORTANT: amounts are exact rationals; a transfer may carry a fraction of a message unless
/// with_whole_messages() was applied. Quantities can exceed 64 bits when the LP period is large
/// (to_rational() converts them exactly, whatever their size).

#include <starnet/algorithms/steady_state/emulation.hpp>
#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/algorithms/steady_state/matchings.hpp>
#include <starnet/algorithms/steady_state/problem.hpp>
#include <starnet/algorithms/steady_state/trees.hpp>

#include <gmpxx.h>

#include <vector>

namespace starnet::algorithms::steady_state {

/// `amount` tasks `task` (a computation) on `node` per period for tree `tree`, taking
/// amount·problem.tasks()[task].time; performed from period `start_period` on.
struct Computation {
  Vertex node = 0;
  int task = 0;
  int tree = 0;
  mpq_class amount;
  int start_period = 0;
};

struct PeriodicSchedule {
  mpq_class period;                       ///< time units
  mpz_class operations_per_period;        ///< results each sink receives per steady-state period
  std::vector<WeightedTree> trees;        ///< weights per period
  std::vector<Matching> matchings;        ///< back to back from the start of each period
  std::vector<Computation> computations;  ///< overlap the matchings
  int startup_periods = 0;                ///< D: largest start period of any task
  /// operations_per_period / period.
  [[nodiscard]] mpq_class throughput() const { return mpq_class(operations_per_period) / period; }
};

/// The schedule of @p trees (weights per period) repeated every @p period time units.
/// @pre the trees' one-port and compute loads fit in @p period (true for trees extracted from
///   an LP solution with its period, and for fixed_period_schedule()).
[[nodiscard]] PeriodicSchedule build_periodic_schedule(const SteadyStateProblem& problem,
                                                       std::vector<WeightedTree> trees, const mpq_class& period);

/// The paper's second lcm (Section 3.3): multiplies the period, durations, amounts and weights by
/// the lcm L of the denominators of all transfer amounts, so that no message is split across
/// matchings. Throughput unchanged.
[[nodiscard]] PeriodicSchedule with_whole_messages(PeriodicSchedule schedule);

/// Section 4.6: the trees of an optimal schedule of period @p period re-weighted for a period
/// of @p fixed_period: r(T) = ⌊w(T)·fixed_period / period⌋. Every sink is served the same
/// number of operations (the smallest Σ r over one sink's trees; larger ones are trimmed, which
/// changes nothing for a reduce's single sink). Proposition 4: the throughput is at least
/// TP − card(trees) / fixed_period, and tends to TP as fixed_period grows.
/// @throws InputError naming the period when @p fixed_period ≤ 0.
[[nodiscard]] PeriodicSchedule fixed_period_schedule(const SteadyStateProblem& problem,
                                                     const std::vector<WeightedTree>& trees, const mpq_class& period,
                                                     const mpq_class& fixed_period);

/// Checks a schedule exactly: its trees are valid trees of @p problem serving every sink
/// operations_per_period times; check_matchings(); computations cover each tree's computations
/// (amount w(T)) and fit in the period on every processor; start periods are start_periods().
[[nodiscard]] CertificateCheck check_schedule(const SteadyStateProblem& problem, const PeriodicSchedule& schedule);

/// @param optimal_throughput TP of the LP (for the bound). @param horizon K > 0.
/// @throws InputError naming the horizon when it is ≤ 0.
[[nodiscard]] PhasePlan plan_phases(const PeriodicSchedule& schedule, const mpq_class& optimal_throughput,
                                    const mpq_class& horizon);

}  // namespace starnet::algorithms::steady_state
