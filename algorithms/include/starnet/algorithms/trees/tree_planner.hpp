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

#include <starnet/algorithms/trees/plan.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace starnet::algorithms::trees {

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
