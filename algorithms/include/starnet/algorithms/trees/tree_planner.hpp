#pragma once
/// @file
/// One entry point for every reduction-tree algorithm of Canon and Antoniu (RR-7898, 2012):
/// Algorithms 1–3 (Sections 5–6), the binomial and Fibonacci trees (Definitions 12 and 15) and
/// the binomial and Fibonacci strategies (Section 7.3). Used by `starnet reduce`.
/// Complexity: Θ(n log n) for every algorithm.
///
/// Every plan is placed for non-commutative operators (Section 4.1, see ReductionPlan), so no
/// algorithm here needs ⊕ to be commutative.
///
/// IMPORTANT: plans only; running a plan on the emulator is done elsewhere.

#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <optional>
#include <string>
#include <string_view>

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

/// What to plan.
struct PlanRequest {
  Algorithm algorithm = Algorithm::GREEDY;
  int n = 1;                    ///< number of elements (machines), ≥ 1
  CostModel model{1, 1};        ///< d and c
  std::optional<int> k;         ///< K, required by and only by takes_limit() algorithms
};

/// Builds the plan. Usage:
/// `auto plan = make_plan({Algorithm::GREEDY_TRANSFERS, 10, CostModel(2, 1), 3});`
/// @throws UsageError when K is missing for Algorithms 2–3 or given for another algorithm;
///   ScheduleError naming n or K (and the limit) when out of range. Θ(n log n).
[[nodiscard]] ReductionPlan make_plan(const PlanRequest& request);

}  // namespace starnet::algorithms::trees
