#pragma once
/// @file
/// The exact optimum of a steady-state LP (problem.hpp), its period and its integer solution.
///
/// Paper: Legrand, Marchal, Robert 2004, Sections 3.1 and 4.2: "we compute the least common
/// multiple of the denominators of all the variables, which leads to a periodic schedule where
/// all quantities are integers". The period T is the lcm of the denominators of TP, of every
/// x_t, of every s(P_i → P_j) = Σ_{sends on (i,j)} time·x_t and of every α(P_i); the integer
/// solution is A(t) = T·x_t (tasks per period), so TP·T operations complete per period and
/// every link's and processor's busy time per period is an integer.
///
/// Complexity: one LP (exact_lp.hpp) plus O(tasks) rational operations.
///
/// IMPORTANT: T can be very large (it is not polynomial in the input size); the fixed-period
/// approximation (schedule.hpp) is the remedy. A is an optimal vertex of the LP and may contain
/// circulations; trees.hpp removes them before building a schedule.

#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/algorithms/steady_state/problem.hpp>

#include <gmpxx.h>

#include <vector>

namespace starnet::algorithms::steady_state {

/// Usage:
/// @code
///   const auto problem = SteadyStateProblem::scatter(platform, "Ps", {"P0", "P1"});
///   SteadyStateSolver solver(problem);
///   if (solver.run() == Status::OPTIMAL) fmt::print("TP = {}\n", solver.throughput().get_str());
/// @endcode
class SteadyStateSolver {
 public:
  /// Builds the LP of @p problem (which must outlive the solver).
  explicit SteadyStateSolver(const SteadyStateProblem& problem);
  SteadyStateSolver(const SteadyStateSolver&) = delete;  // lp_solver_ refers to lp_
  SteadyStateSolver& operator=(const SteadyStateSolver&) = delete;

  /// Passed to ExactLpSolver (0: none); reaching a limit throws SolverError.
  SteadyStateSolver& iteration_limit(int limit);
  SteadyStateSolver& time_limit_ms(int milliseconds);

  /// Solves the LP exactly and derives the period and integer solution.
  /// @throws SolverError when GLPK cannot solve the LP (the message says why).
  Status run();

  /// @pre run() returned.
  [[nodiscard]] Status status() const { return status_; }
  /// TP: operations per time unit. @pre status() == OPTIMAL (as every query below).
  [[nodiscard]] const mpq_class& throughput() const { return throughput_; }
  /// T: the period, in time units.
  [[nodiscard]] const mpz_class& period() const { return period_; }
  /// x_t: tasks of each kind per time unit.
  [[nodiscard]] const std::vector<mpq_class>& rates() const { return rates_; }
  /// A(t) = T·x_t: tasks of each kind per period.
  [[nodiscard]] const std::vector<mpz_class>& integer_solution() const { return integer_; }
  /// True when the LP optimum passed check_optimality() with the dual returned by the solver.
  [[nodiscard]] bool certified() const { return lp_solver_.certified(); }
  [[nodiscard]] const LinearProgram& linear_program() const { return lp_; }
  [[nodiscard]] const ExactLpSolver& lp_solver() const { return lp_solver_; }
  [[nodiscard]] const SteadyStateProblem& problem() const { return problem_; }

 private:
  const SteadyStateProblem& problem_;
  LinearProgram lp_;
  ExactLpSolver lp_solver_;
  Status status_ = Status::INFEASIBLE;
  mpq_class throughput_;
  mpz_class period_;
  std::vector<mpq_class> rates_;
  std::vector<mpz_class> integer_;
};

}  // namespace starnet::algorithms::steady_state
