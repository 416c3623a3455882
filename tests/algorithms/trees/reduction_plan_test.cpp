#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/plan_validator.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>

#include <gtest/gtest.h>

#include <array>
#include <random>

namespace starnet::algorithms::trees {
namespace {

using testing::cost_grid;
using testing::describe;
using testing::expect_error;

/// A random rooted tree on n machines with shuffled labels (fixed seed).
std::vector<int> random_tree(int n, std::mt19937& rng) {
  std::vector<int> label(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) label[static_cast<std::size_t>(i)] = i;
  std::shuffle(label.begin(), label.end(), rng);
  std::vector<int> parent(static_cast<std::size_t>(n), -1);
  for (int i = 1; i < n; ++i) {
    const int p = std::uniform_int_distribution<int>(0, i - 1)(rng);
    parent[static_cast<std::size_t>(label[static_cast<std::size_t>(i)])] = label[static_cast<std::size_t>(p)];
  }
  return parent;
}

TEST(CostModel, RejectsNegativeCostsNamingThem) {
  expect_error<ScheduleError>([] { (void)CostModel(-1, 1); }, {"d = -1", "d >= 0"});
  expect_error<ScheduleError>([] { (void)CostModel(1, Rational(-1, 2)); }, {"c = -1/2", "c >= 0"});
  EXPECT_EQ(CostModel(2, 3).max_cost(), 3);
  EXPECT_EQ(CostModel(2, 3).min_cost(), 2);
}

// Section 3.1: k elements reduced on one machine take d + (k − 1)·max(d, c) + c — a flat tree.
TEST(ReductionPlan, FlatTreeTakesSection31Time) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 9; ++n) {
      std::vector<int> star(static_cast<std::size_t>(n), 0);
      star[0] = -1;
      const ReductionPlan plan = plan_asap("star", model, star);
      EXPECT_EQ(plan.length, model.d() + (n - 2) * model.max_cost() + model.c()) << describe(model) << " n=" << n;
      EXPECT_EQ(testing::expect_sound(plan, "star"), plan.length);
    }
  }
}

// Figure 1 (d = c, n = 4): transfers at 0, d and 2d into the sink, length 4d.
TEST(ReductionPlan, Figure1FlatTreeOfFourMachines) {
  const ReductionPlan plan = plan_asap("figure1", CostModel(2, 2), std::vector<int>{-1, 0, 0, 0});
  ASSERT_EQ(plan.transfers.size(), 3U);
  EXPECT_EQ(plan.transfers[0].start, 0);
  EXPECT_EQ(plan.transfers[1].start, 2);
  EXPECT_EQ(plan.transfers[2].start, 4);
  EXPECT_EQ(plan.length, 8);
}

// Proposition 3 as the formula t_i = max_j (t^j + d + (m − j)·max(d, c) + c) holds with t^j the
// j-th SMALLEST ready time; our copy prints "the j-th largest", which gives other values.
TEST(ReductionPlan, Proposition3OrdersReadyTimesAscending) {
  std::mt19937 rng(7);
  for (const CostModel& model : cost_grid()) {
    for (int trial = 0; trial < 200; ++trial) {
      const int m = std::uniform_int_distribution<int>(1, 7)(rng);
      std::vector<Rational> ready;
      for (int j = 0; j < m; ++j) ready.emplace_back(std::uniform_int_distribution<int>(0, 12)(rng), 2);
      std::sort(ready.begin(), ready.end());
      std::vector<Rational> starts(ready.size());
      asap_starts(ready, model, starts);
      Rational formula = 0;
      for (int j = 1; j <= m; ++j) {
        formula = std::max(formula, ready[static_cast<std::size_t>(j - 1)] + model.d() + (m - j) * model.max_cost() + model.c());
      }
      EXPECT_EQ(completion_time(starts, model), formula) << describe(model) << " m=" << m;
    }
  }
  // The root of the Fibonacci tree of order 3 receives from senders ready at 0, 0 and d + c.
  const CostModel model(1, 1);
  const std::array<Rational, 3> ready{0, 0, 2};
  const Rational largest_first = ready[2] + model.d() + 2 * model.max_cost() + model.c();  // printed reading
  std::array<Rational, 3> starts;
  asap_starts(ready, model, starts);
  EXPECT_EQ(completion_time(starts, model), 4);
  EXPECT_EQ(largest_first, 6);
  EXPECT_EQ(fibonacci_plan(5, model).length, 4);
}

// Section 4.1: whatever the labels of the input tree, the plan's ids are placed so that the
// reduction combines v_0 ⊕ … ⊕ v_(n−1) in order.
TEST(ReductionPlan, PlacementCombinesInOrderOnRandomTrees) {
  std::mt19937 rng(2012);
  for (const CostModel& model : cost_grid()) {
    for (int n = 1; n <= 40; ++n) {
      const std::vector<int> tree = random_tree(n, rng);
      const ReductionPlan plan = plan_asap("random", model, tree);
      EXPECT_EQ(plan.root, 0);
      EXPECT_EQ(testing::shape(plan.parent), testing::shape(tree)) << " n=" << n;
      EXPECT_EQ(testing::expect_sound(plan, "random n=" + std::to_string(n)), plan.length) << describe(model);
    }
  }
}

TEST(ReductionPlan, CombineSumsAndDetectsMisplacedIds) {
  ReductionPlan plan = plan_asap("chain", CostModel(1, 1), std::vector<int>{-1, 0, 1});
  EXPECT_EQ(combine(plan, std::vector<int>{1, 2, 3}, std::plus<>()), 6);
  EXPECT_EQ(combine(plan, std::vector<std::string>{"a", "b", "c"}, std::plus<>()), "abc");
  std::swap(plan.children[0], plan.children[1]);  // no longer a tree from the root
  expect_error<ScheduleError>([&] { (void)combine(plan, std::vector<int>{1, 2, 3}, std::plus<>()); }, {"root 0"});
  expect_error<ScheduleError>([&] { (void)combine(plan, std::vector<int>{1, 2}, std::plus<>()); },
                              {"2 values", "3 machines"});
}

// Start times whose common denominator overflows 64 bits are still sorted exactly.
TEST(ReductionPlan, SortsTransfersWhenDenominatorsOverflow) {
  const std::vector<Rational> start{0, Rational(3, 2147483647), Rational(2, 2147483629), Rational(1, 2147483587)};
  const ReductionPlan plan = plan_at("primes", CostModel(0, 0), std::vector<int>{-1, 0, 0, 0}, start);
  ASSERT_EQ(plan.transfers.size(), 3U);
  EXPECT_EQ(plan.transfers[0].start, Rational(1, 2147483587));
  EXPECT_EQ(plan.transfers[1].start, Rational(2, 2147483629));
  EXPECT_EQ(plan.transfers[2].start, Rational(3, 2147483647));
  EXPECT_TRUE(check_plan(plan).valid) << check_plan(plan).problem;
}

TEST(ReductionPlan, RejectsParentArraysThatAreNotOneTree) {
  const CostModel model(1, 1);
  expect_error<ScheduleError>([&] { (void)plan_asap("x", model, std::vector<int>{}); }, {"n = 0", "n >= 1"});
  expect_error<ScheduleError>([&] { (void)plan_asap("x", model, std::vector<int>{-1, -1}); },
                              {"machines 0 and 1", "exactly one root"});
  expect_error<ScheduleError>([&] { (void)plan_asap("x", model, std::vector<int>{0, 0}); }, {"machine 0", "parent 0"});
  expect_error<ScheduleError>([&] { (void)plan_asap("x", model, std::vector<int>{-1, 5}); }, {"machine 1", "parent 5"});
  expect_error<ScheduleError>([&] { (void)plan_asap("x", model, std::vector<int>{-1, 2, 1}); }, {"machine 1", "cycle"});
  expect_error<ScheduleError>([&] { (void)plan_asap("x", model, std::vector<int>{1, 0}); }, {"exactly one root"});
}

TEST(ReductionPlan, PlanAtRejectsInfeasibleTimes) {
  const CostModel model(2, 1);
  const std::vector<int> star{-1, 0, 0};
  const ReductionPlan ok = plan_at("explicit", model, star, std::vector<Rational>{0, 5, 1});
  EXPECT_EQ(ok.length, 8);                // receptions at 1 and 5, the second ends at 7, reduced by 8
  EXPECT_EQ(ok.children[0], (std::vector<int>{1, 2}));  // placement follows the start times
  expect_error<ScheduleError>([&] { (void)plan_at("explicit", model, star, std::vector<Rational>{0, 0, 1}); },
                              {"explicit", "overlap"});
  expect_error<ScheduleError>([&] { (void)plan_at("explicit", model, star, std::vector<Rational>{0, 0}); },
                              {"2 transfer start times", "3 machines"});
  expect_error<ScheduleError>(
      [&] { (void)plan_at("explicit", model, std::vector<int>{-1, 0, 1}, std::vector<Rational>{0, 2, 0}); },
      {"sends at 2", "complete only at 3"});
}

}  // namespace
}  // namespace starnet::algorithms::trees
