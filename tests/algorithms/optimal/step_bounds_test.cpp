// The named lower bounds (step_bounds.cpp) against the brute-force oracle, on undirected and
// directed graphs alike: no bound may exceed the fewest steps a schedule needs.
#include "brute_force.hpp"

#include <starnet/algorithms/optimal/step_bounds.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace starnet::algorithms::optimal {
namespace {

using topology::NodeId;

TEST(StepBounds, DegreeLimitedCountingFollowsTheRecurrence) {
  // A path of degree 2: the root informs 2 in steps 1 and 2, each new node 1 more: 1, 2, 4, 6, 8.
  EXPECT_EQ(degree_limited_informed(0, 1, 2, ArcsBack::EVERY_ARC), 1U);
  EXPECT_EQ(degree_limited_informed(1, 1, 2, ArcsBack::EVERY_ARC), 2U);
  EXPECT_EQ(degree_limited_informed(2, 1, 2, ArcsBack::EVERY_ARC), 4U);
  EXPECT_EQ(degree_limited_informed(3, 1, 2, ArcsBack::EVERY_ARC), 6U);
  // Unlimited degree: doubling.
  EXPECT_EQ(degree_limited_informed(5, 1, 64, ArcsBack::EVERY_ARC), 32U);
  EXPECT_EQ(degree_limited_informed(3, 2, 64, ArcsBack::EVERY_ARC), 27U);
}

TEST(StepBounds, DegreeLimitedCountingKeepsEveryOutArcOnADirectedGraph) {
  // Out-degree 1, one way: each informed node passes the item on, one more node a step.
  for (std::uint64_t t = 0; t <= 6; ++t) {
    EXPECT_EQ(degree_limited_informed(t, 1, /*degree=*/1, ArcsBack::NOT_EVERY), t + 1) << " t=" << t;
  }
  // Out-degree 2, one way: every node has two sends, the root's spent after step 2: 1, 2, 4, 7.
  EXPECT_EQ(degree_limited_informed(3, 1, /*degree=*/2, ArcsBack::NOT_EVERY), 7U);
  EXPECT_EQ(degree_limited_informed(3, 1, /*degree=*/2, ArcsBack::EVERY_ARC), 6U);
}

TEST(StepBounds, ArcsBackTellsDirectedFromUndirected) {
  EXPECT_EQ(arcs_back(*topology::make_topology("ring:5")), ArcsBack::EVERY_ARC);
  EXPECT_EQ(arcs_back(*topology::make_topology("star:4")), ArcsBack::EVERY_ARC);
  EXPECT_EQ(arcs_back(*directed_cycle(5)), ArcsBack::NOT_EVERY);
  EXPECT_EQ(arcs_back(*digraph("both ways", 2, {{0, 1}, {1, 0}})), ArcsBack::EVERY_ARC);
}

TEST(StepBounds, TheDirectedFiveCycleNeedsFourStepsAndNoBoundSaysMore) {
  const auto c5 = directed_cycle(5);
  for (const Goal goal : {Goal::GOSSIP, Goal::BROADCAST}) {
    const auto fewest = brute_force_steps(*c5, goal, 0, {});
    EXPECT_EQ(fewest, 4U);
    for (const auto& b : step_bounds(*c5, goal, 0, {}, /*vertex_transitive=*/false)) {
      EXPECT_LE(b.steps, fewest) << b.name << (goal == Goal::GOSSIP ? " gossip" : " broadcast");
      if (b.name == "distance") {
        EXPECT_EQ(b.steps, 4U) << "the item goes round the cycle";
      }
    }
  }
}

TEST(StepBounds, NoBoundExceedsTheFewestStepsOnDirectedGraphs) {
  const std::vector<emulator::PortModel> models = {{1, false}, {1, true}, {2, false}};
  for (const auto& t : directed_family()) {
    for (const auto& m : models) {
      for (const Goal goal : {Goal::GOSSIP, Goal::BROADCAST}) {
        for (NodeId root = 0; root < (goal == Goal::BROADCAST ? t->num_nodes() : 1); ++root) {
          SCOPED_TRACE(t->name() + " " + m.to_string() + (goal == Goal::GOSSIP ? " gossip" : " broadcast") +
                       " root=" + std::to_string(root));
          const auto fewest = brute_force_steps(*t, goal, root, m);
          for (const auto& b : step_bounds(*t, goal, root, m, /*vertex_transitive=*/false)) {
            EXPECT_LE(b.steps, fewest) << b.name << ": " << b.reason;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::optimal
