#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>

#include <bit>
#include <utility>

namespace starnet::algorithms::trees {
namespace {

void check_positive(std::int64_t n) {
  if (n < 1) throw ScheduleError("number of elements n = " + std::to_string(n) + " (expected n >= 1)");
}

}  // namespace

int floor_log2(std::int64_t n) {
  check_positive(n);
  return static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n))) - 1;
}

int ceil_log2(std::int64_t n) {
  check_positive(n);
  return static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1)));
}

std::int64_t fibonacci_number(int k) {
  if (k < 0 || k > 92) throw ScheduleError("Fibonacci index k = " + std::to_string(k) + " (expected 0 <= k <= 92)");
  if (k == 0) return 0;
  std::int64_t a = 0;  // F_(i-1)
  std::int64_t b = 1;  // F_i
  for (int i = 1; i < k; ++i) b = std::exchange(a, b) + b;  // stops at F_k: F_93 would overflow
  return b;
}

Rational optimal_length_lower_bound(int n, const CostModel& model) { return ceil_log2(n) * model.max_cost(); }

Rational optimal_length_upper_bound(int n, const CostModel& model) {
  return ceil_log2(n) * (model.d() + model.c());
}

Rational limited_length_upper_bound(int n, int k, const CostModel& model) {
  check_elements(n);
  if (k < 1 || k > max_concurrent_transfers_limit(n)) {
    throw ScheduleError("K = " + std::to_string(k) + " for n = " + std::to_string(n) +
                        " (Proposition 8 and Corollary 11 hold for 1 <= K <= floor(n/2) = " +
                        std::to_string(max_concurrent_transfers_limit(n)) + ")");
  }
  if (n == 1) return 0;
  const int doubling = floor_log2(k) + 1;
  const std::int64_t rest = n - (std::int64_t{1} << doubling);  // >= 0 since 2^doubling <= 2K <= n
  const std::int64_t steps = doubling + (rest + k - 1) / k;
  return steps * (model.d() + model.c());
}

Rational binomial_tree_length(int order, const CostModel& model) {
  if (order < 0) throw ScheduleError("binomial tree order k = " + std::to_string(order) + " (expected k >= 0)");
  return order * (model.d() + model.c());
}

Rational fibonacci_tree_length(int order, const CostModel& model) {
  if (order < -1) throw ScheduleError("Fibonacci tree order k = " + std::to_string(order) + " (expected k >= -1)");
  if (order <= 0) return 0;
  return model.d() + (order - 1) * model.max_cost() + model.c();
}

Rational binomial_strategy_ratio_bound(const CostModel& model) {
  if (model.max_cost() == 0) return 1;
  return 1 + model.min_cost() / model.max_cost();
}

}  // namespace starnet::algorithms::trees
