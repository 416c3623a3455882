#include "tree_test_support.hpp"

#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/algorithms/trees/tree_brute_force.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::trees {
namespace {

using testing::cost_grid;
using testing::describe;
using testing::expect_error;
using testing::expect_sound;

// Theorem 4 against the exhaustive optimum over all plane trees; the plan's Proposition 3 times
// give exactly the length of the algorithm's own reversed schedule.
TEST(GreedyTree, Algorithm1IsOptimalAgainstBruteForce) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 1; n <= 20; ++n) {
      const GreedyTree tree = greedy_tree(n, model);
      const ReductionPlan plan = greedy_plan(n, model);
      const std::string context = "greedy n=" + std::to_string(n) + describe(model);
      EXPECT_EQ(expect_sound(plan, context), plan.length) << context;
      EXPECT_EQ(plan.length, tree.length) << context;
      EXPECT_EQ(plan.length, brute_force_optimal_length(n, model)) << context;
    }
  }
}

TEST(GreedyTree, Algorithm1IsOptimalAgainstBruteForceUpTo24) {
  for (const CostModel& model : {CostModel(Rational(3, 7), Rational(5, 11)), CostModel(7, 3), CostModel(2, 3)}) {
    EXPECT_EQ(greedy_plan(24, model).length, brute_force_optimal_length(24, model)) << describe(model);
  }
}

// Lemma 5 and Proposition 6 bracket the optimum, and meet when min(d, c) = 0.
TEST(GreedyTree, Lemma5AndProposition6BracketTheOptimum) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 1; n <= 600; n += (n < 40 ? 1 : 37)) {
      const Rational length = greedy_tree(n, model).length;
      EXPECT_LE(optimal_length_lower_bound(n, model), length) << describe(model) << " n=" << n;
      EXPECT_LE(length, optimal_length_upper_bound(n, model)) << describe(model) << " n=" << n;
      if (model.min_cost() == 0) {
        EXPECT_EQ(length, optimal_length_lower_bound(n, model)) << describe(model) << " n=" << n;
      }
    }
  }
}

// Theorem 14: with min(d, c) = 0 and n = 2^k, Algorithm 1 builds a binomial tree (the unique
// optimum); Theorem 17: with d = c and n = F_(k+2), a Fibonacci tree.
TEST(GreedyTree, BuildsBinomialAndFibonacciTreesWhereTheyAreUnique) {
  for (int order = 0; order <= 9; ++order) {
    const std::string binomial = testing::shape(binomial_tree(order));
    const int n = 1 << order;
    EXPECT_EQ(testing::shape(greedy_tree(n, CostModel(1, 0)).parent), binomial) << " order=" << order;
    EXPECT_EQ(testing::shape(greedy_tree(n, CostModel(0, 3)).parent), binomial) << " order=" << order;
  }
  for (int order = 0; order <= 13; ++order) {
    const auto n = static_cast<int>(fibonacci_number(order + 2));
    EXPECT_EQ(testing::shape(greedy_tree(n, CostModel(2, 2)).parent), testing::shape(fibonacci_tree(order)))
        << " order=" << order;
  }
}

// Theorem 17 also says F_(k+2) is the most d + (k − 1)·d + c reduces when d = c.
TEST(GreedyTree, FibonacciNumbersAreTheMostElementsPerLengthWhenDEqualsC) {
  const CostModel model(1, 1);
  for (int order = 1; order <= 15; ++order) {
    const auto n = static_cast<int>(fibonacci_number(order + 2));
    EXPECT_EQ(greedy_tree(n, model).length, fibonacci_tree_length(order, model)) << " order=" << order;
    EXPECT_GT(greedy_tree(n + 1, model).length, fibonacci_tree_length(order, model)) << " order=" << order;
  }
}

// Theorem 9 against the exhaustive optimum restricted to trees with at most K reducers.
TEST(GreedyReducers, Algorithm3IsOptimalAgainstBruteForce) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 9; ++n) {
      for (int k = 1; k <= max_reducers_limit(n); ++k) {
        const ReductionPlan plan = greedy_reducers_plan(n, k, model);
        const std::string context = "reducers n=" + std::to_string(n) + " K=" + std::to_string(k) + describe(model);
        EXPECT_EQ(expect_sound(plan, context), greedy_reducers_tree(n, k, model).length) << context;
        EXPECT_EQ(plan.length, brute_force_optimal_length(n, model, k)) << context;
      }
    }
  }
}

// With K ≥ n − 1 reducers there is no limit: Algorithm 3 is Algorithm 1.
TEST(GreedyReducers, UnlimitedEqualsAlgorithm1) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 50; ++n) {
      EXPECT_EQ(greedy_reducers_tree(n, n - 1, model).parent, greedy_tree(n, model).parent) << describe(model);
    }
  }
}

// Theorem 7 against the exhaustive optimum under the limit of K concurrent transfers.
TEST(GreedyTransfers, Algorithm2IsOptimalAgainstBruteForce) {
  int limit_bites = 0;     // cases where K makes the optimum longer
  int beats_reducers = 0;  // cases where Algorithm 2 is shorter than Algorithm 3 with the same K
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 6; ++n) {
      for (int k = 1; k <= max_concurrent_transfers_limit(n); ++k) {
        const ReductionPlan plan = greedy_transfers_plan(n, k, model);
        const std::string context = "transfers n=" + std::to_string(n) + " K=" + std::to_string(k) + describe(model);
        EXPECT_EQ(expect_sound(plan, context), greedy_transfers_tree(n, k, model).length) << context;
        EXPECT_EQ(plan.length, brute_force_transfer_limited_length(n, k, model)) << context;
        limit_bites += static_cast<int>(plan.length > brute_force_optimal_length(n, model));
        beats_reducers += static_cast<int>(plan.length < greedy_reducers_tree(n, k, model).length);
      }
    }
  }
  EXPECT_GT(limit_bites, 0);
  EXPECT_GT(beats_reducers, 0);
}

TEST(GreedyTransfers, Algorithm2IsOptimalForSevenMachines) {
  for (const CostModel& model : {CostModel(1, 1), CostModel(2, 3), CostModel(3, 1)}) {
    for (int k = 1; k <= 3; ++k) {
      EXPECT_EQ(greedy_transfers_plan(7, k, model).length, brute_force_transfer_limited_length(7, k, model))
          << describe(model) << " K=" << k;
    }
  }
}

// Algorithm 2's transfer times are non-decreasing in reversed time (the proof of Theorem 7
// relies on it), and its plans respect K on larger instances too.
TEST(GreedyTransfers, TransferTimesAreMonotoneAndRespectK) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 120; n += 7) {
      for (int k = 1; k <= max_concurrent_transfers_limit(n); k += 3) {
        const GreedyTree tree = greedy_transfers_tree(n, k, model);
        for (int i = 2; i < n; ++i) {
          EXPECT_LE(tree.arrival[static_cast<std::size_t>(i - 1)], tree.arrival[static_cast<std::size_t>(i)]);
        }
        const std::string context = "n=" + std::to_string(n) + " K=" + std::to_string(k) + describe(model);
        const Rational length = expect_sound(greedy_transfers_plan(n, k, model), context);
        EXPECT_EQ(length, tree.length) << context;
        EXPECT_LE(greedy_tree(n, model).length, length) << context;
      }
    }
  }
}

// Algorithm 2's last loop as printed, t_i ← t_n − t_i + c, delays every transfer by c: still
// feasible, but c longer than the algorithm's (optimal) t_n. The forward start is t_n − t_i.
TEST(GreedyTransfers, PrintedReversalAddsC) {
  const CostModel model(2, 3);
  const GreedyTree tree = greedy_transfers_tree(6, 2, model);
  std::vector<Rational> printed(tree.arrival.size());
  for (std::size_t i = 1; i < printed.size(); ++i) printed[i] = tree.length - tree.arrival[i] + model.c();
  const ReductionPlan as_printed = plan_at("printed", model, tree.parent, printed);
  EXPECT_EQ(as_printed.length, tree.length + model.c());
  EXPECT_GT(as_printed.length, brute_force_transfer_limited_length(6, 2, model));
  EXPECT_EQ(greedy_transfers_plan(6, 2, model).length, brute_force_transfer_limited_length(6, 2, model));
}

// Any plan with at most K reducers has at most K concurrent transfers (each reducer receives one
// at a time), so Algorithm 2 ≤ Algorithm 3; Theorem 10: equal when d ≥ c.
TEST(GreedyTransfers, Theorem10Algorithm3MatchesWhenDAtLeastC) {
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 150; n += 13) {
      for (int k = 1; k <= max_concurrent_transfers_limit(n); ++k) {
        const Rational transfers = greedy_transfers_tree(n, k, model).length;
        const Rational reducers = greedy_reducers_tree(n, k, model).length;
        EXPECT_LE(transfers, reducers) << describe(model) << " n=" << n << " K=" << k;
        if (model.d() >= model.c()) {
          EXPECT_EQ(transfers, reducers) << describe(model) << " n=" << n << " K=" << k;
        }
      }
    }
  }
}

/// Proposition 8 / Corollary 11 exactly as our copy prints them.
Rational printed_proposition8(int n, int k, const CostModel& model) {
  const std::int64_t steps = floor_log2(k) + 1 + (Rational(n, k) - 2).ceil();
  return steps * (model.d() + model.c());
}

// The corrected Proposition 8 / Corollary 11 bounds both algorithms; the printed one does not.
TEST(GreedyTransfers, Proposition8AsCorrectedBoundsAlgorithms2And3) {
  int printed_violations = 0;
  for (const CostModel& model : cost_grid()) {
    for (int n = 2; n <= 120; ++n) {
      for (int k = 1; k <= max_concurrent_transfers_limit(n); ++k) {
        const Rational bound = limited_length_upper_bound(n, k, model);
        const Rational transfers = greedy_transfers_tree(n, k, model).length;
        EXPECT_LE(transfers, bound) << describe(model) << " n=" << n << " K=" << k;
        EXPECT_LE(greedy_reducers_tree(n, k, model).length, bound) << describe(model) << " n=" << n << " K=" << k;
        printed_violations += static_cast<int>(transfers > printed_proposition8(n, k, model));
      }
    }
  }
  EXPECT_GT(printed_violations, 0);
  // The smallest counterexample: n = 6, K = 3, c = 0 — printed 2d, Lemma 5 alone needs 3d.
  const CostModel no_compute(1, 0);
  EXPECT_EQ(printed_proposition8(6, 3, no_compute), 2);
  EXPECT_EQ(brute_force_transfer_limited_length(6, 3, no_compute), 3);
  EXPECT_EQ(greedy_transfers_tree(6, 3, no_compute).length, 3);
  EXPECT_EQ(limited_length_upper_bound(6, 3, no_compute), 3);
}

TEST(GreedyTree, RejectsBadInputNamingIt) {
  const CostModel model(1, 1);
  expect_error<ScheduleError>([&] { (void)greedy_tree(0, model); }, {"n = 0", "n >= 1"});
  expect_error<ScheduleError>([&] { (void)greedy_plan(-3, model); }, {"n = -3", "n >= 1"});
  expect_error<ScheduleError>([&] { (void)greedy_transfers_tree(8, 0, model); }, {"K = 0", "K >= 1"});
  expect_error<ScheduleError>([&] { (void)greedy_transfers_tree(8, 5, model); },
                              {"K = 5", "limit 4", "n = 8", "floor(n/2)"});
  expect_error<ScheduleError>([&] { (void)greedy_reducers_tree(8, 0, model); }, {"K = 0", "K >= 1"});
  expect_error<ScheduleError>([&] { (void)greedy_reducers_tree(8, 8, model); }, {"K = 8", "limit 7", "n - 1"});
  expect_error<ScheduleError>([&] { (void)greedy_reducers_plan(0, 1, model); }, {"n = 0"});
}

TEST(GreedyTree, SingleElement) {
  for (const CostModel& model : cost_grid()) {
    EXPECT_EQ(greedy_plan(1, model).length, 0);
    EXPECT_EQ(greedy_transfers_plan(1, 1, model).length, 0);
    EXPECT_EQ(greedy_reducers_plan(1, 1, model).length, 0);
  }
}

}  // namespace
}  // namespace starnet::algorithms::trees
