#pragma once
/// @file
/// What the reduction-tree algorithms of Canon and Antoniu (INRIA RR-7898, 2012) are asked and
/// answer, apart from the planner, the validator, the plan program and the Figure 2 study that
/// compute it (tree_planner.hpp, plan_validator.hpp, plan_program.hpp, figure2_study.hpp): the
/// algorithms by name, a plan's verdict, a plan run's report, and a row of Figure 2.

#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::trees {

enum class Algorithm {
  GREEDY,              ///< Algorithm 1, optimal (Theorem 4)
  GREEDY_TRANSFERS,    ///< Algorithm 2, at most K concurrent transfers (Theorem 7)
  GREEDY_REDUCERS,     ///< Algorithm 3, at most K reducers (Theorem 9)
  BINOMIAL,            ///< binomial tree, n = 2^k (Definition 12)
  FIBONACCI,           ///< Fibonacci tree, n = F_(k+2) (Definition 15)
  BINOMIAL_STRATEGY,   ///< Algorithm 1 with min(d, c) set to 0 (Section 7.3)
  FIBONACCI_STRATEGY,  ///< Algorithm 1 with d = c (Section 7.3)
};

/// "greedy", "greedy-transfers", "greedy-reducers", "binomial", "fibonacci",
/// "binomial-strategy", "fibonacci-strategy".
[[nodiscard]] std::string_view to_string(Algorithm algorithm);

/// The comma-separated list of every algorithm name, for help and error messages.
[[nodiscard]] std::string algorithm_names();

/// @throws UsageError naming @p name and listing the algorithms when it is none of them.
[[nodiscard]] Algorithm parse_algorithm(std::string_view name);

/// Whether the algorithm takes the limit K (Algorithms 2 and 3).
[[nodiscard]] bool takes_limit(Algorithm algorithm);

/// The verdict on a plan (a result, not an exception: an invalid plan is an answer).
struct PlanCheck {
  bool valid = false;
  std::string problem;               ///< the first violation found, naming machines and times; empty if valid
  Rational length;                   ///< the length recomputed from the transfers (when the tree is sound)
  int max_concurrent_transfers = 0;  ///< most transfers in progress at one instant ([start, start + d))
  int reducers = 0;                  ///< machines that receive at least one partial result
};

/// What a run of a plan program says about itself (NodeProgram::report(), merged).
struct PlanRunReport {
  bool root_done = false;
  std::string root_value;  ///< the root's final value (encoded)
  std::uint64_t late = 0;  ///< machines not ready at their planned start time
  [[nodiscard]] static PlanRunReport merge(const std::vector<std::string>& reports);
};

/// One n of Figure 2.
struct Figure2Row {
  int n = 0;
  Rational binomial_length;     ///< binomial strategy, d = c = 1
  Rational equal_cost_optimum;  ///< Algorithm 1, d = c = 1
  Rational fibonacci_length;    ///< Fibonacci strategy, d = 1, c = 0
  Rational zero_cost_optimum;   ///< Algorithm 1, d = 1, c = 0
  [[nodiscard]] Rational binomial_ratio() const { return binomial_length / equal_cost_optimum; }
  [[nodiscard]] Rational fibonacci_ratio() const { return fibonacci_length / zero_cost_optimum; }
};

}  // namespace starnet::algorithms::trees
