#pragma once
/// @file
/// Reduction trees (Canon and Antoniu, INRIA RR-7898, 2012) as library calls: plan one reduction
/// of n elements, check the plan against the model and the order in which it combines, run it on
/// the emulator at its planned times; and the Figure 2 study of the strategies' ratios.

#include <starnet/algorithms/trees/plan.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>
#include <starnet/emulator/run_result.hpp>
#include <starnet/topology/complete_graph.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::api {

/// Plans are kept in memory whole (about 100 bytes per machine).
inline constexpr int MAX_REDUCE_ELEMENTS = 10'000'000;
/// Concatenated values grow with n: the non-commutative check is kept to sizes it stays cheap at.
inline constexpr int MAX_CONCAT_ELEMENTS = 20'000;

/// The operator the plan is checked with: `sum` (64-bit words, commutative) or `concat` (strings
/// "[i]", not commutative: the plan must combine in order).
enum class ReduceOp : std::uint8_t { SUM, CONCAT };
/// @throws UsageError about @p setting for anything but sum or concat.
[[nodiscard]] ReduceOp parse_reduce_op(std::string_view text, std::string_view setting = "op");
[[nodiscard]] std::string_view to_string(ReduceOp op);
/// The planning algorithms (greedy, greedy-transfers, …). @throws UsageError about "algorithm".
using algorithms::trees::parse_algorithm;
using algorithms::trees::algorithm_names;
using algorithms::trees::to_string;

/// Figure 2's largest n unless told.
inline constexpr int DEFAULT_FIGURE2_MAX_N = 10'000;

struct ReduceRequest {
  algorithms::trees::Algorithm algorithm = algorithms::trees::Algorithm::GREEDY;
  int n = 10;
  Rational d = 1;  ///< transfer cost ≥ 0
  Rational c = 1;  ///< computation cost ≥ 0
  std::optional<int> k;
  ReduceOp op = ReduceOp::SUM;
  bool trace = false;
};

struct ReduceResult {
  ReduceRequest request;
  algorithms::trees::ReductionPlan plan;
  algorithms::trees::PlanCheck check;
  bool in_order = false;  ///< folding the plan gives v_0 ⊕ … ⊕ v_(n−1) in order
  emulator::RunResult<Rational> run;  ///< the plan on the emulator (strict single-port half duplex, timed)
  algorithms::trees::PlanRunReport report;
  bool root_right = false;
  std::string root_shown;  ///< the root's final value, readable
  Rational lower_bound;    ///< Lemma 5
  Rational upper_bound;    ///< Proposition 6
  std::optional<Rational> limited_upper_bound;  ///< Proposition 8, with K
  std::shared_ptr<const topology::CompleteGraph> machines;

  [[nodiscard]] bool emulated_as_planned() const {
    return run.makespan == plan.length && report.late == 0 && root_right;
  }
  /// The plan is valid, combines in order and runs on the emulator exactly as planned.
  [[nodiscard]] bool verified() const { return check.valid && in_order && emulated_as_planned(); }
  /// What failed, when not verified.
  [[nodiscard]] std::string problem() const;
  /// The document of `starnet reduce --algo … --json`.
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  /// The title of the run's Gantt chart: "greedy reduction on complete:6: makespan 5".
  [[nodiscard]] std::string run_title() const;
};

/// @throws UsageError about "n", "d", "c" (negative), "k" or "op" (concat beyond
/// MAX_CONCAT_ELEMENTS); OverflowError naming them when an exact time does not fit.
[[nodiscard]] ReduceResult plan_reduction(const ReduceRequest& request);

struct Figure2Result {
  int max_n = 0;
  std::vector<algorithms::trees::Figure2Row> rows;
  Rational binomial_max = 0;  ///< the largest ratio of the binomial strategy, d = c
  int binomial_at = 0;
  Rational fibonacci_max = 0;  ///< … of the Fibonacci strategy, min(d, c) = 0
  int fibonacci_at = 0;
  /// Theorems 18 and 19: every ratio lies in [1, 2].
  bool verified = false;
  [[nodiscard]] nlohmann::ordered_json to_json() const;
  [[nodiscard]] std::string csv() const;
};

/// @throws UsageError about "max_n" outside 2..MAX_REDUCE_ELEMENTS.
[[nodiscard]] Figure2Result reduce_figure2(int max_n);

}  // namespace starnet::api
