// Coset schedules on S_n (the dimension depends on the node's last symbol): the search's claims,
// its schedules verified on the emulator, the single-port rule of a step.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::optimal {
namespace {

using topology::StarGraph;

void expect_verified(int n, const std::vector<CosetStep>& steps) {
  const auto s = coset_schedule(n, steps);
  const auto order = StarGraph::factorial(n);
  EXPECT_EQ(s.chunks_moved(), order * (order - 1)) << n;  // no item received twice
  const StarGraph t(n);
  const auto run = schedule::run_schedule(s, t, {});
  EXPECT_TRUE(run.verified) << n << ": " << run.report.first_problem();
  EXPECT_EQ(run.run.makespan, Rational(static_cast<std::int64_t>(steps.size()))) << n;
}

TEST(CosetSearch, ExhaustiveOnS4FindsTheProvedOptimum) {
  // SAT proves 6 steps optimal on S_4 among all schedules (optimal_search_test); the class holds
  // the uniform 6-step gossip, so its exhaustive search must end at 6 exactly.
  const auto r = coset_search(4, 0, 10, 0);
  ASSERT_EQ(r.steps.size(), 6U);
  EXPECT_TRUE(r.proved_minimal);
  expect_verified(4, r.steps);
  // S_3: the class is the uniform one (one dimension inside a coset): 3 steps as the uniform search.
  const auto three = coset_search(3, 0, 10, 0);
  EXPECT_EQ(three.steps.size(), uniform_exhaustive(CayleyGroup::star(3), 3, 0).dimensions.size());
  expect_verified(3, three.steps);
}

TEST(CosetSearch, BeamOnS5EndsWithAVerifiedGossip) {
  const auto r = coset_search(5, 20, 10, 0);
  ASSERT_FALSE(r.steps.empty());
  EXPECT_FALSE(r.proved_minimal);
  EXPECT_LE(r.steps.size(), 10U);
  expect_verified(5, r.steps);
}

TEST(CosetSearch, UniformStepsGiveTheUniformSets) {
  // Coset steps whose classes agree are uniform: the schedule runs verified with as many steps.
  const auto g = CayleyGroup::star(5);
  const auto u = uniform_exhaustive(g, 10, 0);
  std::vector<CosetStep> steps;
  for (const int k : u.dimensions) steps.emplace_back(5, k);
  expect_verified(5, steps);
  // Without the last step the gossip is incomplete.
  steps.pop_back();
  const StarGraph t(5);
  EXPECT_FALSE(schedule::run_schedule(coset_schedule(5, steps), t, {}).verified);
}

TEST(CosetSearch, RefusesStepsThatBreakTheSinglePortRuleAndSizesItCannotHold) {
  // One class along n and the others inside their cosets: some node receives twice.
  EXPECT_ERROR(UsageError, coset_schedule(4, {{4, 2, 2, 2}}), "coset step 1", "receiving one message");
  EXPECT_ERROR(UsageError, coset_schedule(4, {{2, 3}}), "coset step 1");
  EXPECT_ERROR(UsageError, coset_schedule(4, {{2, 3, 1, 2}}), "coset step 1");
  EXPECT_ERROR(UsageError, coset_search(7, 1, 5, 0), "star:7", "star:3..star:6");
  EXPECT_ERROR(UsageError, coset_search(2, 1, 5, 0), "star:2");
}

}  // namespace
}  // namespace starnet::algorithms::optimal
