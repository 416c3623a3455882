#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>

#include <utility>

namespace starnet::algorithms::trees {
namespace {

/// @p below followed by @p attached, whose sink becomes a child of below's sink (machine 0).
std::vector<int> attach(std::vector<int> below, const std::vector<int>& attached) {
  const int offset = static_cast<int>(below.size());
  for (const int p : attached) below.push_back(p == -1 ? 0 : p + offset);
  return below;
}

}  // namespace

std::vector<int> binomial_tree(int order) {
  if (order < 0 || order > 30) {
    throw ScheduleError("binomial tree order k = " + std::to_string(order) + " (expected 0 <= k <= 30)");
  }
  std::vector<int> tree{-1};
  for (int k = 1; k <= order; ++k) tree = attach(tree, tree);
  return tree;
}

std::vector<int> fibonacci_tree(int order) {
  if (order < -1 || order > 42) {
    throw ScheduleError("Fibonacci tree order k = " + std::to_string(order) + " (expected -1 <= k <= 42)");
  }
  std::vector<int> older{-1};  // order k-2
  std::vector<int> tree{-1};   // order k-1
  for (int k = 1; k <= order; ++k) older = std::exchange(tree, attach(tree, older));
  return tree;
}

ReductionPlan binomial_plan(int n, const CostModel& model) {
  check_elements(n);
  const int order = floor_log2(n);
  if ((std::int64_t{1} << order) != n) {
    throw ScheduleError("binomial tree: n = " + std::to_string(n) +
                        " is not a power of two (a binomial tree of order k has 2^k elements; nearest: " +
                        std::to_string(std::int64_t{1} << order) + " and " +
                        std::to_string(std::int64_t{1} << (order + 1)) + ")");
  }
  return plan_asap("binomial", model, binomial_tree(order));
}

ReductionPlan fibonacci_plan(int n, const CostModel& model) {
  check_elements(n);
  int order = 0;  // n = 1 is order 0 (and -1)
  while (fibonacci_number(order + 2) < n) ++order;
  if (fibonacci_number(order + 2) != n) {
    throw ScheduleError("Fibonacci tree: n = " + std::to_string(n) +
                        " is not a Fibonacci number (a Fibonacci tree of order k has F(k+2) elements; nearest: " +
                        std::to_string(fibonacci_number(order + 1)) + " and " +
                        std::to_string(fibonacci_number(order + 2)) + ")");
  }
  return plan_asap("fibonacci", model, fibonacci_tree(order));
}

std::vector<int> binomial_strategy_tree(int n) { return greedy_tree(n, CostModel(1, 0)).parent; }

std::vector<int> fibonacci_strategy_tree(int n) { return greedy_tree(n, CostModel(1, 1)).parent; }

ReductionPlan binomial_strategy_plan(int n, const CostModel& model) {
  return plan_asap("binomial-strategy", model, binomial_strategy_tree(n));
}

ReductionPlan fibonacci_strategy_plan(int n, const CostModel& model) {
  return plan_asap("fibonacci-strategy", model, fibonacci_strategy_tree(n));
}

}  // namespace starnet::algorithms::trees
