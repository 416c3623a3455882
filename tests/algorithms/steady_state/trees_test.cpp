#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/solver.hpp>
#include <starnet/algorithms/steady_state/trees.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

int task_index(const SteadyStateProblem& problem, const std::string& label) {
  for (int t = 0; t < static_cast<int>(problem.tasks().size()); ++t) {
    if (problem.task_label(t) == label) return t;
  }
  ADD_FAILURE() << "no task " << label;
  return -1;
}

/// A conserved scatter solution with a circulation A ⇄ B through which FIND_TREE walks first:
/// B is added before Ps, so send(B->A) comes before send(Ps->A) among A's producers.
struct CirculationCase {
  Platform platform{"circulation"};
  std::vector<mpz_class> amounts;
  CirculationCase() {
    for (const char* name : {"B", "Ps", "A", "P0"}) add_processor(platform, name);
    link(platform, "B", "A", 1);
    link(platform, "Ps", "A", 1);
    link(platform, "A", "B", 1);
    link(platform, "A", "P0", 1);
  }
};

TEST(ReductionTrees, CirculationIsCancelledBeforeExtraction) {
  CirculationCase c;
  const auto problem = SteadyStateProblem::scatter(c.platform, "Ps", {"P0"});
  std::vector<mpz_class> a(problem.tasks().size());
  a[static_cast<std::size_t>(task_index(problem, "send(Ps->A, m[P0])"))] = 3;
  a[static_cast<std::size_t>(task_index(problem, "send(A->P0, m[P0])"))] = 3;
  a[static_cast<std::size_t>(task_index(problem, "send(A->B, m[P0])"))] = 2;
  a[static_cast<std::size_t>(task_index(problem, "send(B->A, m[P0])"))] = 2;
  // The paper's FIND_TREE follows B->A, A->B, B->A, … forever; here it stops and says why.
  try {
    (void)extract_trees(problem, a, /*per_sink=*/3);
    FAIL() << "extraction walked through a circulation";
  } catch (const ScheduleError& e) {
    EXPECT_NE(std::string(e.what()).find("circulation"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("m[P0]@A"), std::string::npos) << e.what();
  }
  cancel_circulations(problem, a);
  EXPECT_EQ(a[static_cast<std::size_t>(task_index(problem, "send(A->B, m[P0])"))], 0);
  EXPECT_EQ(a[static_cast<std::size_t>(task_index(problem, "send(Ps->A, m[P0])"))], 3);
  const auto trees = extract_trees(problem, a, 3);
  ASSERT_EQ(trees.size(), 1U);
  EXPECT_EQ(trees[0].weight, 3);
  EXPECT_TRUE(check_trees(problem, trees, a));
}

TEST(ReductionTrees, ExtractionNamesAViolatedConservationLaw) {
  CirculationCase c;
  const auto problem = SteadyStateProblem::scatter(c.platform, "Ps", {"P0"});
  std::vector<mpz_class> a(problem.tasks().size());
  a[static_cast<std::size_t>(task_index(problem, "send(A->P0, m[P0])"))] = 1;  // nothing reaches A
  try {
    (void)extract_trees(problem, a, 1);
    FAIL() << "extraction invented a producer";
  } catch (const ScheduleError& e) {
    EXPECT_NE(std::string(e.what()).find("m[P0]@A"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("conservation"), std::string::npos) << e.what();
  }
}

// Figure 6/7: the trees of the reduce example sum back to A and serve TP·T reduces per period.
TEST(ReductionTrees, Figure6TreesSumBackToTheSolution) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  SteadyStateSolver solver(problem);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  auto a = solver.integer_solution();
  cancel_circulations(problem, a);
  const mpz_class per_period = mpq_class(solver.throughput() * solver.period()).get_num();
  const auto trees = extract_trees(problem, a, per_period);
  EXPECT_TRUE(check_trees(problem, trees, a));
  mpz_class total = 0;
  for (const auto& tree : trees) total += tree.weight;
  EXPECT_EQ(total, per_period);
  for (const auto& tree : trees) {
    // A reduce tree of 3 values performs exactly 2 computations, the last producing v[0,2] on P0.
    int computations = 0;
    for (const int t : tree.tasks) computations += problem.tasks()[static_cast<std::size_t>(t)].kind == TaskKind::COMPUTE;
    EXPECT_EQ(computations, 2);
  }
}

TEST(ReductionTrees, RandomSolutionsDecomposeExactly) {
  for (std::uint64_t seed = 1; seed <= 15; ++seed) {
    const auto p = random_platform(seed, /*nodes=*/5, /*processors=*/4, /*extra=*/4);
    const std::vector<SteadyStateProblem> problems = {
        SteadyStateProblem::scatter(p, "N0", {"N1", "N2", "N3"}),
        SteadyStateProblem::gossip(p, {"N0", "N1"}, {"N2", "N3", "N0"}),
        SteadyStateProblem::reduce(p, {"N0", "N1", "N2", "N3"}, "N2")};
    for (const auto& problem : problems) {
      SteadyStateSolver solver(problem);
      ASSERT_EQ(solver.run(), Status::OPTIMAL) << problem.describe();
      auto a = solver.integer_solution();
      cancel_circulations(problem, a);
      for (std::size_t t = 0; t < a.size(); ++t) EXPECT_LE(a[t], solver.integer_solution()[t]);
      const mpz_class per_sink = mpq_class(solver.throughput() * solver.period()).get_num();
      const auto trees = extract_trees(problem, a, per_sink);
      EXPECT_TRUE(check_trees(problem, trees, a)) << " seed=" << seed << " " << problem.describe() << ": "
                                                  << check_trees(problem, trees, a).failure;
      // Theorem 1: each tree zeroes at least one task, so there are at most as many trees as
      // tasks with A > 0.
      std::size_t positive = 0;
      for (const auto& x : a) positive += x > 0;
      EXPECT_LE(trees.size(), positive) << " seed=" << seed;
    }
  }
}

TEST(ReductionTrees, CheckRejectsTamperedTrees) {
  const auto p = figure6_platform();
  const auto problem = SteadyStateProblem::reduce(p, {"P0", "P1", "P2"}, "P0");
  SteadyStateSolver solver(problem);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  auto a = solver.integer_solution();
  cancel_circulations(problem, a);
  const auto trees = extract_trees(problem, a, mpq_class(solver.throughput() * solver.period()).get_num());
  ASSERT_TRUE(check_trees(problem, trees, a));

  auto heavier = trees;
  heavier[0].weight += 1;
  const auto c1 = check_trees(problem, heavier, a);
  EXPECT_FALSE(c1);
  EXPECT_NE(c1.failure.find("sum of w(T)"), std::string::npos) << c1.failure;

  auto cut = trees;
  cut[0].tasks.pop_back();
  cut[0].producers.pop_back();
  EXPECT_FALSE(check_trees(problem, cut, a));

  auto orphan = trees;
  auto& root_inputs = orphan[0].producers[0];
  (root_inputs[0] >= 0 ? root_inputs[0] : root_inputs[1]) = -1;  // a produced input is claimed to be a leaf
  const auto c3 = check_trees(problem, orphan, a);
  EXPECT_FALSE(c3);
  EXPECT_NE(c3.failure.find("neither produced"), std::string::npos) << c3.failure;

  auto zero = trees;
  zero[0].weight = 0;
  EXPECT_NE(check_trees(problem, zero, a).failure.find("weight 0"), std::string::npos);
}

TEST(ReductionTrees, StartPeriodsFollowDependencies) {
  // A path of three sends: leaf → t2 → t1 → t0 (root): start periods 2, 1, 0 reversed.
  WeightedTree path;
  path.weight = 1;
  path.tasks = {10, 11, 12};
  path.producers = {{1, -1}, {2, -1}, {-1, -1}};
  EXPECT_EQ(start_periods(path), (std::vector<int>{2, 1, 0}));
  // A computation fed by a 2-task chain (positions 1 ← 3) and by one task (position 2).
  WeightedTree join;
  join.weight = 1;
  join.tasks = {0, 1, 2, 3};
  join.producers = {{1, 2}, {3, -1}, {-1, -1}, {-1, -1}};
  EXPECT_EQ(start_periods(join), (std::vector<int>{2, 1, 0, 0}));
}

}  // namespace
}  // namespace starnet::algorithms::steady_state
