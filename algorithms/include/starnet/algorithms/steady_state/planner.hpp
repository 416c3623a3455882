#pragma once
/// @file
/// From a steady-state problem to a certified periodic schedule, end to end (Legrand, Marchal,
/// Robert 2004, Sections 3–4): exact LP optimum (solver.hpp) → period T and integer solution A
/// → circulations removed → trees (trees.hpp, Figure 8) → matchings (matchings.hpp) → periodic
/// schedule with start-up and clean-up, optionally with whole messages and a fixed-period
/// approximation (schedule.hpp).
///
/// Complexity: dominated by the LP (exact_lp.hpp) for all but tiny platforms.
///
/// IMPORTANT: the planner certifies what it builds (verify()); it runs nothing — executing the
/// schedule is the emulator's job.

#include <starnet/algorithms/steady_state/problem.hpp>
#include <starnet/algorithms/steady_state/schedule.hpp>
#include <starnet/algorithms/steady_state/solver.hpp>
#include <starnet/algorithms/steady_state/trees.hpp>

#include <gmpxx.h>

#include <optional>
#include <vector>

namespace starnet::algorithms::steady_state {

/// Usage:
/// @code
///   const auto problem = SteadyStateProblem::reduce(platform, {"P0", "P1", "P2"}, "P0");
///   SteadyStatePlanner planner(problem);
///   planner.whole_messages(true).fixed_period(mpq_class(10));
///   if (planner.run() == Status::OPTIMAL && planner.verify()) run_on_emulator(planner.schedule());
/// @endcode
class SteadyStatePlanner {
 public:
  /// @p problem must outlive the planner.
  explicit SteadyStatePlanner(const SteadyStateProblem& problem);

  /// Apply the paper's second lcm to the optimal schedule so that no message is split across
  /// matchings (default off). The fixed-period schedule keeps the period asked for.
  SteadyStatePlanner& whole_messages(bool on);
  /// Also build the Section 4.6 approximation with exactly this period (default none); its
  /// throughput is at least TP − trees().size() / period (Proposition 4). Must be > 0.
  SteadyStatePlanner& fixed_period(std::optional<mpq_class> period);
  /// Passed to the LP solver (0: none).
  SteadyStatePlanner& iteration_limit(int limit);

  /// Solves and builds every result below.
  /// @throws SolverError when GLPK cannot solve the LP; InputError for a fixed period ≤ 0.
  Status run();

  /// @pre run() returned (as every query below); the others also need status() == OPTIMAL.
  [[nodiscard]] Status status() const { return solver_.status(); }
  [[nodiscard]] const SteadyStateSolver& solver() const { return solver_; }
  [[nodiscard]] const mpq_class& throughput() const { return solver_.throughput(); }
  /// A after cancel_circulations(): tasks per period of the LP period T.
  [[nodiscard]] const std::vector<mpz_class>& integer_solution() const { return amounts_; }
  /// The trees (routes for scatter and gossip) with Σ w(T)·χ_T = integer_solution().
  [[nodiscard]] const std::vector<WeightedTree>& trees() const { return trees_; }
  /// The optimal periodic schedule (period T, or T·L with whole messages).
  [[nodiscard]] const PeriodicSchedule& schedule() const { return schedule_; }
  /// The fixed-period approximation, when a fixed period was set.
  [[nodiscard]] const std::optional<PeriodicSchedule>& fixed_schedule() const { return fixed_; }

  /// Re-checks everything exactly: the LP certificate (check_optimality), that A/T is still
  /// optimal with the same dual, Σ w(T)·χ_T = A (check_trees), and check_schedule() on both
  /// schedules, the optimal one serving TP·period operations per period.
  [[nodiscard]] CertificateCheck verify() const;

 private:
  const SteadyStateProblem& problem_;
  SteadyStateSolver solver_;
  bool whole_messages_ = false;
  std::optional<mpq_class> fixed_period_;
  std::vector<mpz_class> amounts_;
  std::vector<WeightedTree> trees_;
  PeriodicSchedule schedule_;
  std::optional<PeriodicSchedule> fixed_;
};

}  // namespace starnet::algorithms::steady_state
