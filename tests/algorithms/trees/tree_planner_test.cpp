#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/algorithms/trees/tree_brute_force.hpp>
#include <starnet/algorithms/trees/tree_planner.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::trees {
namespace {

using testing::cost_grid;
using testing::describe;
using testing::expect_error;
using testing::expect_sound;

constexpr Algorithm ALL[] = {Algorithm::GREEDY,    Algorithm::GREEDY_TRANSFERS,  Algorithm::GREEDY_REDUCERS,
                             Algorithm::BINOMIAL,  Algorithm::FIBONACCI,         Algorithm::BINOMIAL_STRATEGY,
                             Algorithm::FIBONACCI_STRATEGY};

TEST(TreePlanner, NamesRoundTrip) {
  for (const Algorithm a : ALL) EXPECT_EQ(parse_algorithm(to_string(a)), a);
  expect_error<UsageError>([] { (void)parse_algorithm("greedy2"); }, {"algorithm greedy2", "greedy, greedy-transfers"});
}

// Every algorithm on every cost of the grid: a sound plan (validator, in-order combination),
// never better than the exhaustive optimum, within Lemma 5 and its own limit.
TEST(TreePlanner, EveryAlgorithmGivesSoundPlans) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 1; n <= 13; ++n) {
      const Rational optimum = brute_force_optimal_length(n, model);
      for (const Algorithm a : ALL) {
        std::vector<std::optional<int>> limits{std::nullopt};
        if (takes_limit(a)) {
          limits.clear();
          const int top = a == Algorithm::GREEDY_TRANSFERS ? max_concurrent_transfers_limit(n) : max_reducers_limit(n);
          for (int k = 1; k <= top; ++k) limits.emplace_back(k);
        }
        const bool exists = (a != Algorithm::BINOMIAL || (n & (n - 1)) == 0) &&
                            (a != Algorithm::FIBONACCI || n == 1 || n == 2 || n == 3 || n == 5 || n == 8 || n == 13);
        if (!exists) continue;
        for (const auto& k : limits) {
          const ReductionPlan plan = make_plan({a, n, model, k});
          const std::string context = std::string(to_string(a)) + " n=" + std::to_string(n) + describe(model);
          EXPECT_EQ(plan.algorithm, to_string(a));
          EXPECT_EQ(plan.n(), n);
          EXPECT_EQ(expect_sound(plan, context), plan.length) << context;
          EXPECT_GE(plan.length, optimum) << context;
          EXPECT_GE(plan.length, optimal_length_lower_bound(n, model)) << context;
          if (a == Algorithm::GREEDY) {
            EXPECT_EQ(plan.length, optimum) << context;
          }
        }
      }
    }
  }
}

TEST(TreePlanner, LimitKOnlyWhereItApplies) {
  const CostModel model(1, 1);
  expect_error<UsageError>([&] { (void)make_plan({Algorithm::GREEDY_TRANSFERS, 8, model, std::nullopt}); },
                           {"limit K: algorithm greedy-transfers needs it"});
  expect_error<UsageError>([&] { (void)make_plan({Algorithm::BINOMIAL, 8, model, 2}); }, {"binomial", "no limit K"});
  expect_error<ScheduleError>([&] { (void)make_plan({Algorithm::GREEDY_REDUCERS, 8, model, 9}); }, {"K = 9", "limit 7"});
  expect_error<ScheduleError>([&] { (void)make_plan({Algorithm::GREEDY, 0, model, std::nullopt}); }, {"n = 0"});
}

}  // namespace
}  // namespace starnet::algorithms::trees
