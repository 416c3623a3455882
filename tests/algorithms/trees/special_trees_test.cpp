#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>

#include <gtest/gtest.h>

#include <utility>

namespace starnet::algorithms::trees {
namespace {

using testing::cost_grid;
using testing::describe;
using testing::expect_error;
using testing::expect_sound;

// Proposition 13: order k reduces 2^k elements in k(d + c), for every (d, c).
TEST(BinomialTree, Proposition13) {
  for (const CostModel& model : cost_grid()) {
    for (int order = 0; order <= 10; ++order) {
      const ReductionPlan plan = binomial_plan(1 << order, model);
      EXPECT_EQ(plan.n(), 1 << order);
      EXPECT_EQ(expect_sound(plan, "binomial order=" + std::to_string(order)), binomial_tree_length(order, model))
          << describe(model) << " order=" << order;
      EXPECT_EQ(testing::shape(plan.parent), testing::shape(binomial_tree(order)));
    }
  }
}

// Proposition 16: order k ≥ 1 reduces F_(k+2) elements in d + (k − 1)·max(d, c) + c.
TEST(FibonacciTree, Proposition16) {
  for (const CostModel& model : cost_grid()) {
    for (int order = -1; order <= 14; ++order) {
      const std::vector<int> tree = fibonacci_tree(order);
      EXPECT_EQ(static_cast<std::int64_t>(tree.size()), fibonacci_number(order + 2)) << " order=" << order;
      const ReductionPlan plan = plan_asap("fibonacci", model, tree);
      EXPECT_EQ(expect_sound(plan, "fibonacci order=" + std::to_string(order)), fibonacci_tree_length(order, model))
          << describe(model) << " order=" << order;
    }
  }
}

/// Definition 15 exactly as our copy prints it: order k−2 tree whose sink receives from the sink
/// of an order k−1 tree.
std::vector<int> printed_fibonacci_tree(int order) {
  std::vector<int> older{-1};
  std::vector<int> tree{-1};
  for (int k = 1; k <= order; ++k) {
    std::vector<int> next = older;  // order k-2 keeps the sink
    const int offset = static_cast<int>(next.size());
    for (const int p : tree) next.push_back(p == -1 ? 0 : p + offset);
    older = std::exchange(tree, std::move(next));
  }
  return tree;
}

// The printed Definition 15 has the right sizes but contradicts Proposition 16 from order 2 on
// (a chain of three instead of a sink with two leaves) whenever min(d, c) > 0.
TEST(FibonacciTree, PrintedDefinition15ContradictsProposition16) {
  const CostModel model(2, 3);
  EXPECT_EQ(printed_fibonacci_tree(2), (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(fibonacci_tree(2), (std::vector<int>{-1, 0, 0}));
  EXPECT_EQ(plan_asap("printed", model, printed_fibonacci_tree(2)).length, 2 * (model.d() + model.c()));
  EXPECT_EQ(fibonacci_tree_length(2, model), model.d() + model.max_cost() + model.c());
  for (int order = 2; order <= 12; ++order) {
    EXPECT_EQ(printed_fibonacci_tree(order).size(), fibonacci_tree(order).size());
    EXPECT_GT(plan_asap("printed", model, printed_fibonacci_tree(order)).length, fibonacci_tree_length(order, model))
        << " order=" << order;
  }
}

TEST(SpecialTrees, RejectSizesTheyDoNotHave) {
  const CostModel model(1, 1);
  expect_error<ScheduleError>([&] { (void)binomial_plan(6, model); }, {"n = 6", "power of two", "4 and 8"});
  expect_error<ScheduleError>([&] { (void)binomial_plan(0, model); }, {"n = 0", "n >= 1"});
  expect_error<ScheduleError>([&] { (void)fibonacci_plan(4, model); }, {"n = 4", "Fibonacci number", "3 and 5"});
  expect_error<ScheduleError>([&] { (void)fibonacci_plan(-1, model); }, {"n = -1", "n >= 1"});
  expect_error<ScheduleError>([] { (void)binomial_tree(-1); }, {"order k = -1", "0 <= k <= 30"});
  expect_error<ScheduleError>([] { (void)fibonacci_tree(43); }, {"order k = 43", "-1 <= k <= 42"});
  expect_error<ScheduleError>([&] { (void)binomial_strategy_plan(0, model); }, {"n = 0"});
  expect_error<ScheduleError>([&] { (void)fibonacci_strategy_plan(0, model); }, {"n = 0"});
  EXPECT_EQ(fibonacci_plan(1, model).length, 0);
  EXPECT_EQ(binomial_plan(1, model).length, 0);
}

// Section 7.3: the strategies build binomial (n = 2^k) and Fibonacci (n = F_(k+2)) trees
// whatever the costs.
TEST(Strategies, BuildTheirTreesForTheirSizes) {
  for (const CostModel& model : cost_grid()) {
    for (int order = 0; order <= 8; ++order) {
      EXPECT_EQ(binomial_strategy_plan(1 << order, model).length, binomial_tree_length(order, model))
          << describe(model) << " order=" << order;
      const auto n = static_cast<int>(fibonacci_number(order + 2));
      EXPECT_EQ(fibonacci_strategy_plan(n, model).length, fibonacci_tree_length(order, model))
          << describe(model) << " order=" << order;
    }
  }
}

// Theorems 18 and 19: within (1 + min/max) and 2 of the optimum (and of Lemma 5's bound).
TEST(Strategies, Theorems18And19ApproximationRatios) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 1; n <= 400; n += (n < 50 ? 1 : 23)) {
      const std::string context = "n=" + std::to_string(n) + describe(model);
      const Rational optimum = greedy_tree(n, model).length;
      const Rational binomial = expect_sound(binomial_strategy_plan(n, model), "binomial strategy " + context);
      const Rational fibonacci = expect_sound(fibonacci_strategy_plan(n, model), "fibonacci strategy " + context);
      EXPECT_LE(optimum, binomial) << context;
      EXPECT_LE(optimum, fibonacci) << context;
      EXPECT_LE(binomial, optimal_length_upper_bound(n, model)) << context;
      EXPECT_LE(binomial, binomial_strategy_ratio_bound(model) * optimal_length_lower_bound(n, model)) << context;
      EXPECT_LE(fibonacci, 2 * optimal_length_lower_bound(n, model)) << context;
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::trees
