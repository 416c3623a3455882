#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/tree_brute_force.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::trees {
namespace {

using testing::cost_grid;
using testing::describe;
using testing::expect_error;

// Small cases by hand: one element, a pair, and three (a chain 2(d + c) or a sink with two
// leaves d + max(d, c) + c).
TEST(BruteForce, SmallCasesByHand) {
  for (const CostModel& model : cost_grid()) {
    const Rational pair = model.d() + model.c();
    EXPECT_EQ(brute_force_optimal_length(1, model), 0);
    EXPECT_EQ(brute_force_optimal_length(2, model), pair);
    EXPECT_EQ(brute_force_optimal_length(3, model), std::min(2 * pair, pair + model.max_cost())) << describe(model);
    EXPECT_EQ(brute_force_transfer_limited_length(1, 1, model), 0);
    EXPECT_EQ(brute_force_transfer_limited_length(2, 1, model), pair);
  }
}

// One reducer leaves only the flat tree: d + (n − 2)·max(d, c) + c (Section 3.1).
TEST(BruteForce, OneReducerIsTheFlatTree) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 9; ++n) {
      EXPECT_EQ(brute_force_optimal_length(n, model, 1), model.d() + (n - 2) * model.max_cost() + model.c())
          << describe(model) << " n=" << n;
    }
  }
}

// The two oracles share nothing but the model; without an effective limit they must agree.
TEST(BruteForce, OraclesAgreeWithoutALimit) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 1; n <= 6; ++n) {
      EXPECT_EQ(brute_force_transfer_limited_length(n, n, model), brute_force_optimal_length(n, model))
          << describe(model) << " n=" << n;
      EXPECT_EQ(brute_force_optimal_length(n, model, n), brute_force_optimal_length(n, model));
    }
  }
}

// One transfer at a time serialises everything: n − 1 transfers back to back, and the last
// reduction after the last one.
TEST(BruteForce, OneTransferAtATime) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 6; ++n) {
      EXPECT_GE(brute_force_transfer_limited_length(n, 1, model), (n - 1) * model.d() + model.c()) << describe(model);
    }
  }
}

TEST(BruteForce, RejectsSizesBeyondItsReach) {
  const CostModel model(1, 1);
  expect_error<ScheduleError>([&] { (void)brute_force_optimal_length(25, model); }, {"n = 25", "n <= 24"});
  expect_error<ScheduleError>([&] { (void)brute_force_optimal_length(0, model); }, {"n = 0"});
  expect_error<ScheduleError>([&] { (void)brute_force_optimal_length(4, model, 0); }, {"K = 0"});
  expect_error<ScheduleError>([&] { (void)brute_force_transfer_limited_length(8, 1, model); }, {"n = 8", "n <= 7"});
  expect_error<ScheduleError>([&] { (void)brute_force_transfer_limited_length(4, 0, model); }, {"K = 0"});
}

}  // namespace
}  // namespace starnet::algorithms::trees
