#include "steady_state_platforms.hpp"

#include <starnet/algorithms/steady_state/matchings.hpp>
#include <starnet/algorithms/steady_state/planner.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

using namespace testing;

/// Δ: the largest busy time of a send or receive port over one period, from the trees alone.
mpq_class max_port_load(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees) {
  std::map<Vertex, mpq_class> out;
  std::map<Vertex, mpq_class> in;
  for (const auto& tree : trees) {
    for (const int t : tree.tasks) {
      const Task& task = problem.tasks()[static_cast<std::size_t>(t)];
      if (task.kind != TaskKind::SEND) continue;
      out[task.from] += task.time * tree.weight;
      in[task.to] += task.time * tree.weight;
    }
  }
  mpq_class delta = 0;
  for (const auto* side : {&out, &in}) {
    for (const auto& [v, load] : *side) delta = std::max(delta, load);
  }
  return delta;
}

mpq_class total_duration(const std::vector<Matching>& matchings) {
  mpq_class total = 0;
  for (const auto& m : matchings) total += m.duration;
  return total;
}

TEST(WeightedMatchings, DecompositionIsAnOptimalEdgeColouring) {
  const auto fig2 = figure2_platform();
  const auto fig6 = figure6_platform();
  std::vector<Platform> randoms;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) randoms.push_back(random_platform(seed, 6, 5, 6));
  std::vector<SteadyStateProblem> problems = {SteadyStateProblem::scatter(fig2, "Ps", {"P0", "P1"}),
                                              SteadyStateProblem::reduce(fig6, {"P0", "P1", "P2"}, "P0"),
                                              SteadyStateProblem::gossip(fig6, {"P0", "P1", "P2"}, {"P0", "P1", "P2"})};
  for (const auto& p : randoms) {
    problems.push_back(SteadyStateProblem::reduce(p, {"N0", "N1", "N2", "N3"}, "N4"));
    problems.push_back(SteadyStateProblem::gossip(p, {"N0", "N1"}, {"N2", "N3", "N4"}));
  }
  for (const auto& problem : problems) {
    SteadyStatePlanner planner(problem);
    ASSERT_EQ(planner.run(), Status::OPTIMAL) << problem.describe();
    const auto& trees = planner.trees();
    const auto matchings = decompose_into_matchings(problem, trees);
    const mpq_class period(planner.solver().period());
    const auto check = check_matchings(problem, trees, matchings, period);
    EXPECT_TRUE(check) << problem.describe() << ": " << check.failure;
    // König: the matchings take exactly the largest port load Δ (≤ T), which no decomposition
    // can beat since that port is busy Δ.
    const mpq_class delta = max_port_load(problem, trees);
    EXPECT_EQ(total_duration(matchings), delta) << problem.describe();
    EXPECT_LE(delta, period) << problem.describe();
    std::size_t links = 0;
    std::map<std::pair<Vertex, Vertex>, int> seen;
    for (const auto& m : matchings) {
      for (const auto& tr : m.transfers) links += seen[{tr.from, tr.to}]++ == 0;
    }
    EXPECT_LE(matchings.size(), links + 2 * problem.platform().num_nodes()) << problem.describe();
  }
}

TEST(WeightedMatchings, Figure2HasFourMatchingsOrFewer) {
  // The paper decomposes Figure 3(a) into four matchings; the bipartite graph has 5 edges and 5
  // nodes per side.
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  SteadyStatePlanner planner(problem);
  ASSERT_EQ(planner.run(), Status::OPTIMAL);
  const auto matchings = decompose_into_matchings(problem, planner.trees());
  EXPECT_GE(matchings.size(), 2U);  // Pa receives and sends: at least two rounds
  EXPECT_LE(matchings.size(), 5U + 2 * 5U);
}

TEST(WeightedMatchings, CheckRejectsBrokenDecompositions) {
  const auto p = figure2_platform();
  const auto problem = SteadyStateProblem::scatter(p, "Ps", {"P0", "P1"});
  SteadyStatePlanner planner(problem);
  ASSERT_EQ(planner.run(), Status::OPTIMAL);
  const auto& trees = planner.trees();
  const mpq_class period(planner.solver().period());
  const auto matchings = decompose_into_matchings(problem, trees);
  ASSERT_TRUE(check_matchings(problem, trees, matchings, period));

  // All transfers squeezed into one matching: Ps then sends on two links at once.
  Matching merged{period, {}};
  for (const auto& m : matchings) merged.transfers.insert(merged.transfers.end(), m.transfers.begin(), m.transfers.end());
  const auto c1 = check_matchings(problem, trees, {merged}, period);
  EXPECT_FALSE(c1);
  EXPECT_NE(c1.failure.find("both"), std::string::npos) << c1.failure;

  auto missing = matchings;
  missing.front().transfers.pop_back();
  const auto c2 = check_matchings(problem, trees, missing, period);
  EXPECT_FALSE(c2);
  EXPECT_NE(c2.failure.find("the tree needs"), std::string::npos) << c2.failure;

  const auto c3 = check_matchings(problem, trees, matchings, mpq_class(1, 1000));
  EXPECT_FALSE(c3);
  EXPECT_NE(c3.failure.find("more than the period"), std::string::npos) << c3.failure;

  auto squeezed = matchings;
  std::map<std::pair<Vertex, Vertex>, mpq_class> busy;
  mpq_class longest = 0;
  for (const auto& tr : squeezed.front().transfers) {
    auto& b = busy[{tr.from, tr.to}];
    b += tr.amount * problem.tasks()[static_cast<std::size_t>(tr.task)].time;
    longest = std::max(longest, b);
  }
  squeezed.front().duration = longest / 2;
  const auto c4 = check_matchings(problem, trees, squeezed, period);
  EXPECT_FALSE(c4);
  EXPECT_NE(c4.failure.find("is busy"), std::string::npos) << c4.failure;
}

}  // namespace
}  // namespace starnet::algorithms::steady_state
