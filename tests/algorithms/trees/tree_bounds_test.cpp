#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/tree_bounds.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::trees {
namespace {

using testing::expect_error;

TEST(TreeBounds, Logarithms) {
  EXPECT_EQ(ceil_log2(1), 0);
  EXPECT_EQ(ceil_log2(2), 1);
  EXPECT_EQ(ceil_log2(5), 3);
  EXPECT_EQ(ceil_log2(1024), 10);
  EXPECT_EQ(ceil_log2(1025), 11);
  EXPECT_EQ(floor_log2(1), 0);
  EXPECT_EQ(floor_log2(1023), 9);
  EXPECT_EQ(floor_log2(1024), 10);
  for (std::int64_t n = 1; n <= 5000; ++n) {
    EXPECT_LE(std::int64_t{1} << floor_log2(n), n);
    EXPECT_GT(std::int64_t{1} << (floor_log2(n) + 1), n);
    EXPECT_GE(std::int64_t{1} << ceil_log2(n), n);
  }
  expect_error<ScheduleError>([] { (void)ceil_log2(0); }, {"n = 0"});
}

TEST(TreeBounds, FibonacciNumbers) {
  EXPECT_EQ(fibonacci_number(0), 0);
  EXPECT_EQ(fibonacci_number(1), 1);
  EXPECT_EQ(fibonacci_number(2), 1);
  EXPECT_EQ(fibonacci_number(10), 55);
  EXPECT_EQ(fibonacci_number(92), 7540113804746346429);
  expect_error<ScheduleError>([] { (void)fibonacci_number(93); }, {"k = 93", "0 <= k <= 92"});
}

TEST(TreeBounds, ClosedForms) {
  const CostModel model(Rational(3, 2), 1);
  EXPECT_EQ(optimal_length_lower_bound(5, model), Rational(9, 2));
  EXPECT_EQ(optimal_length_upper_bound(5, model), Rational(15, 2));
  EXPECT_EQ(optimal_length_lower_bound(1, model), 0);
  EXPECT_EQ(binomial_tree_length(3, model), Rational(15, 2));
  EXPECT_EQ(fibonacci_tree_length(1, model), Rational(5, 2));
  EXPECT_EQ(fibonacci_tree_length(4, model), Rational(5, 2) + 3 * Rational(3, 2));
  EXPECT_EQ(fibonacci_tree_length(0, model), 0);
  EXPECT_EQ(binomial_strategy_ratio_bound(model), Rational(5, 3));
  EXPECT_EQ(binomial_strategy_ratio_bound(CostModel(0, 0)), 1);
  // K = 1: one doubling step, then one machine per step: n − 1 steps.
  EXPECT_EQ(limited_length_upper_bound(9, 1, CostModel(1, 1)), 16);
  EXPECT_EQ(limited_length_upper_bound(1, 1, CostModel(1, 1)), 0);
}

TEST(TreeBounds, RejectOutOfRangeArgumentsNamingThem) {
  const CostModel model(1, 1);
  expect_error<ScheduleError>([&] { (void)limited_length_upper_bound(8, 5, model); }, {"K = 5", "n = 8", "floor(n/2) = 4"});
  expect_error<ScheduleError>([&] { (void)limited_length_upper_bound(8, 0, model); }, {"K = 0"});
  expect_error<ScheduleError>([&] { (void)optimal_length_upper_bound(0, model); }, {"n = 0"});
  expect_error<ScheduleError>([&] { (void)optimal_length_lower_bound(-2, model); }, {"n = -2"});
  expect_error<ScheduleError>([] { (void)floor_log2(0); }, {"n = 0", "n >= 1"});
  expect_error<ScheduleError>([&] { (void)binomial_tree_length(-1, model); }, {"order k = -1"});
  expect_error<ScheduleError>([&] { (void)fibonacci_tree_length(-2, model); }, {"order k = -2"});
}

}  // namespace
}  // namespace starnet::algorithms::trees
