#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/figure2_study.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace starnet::algorithms::trees {
namespace {

using testing::cost_grid;
using testing::describe;
using testing::expect_error;

// The incremental lengths equal the plan of each prefix built from scratch.
TEST(PrefixLengths, EqualPlansOfEveryPrefix) {
  for (const CostModel& model : cost_grid()) {
    for (const std::vector<int>& tree : {fibonacci_strategy_tree(90), binomial_strategy_tree(90),
                                         greedy_tree(90, CostModel(2, 5)).parent}) {
      const std::vector<Rational> lengths = prefix_lengths(tree, model);
      for (int n = 1; n <= 90; ++n) {
        const std::vector<int> prefix(tree.begin(), tree.begin() + n);
        EXPECT_EQ(lengths[static_cast<std::size_t>(n - 1)], plan_asap("prefix", model, prefix).length)
            << describe(model) << " n=" << n;
      }
    }
  }
}

TEST(PrefixLengths, RejectsTreesNotInInsertionOrder) {
  const CostModel model(1, 1);
  expect_error<ScheduleError>([&] { (void)prefix_lengths(std::vector<int>{-1, 2, 0}, model); },
                              {"machine 1", "parent 2", "0..0"});
  expect_error<ScheduleError>([&] { (void)prefix_lengths(std::vector<int>{0, -1}, model); }, {"machine 0"});
}

TEST(Figure2Study, RatiosWithinTheorems18And19) {
  const std::vector<Figure2Row> rows = figure2_study(1500);
  ASSERT_EQ(rows.size(), 1499U);
  Rational worst_binomial = 1;
  Rational worst_fibonacci = 1;
  for (const Figure2Row& row : rows) {
    EXPECT_EQ(row.equal_cost_optimum, greedy_tree(row.n, CostModel(1, 1)).length) << " n=" << row.n;
    EXPECT_EQ(row.zero_cost_optimum, ceil_log2(row.n)) << " n=" << row.n;  // Lemma 5 is tight when c = 0
    EXPECT_GE(row.binomial_ratio(), 1) << " n=" << row.n;
    EXPECT_GE(row.fibonacci_ratio(), 1) << " n=" << row.n;
    EXPECT_LE(row.binomial_ratio(), 2) << " n=" << row.n;
    EXPECT_LE(row.fibonacci_ratio(), 2) << " n=" << row.n;
    worst_binomial = std::max(worst_binomial, row.binomial_ratio());
    worst_fibonacci = std::max(worst_fibonacci, row.fibonacci_ratio());
  }
  // Both strategies are strictly worse than the optimum somewhere.
  EXPECT_GT(worst_binomial, 1);
  EXPECT_GT(worst_fibonacci, 1);
  // Spot checks against plans built from scratch, and the (0, 1) symmetry.
  for (const int n : {2, 3, 10, 77, 1024, 1500}) {
    const Figure2Row& row = rows[static_cast<std::size_t>(n - 2)];
    EXPECT_EQ(row.binomial_length, binomial_strategy_plan(n, CostModel(1, 1)).length) << " n=" << n;
    EXPECT_EQ(row.fibonacci_length, fibonacci_strategy_plan(n, CostModel(1, 0)).length) << " n=" << n;
    EXPECT_EQ(row.fibonacci_length, fibonacci_strategy_plan(n, CostModel(0, 1)).length) << " n=" << n;
  }
}

TEST(Figure2Study, CsvHasAHeaderAndOneExactRowPerN) {
  const std::vector<Figure2Row> rows = figure2_study(20);
  const std::string csv = figure2_csv(rows);
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line.rfind("n,binomial_length,optimal_length_d_eq_c,binomial_ratio,", 0), 0U) << line;
  int count = 0;
  while (std::getline(in, line)) ++count;
  EXPECT_EQ(count, 19);
  EXPECT_NE(csv.find("\n2,2,2,1,1.000000,"), std::string::npos) << csv;
}

TEST(Figure2Study, RejectsMaxNBelowTwo) {
  expect_error<ScheduleError>([] { (void)figure2_study(1); }, {"max n = 1", "max n >= 2"});
}

}  // namespace
}  // namespace starnet::algorithms::trees
