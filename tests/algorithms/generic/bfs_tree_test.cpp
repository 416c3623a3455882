#include "generic_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <random>

namespace starnet::algorithms::generic {
namespace {

using emulator::PortModel;
using testing::run_plan;

const std::vector<std::string> SPECS = {"star:4",    "hypercube:4", "debruijn:5", "complete:7", "ring:9",
                                        "torus:4x5", "mesh:3x4",    "tiers:3",    "ring:1",     "ring:2"};

TEST(BfsTree, IsABreadthFirstSpanningTreeUnderBothRules) {
  for (const auto& spec : SPECS) {
    const auto t = topology::make_topology(spec);
    for (const ParentRule rule : {ParentRule::FIRST, ParentRule::EARLIEST_SLOT}) {
      const SpanningTree tree = bfs_tree(*t, /*root=*/0, rule);
      ASSERT_EQ(tree.order.size(), t->num_nodes()) << spec;
      EXPECT_EQ(tree.parent[0], 0U) << spec;
      for (NodeId v = 1; v < t->num_nodes(); ++v) {
        // A tree edge is a link one level up: depths are hop distances from the root.
        EXPECT_TRUE(t->port_to(v, tree.parent[v]).has_value()) << spec << " v=" << v;
        EXPECT_EQ(tree.depth[v], tree.depth[tree.parent[v]] + 1) << spec << " v=" << v;
      }
      EXPECT_EQ(Rational(*std::max_element(tree.depth.begin(), tree.depth.end())), eccentricity(*t, 0, false)) << spec;
    }
  }
}

TEST(BfsTreeSchedule, EveryCollectiveIsVerifiedUnderEveryPortModelInItsPlannedSteps) {
  for (const auto& spec : SPECS) {
    const auto t = topology::make_topology(spec);
    const NodeId n = t->num_nodes();
    for (const Collective c : {Collective::ALLREDUCE, Collective::REDUCE, Collective::BROADCAST}) {
      for (const PortModel ports : {PortModel{1, false}, PortModel{1, true}, PortModel{2, false}, PortModel{3, true}}) {
        for (const NodeId root : {NodeId{0}, n - 1}) {
          const auto plan = bfs_tree_schedule(*t, root, c, ports.ports);
          for (const Op op : {Op::SUM, Op::MAX}) {
            const auto o = run_plan(*t, plan.schedule, c, ports, op, root);  // strict: a violation throws
            const auto where = spec + " " + to_string(c) + " " + ports.to_string() + " root=" + std::to_string(root);
            EXPECT_TRUE(o.report.ok()) << where;
            EXPECT_EQ(o.run.makespan, Rational(plan.schedule.steps())) << where;
            EXPECT_EQ(o.run.counters.messages, (c == Collective::ALLREDUCE ? 2 : 1) * (n - 1)) << where;
            EXPECT_LE(o.run.counters.max_concurrent_receives, ports.ports) << where;
            const auto distance =
                c == Collective::ALLREDUCE ? diameter(*t, false, false).value : eccentricity(*t, root, false);
            EXPECT_LE(step_lower_bound(c, ports, n, static_cast<std::uint64_t>(distance.num())).value(),
                      plan.schedule.steps())
                << where;
          }
        }
      }
    }
  }
}

TEST(BfsTreeSchedule, HypercubeTreeInPortOrderIsBinomialAndMeetsTheLogBound) {
  for (int d = 1; d <= 8; ++d) {
    const auto cube = topology::make_topology("hypercube:" + std::to_string(d));
    const SpanningTree tree = bfs_tree(*cube, 0, ParentRule::FIRST);
    // The first neighbour to reach v is v without its highest bit: the binomial tree.
    for (NodeId v = 1; v < cube->num_nodes(); ++v) EXPECT_EQ(tree.parent[v], v ^ std::bit_floor(v)) << " d=" << d;
    const auto steps = static_cast<std::uint32_t>(d);
    EXPECT_EQ(tree_schedule(tree, Collective::REDUCE, 1).steps(), steps) << " d=" << d;
    EXPECT_EQ(tree_schedule(tree, Collective::BROADCAST, 1).steps(), steps) << " d=" << d;
    EXPECT_EQ(tree_schedule(tree, Collective::ALLREDUCE, 1).steps(), 2 * steps) << " d=" << d;
  }
}

/// Brute force: the best reduce on a fixed tree with one receive per step, trying every order
/// of each node's children (the subtrees are independent given their ready times).
std::uint32_t best_reduce_steps(const SpanningTree& tree, NodeId v, const std::vector<std::vector<NodeId>>& kids) {
  std::vector<std::uint32_t> ready;
  for (const NodeId c : kids[v]) ready.push_back(best_reduce_steps(tree, c, kids));
  if (ready.empty()) return 0;
  std::sort(ready.begin(), ready.end());
  std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
  do {
    std::uint32_t step = 0;
    for (std::size_t i = 0; i < ready.size(); ++i) step = std::max(i == 0 ? 0U : step + 1, ready[i]);
    best = std::min(best, step + 1);
  } while (std::next_permutation(ready.begin(), ready.end()));
  return best;
}

std::uint32_t best_broadcast_steps(NodeId v, const std::vector<std::vector<NodeId>>& kids) {
  std::vector<std::uint32_t> need;
  for (const NodeId c : kids[v]) need.push_back(best_broadcast_steps(c, kids));
  std::sort(need.begin(), need.end());
  std::uint32_t best = need.empty() ? 0 : std::numeric_limits<std::uint32_t>::max();
  if (need.empty()) return 0;
  do {
    std::uint32_t worst = 0;
    for (std::size_t i = 0; i < need.size(); ++i) worst = std::max(worst, static_cast<std::uint32_t>(i) + 1 + need[i]);
    best = std::min(best, worst);
  } while (std::next_permutation(need.begin(), need.end()));
  return best;
}

TEST(TreeSchedule, GreedyIsOptimalForItsTreeAgainstBruteForceOverChildOrders) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    // A random rooted tree on up to 9 nodes, parents before children.
    const NodeId n = 1 + rng() % 9;
    SpanningTree tree;
    tree.parent.assign(n, 0);
    tree.depth.assign(n, 0);
    for (NodeId v = 0; v < n; ++v) {
      tree.order.push_back(v);
      if (v > 0) tree.parent[v] = rng() % v, tree.depth[v] = tree.depth[tree.parent[v]] + 1;
    }
    std::vector<std::vector<NodeId>> kids(n);
    for (NodeId v = 1; v < n; ++v) kids[tree.parent[v]].push_back(v);
    EXPECT_EQ(tree_schedule(tree, Collective::REDUCE, 1).steps(), best_reduce_steps(tree, 0, kids))
        << " trial=" << trial;
    EXPECT_EQ(tree_schedule(tree, Collective::BROADCAST, 1).steps(), best_broadcast_steps(0, kids))
        << " trial=" << trial;
  }
}

TEST(BfsTree, UnreachableNodeIsAScheduleErrorNamingIt) {
  topology::Platform p("two-islands", false);
  for (const char* name : {"a", "b", "c"}) p.add_node({name});
  p.add_link(0, 1);
  const topology::PlatformTopology t(std::move(p));
  EXPECT_ERROR(ScheduleError, bfs_tree(t, 0, ParentRule::FIRST), "two-islands", "node c", "root a");
}

TEST(BfsTreeSchedule, RunsOnWhatADamagedTopologyLeaves) {
  const auto torus = topology::make_topology("torus:6x6");
  const Faults faults{random_failed_links(*torus, 0.2, /*seed=*/4), {NodeId{14}}};
  const Subnetwork net(*torus, faults, 0, {});
  const auto plan = bfs_tree_schedule(net, net.root(), Collective::ALLREDUCE, 1);
  const auto o = run_plan(net, plan.schedule, Collective::ALLREDUCE, {}, Op::SUM, net.root());
  EXPECT_TRUE(o.report.ok());
  EXPECT_EQ(o.report.nodes_checked, net.num_nodes());
  EXPECT_EQ(o.run.makespan, Rational(plan.schedule.steps()));
}

TEST(BfsTreeSchedule, TimedRunsWithHeterogeneousCostsAreVerified) {
  for (const auto& spec : {"debruijn:6", "torus:5x5", "tiers:8"}) {
    const auto base = topology::make_topology(spec);
    const Subnetwork net(*base, {}, 0, {CostKind::RANDOM, /*seed=*/3});
    for (const Collective c : {Collective::ALLREDUCE, Collective::REDUCE, Collective::BROADCAST}) {
      for (const PortModel ports : {PortModel{1, false}, PortModel{1, true}, PortModel{2, false}}) {
        const auto plan = bfs_tree_schedule(net, 0, c, ports.ports);
        const auto o = run_plan(net, plan.schedule, c, ports, Op::SUM, 0, /*timed=*/true);
        EXPECT_TRUE(o.report.ok()) << spec << " " << to_string(c) << " " << ports.to_string();
        const auto distance =
            c == Collective::ALLREDUCE ? diameter(net, true, false).value : eccentricity(net, 0, true);
        EXPECT_LE(time_lower_bound(ports, net.num_nodes(), net.min_cost(), distance).value(), o.run.makespan) << spec;
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::generic
