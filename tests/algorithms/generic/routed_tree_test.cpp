#include "generic_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/algorithms/generic/shortest_path_tree.hpp>
#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace starnet::algorithms::generic {
namespace {

using emulator::PortModel;
using testing::forwarding_violation;
using testing::run_plan;

const PortModel MODELS[] = {{1, false}, {1, true}, {2, false}, {2, true}};
const char* const PLATFORMS[] = {"fattree:4", "dragonfly:2:2:1", "dragonfly:4:3:2", "tiers:1", "tiers:4"};

TEST(RoutedTree, RoutersOnlyForwardAndEveryProcessorEndsWithTheProcessorsResult) {
  for (const char* spec : PLATFORMS) {
    const auto t = topology::make_topology(spec);
    const auto relays = router_flags(*t);
    ASSERT_FALSE(relays.empty()) << spec;
    for (const Collective c : {Collective::ALLREDUCE, Collective::REDUCE, Collective::BROADCAST}) {
      for (const PortModel& ports : MODELS) {
        SCOPED_TRACE(std::string(spec) + " " + to_string(c) + " " + ports.to_string());
        const auto plan = routed_tree_schedule(*t, 0, relays, c, ports);
        const auto o = run_plan(*t, plan.schedule, c, ports, Op::SUM, 0, false, emulator::Checking::STRICT, true);
        // Strict checks passed (else run_plan threw), every processor (the root for reduce) holds
        // the sum over processors only, every action done.
        EXPECT_TRUE(o.report.ok()) << o.report.serialize();
        const auto processors = static_cast<std::uint64_t>(std::count(relays.begin(), relays.end(), false));
        EXPECT_EQ(o.report.nodes_checked, c == Collective::REDUCE ? 1 : processors);
        EXPECT_EQ(static_cast<std::uint64_t>(o.run.makespan.num()), plan.schedule.steps());
        EXPECT_EQ(forwarding_violation(o.run, relays), "");
      }
    }
  }
}

TEST(RoutedTree, TheCombiningBfsTreeFailsTheForwardingCheck) {
  // The check above is not vacuous: the plain BFS tree sums at the switches of a fat-tree.
  const auto t = topology::make_topology("fattree:4");
  const auto plan = bfs_tree_schedule(*t, 0, Collective::ALLREDUCE, 1);
  const auto o = run_plan(*t, plan.schedule, Collective::ALLREDUCE, {}, Op::SUM, 0, false, emulator::Checking::STRICT,
                          true);
  EXPECT_NE(forwarding_violation(o.run, router_flags(*t)), "");
}

TEST(RoutedTree, TimedRunsOnAShortestPathTreeAlsoOnlyForward) {
  const auto t = topology::make_topology("tiers:4");
  const auto relays = router_flags(*t);
  const auto plan = routed_tree_schedule(*t, shortest_path_tree(*t, 0), relays, Collective::ALLREDUCE, {});
  EXPECT_EQ(plan.variant, "routed bfs tree");
  const auto o = run_plan(*t, plan.schedule, Collective::ALLREDUCE, {}, Op::SUM, 0, /*timed=*/true,
                          emulator::Checking::ARBITRATED, true);
  EXPECT_TRUE(o.report.ok()) << o.report.serialize();
  EXPECT_EQ(forwarding_violation(o.run, relays), "");
}

TEST(RoutedTree, TheStepsStayAboveTheProcessorsBound) {
  for (const char* spec : PLATFORMS) {
    const auto t = topology::make_topology(spec);
    const auto relays = router_flags(*t);
    const auto processors = static_cast<NodeId>(std::count(relays.begin(), relays.end(), false));
    const auto hops = diameter(*t, false, false, relays).value;
    for (const PortModel& ports : MODELS) {
      const auto plan = routed_tree_schedule(*t, 0, relays, Collective::ALLREDUCE, ports);
      const auto bound = step_lower_bound(Collective::ALLREDUCE, ports, processors,
                                          static_cast<std::uint64_t>(hops.num()), /*relays=*/true);
      EXPECT_LE(bound.value(), plan.schedule.steps()) << spec << " " << ports.to_string();
    }
  }
}

TEST(RoutedTree, TheEmulatorChecksTheRoutersPortsAtEveryStep) {
  // Two hosts hand their words to their edge switch, which passes each to the other host in one
  // step: two sends of a single-port router in one step, a violation the emulator names.
  const auto t = topology::make_topology("fattree:4");
  const auto relays = router_flags(*t);
  const NodeId a = *find_node(*t, "h0_0_0");
  const NodeId b = *find_node(*t, "h0_0_1");
  const NodeId e = *find_node(*t, "e0_0");
  const std::vector<Transfer> swap = {{0, a, e, Operand::ACC, Merge::REPLACE, Operand::RELAY, 0},
                                     {1, b, e, Operand::ACC, Merge::REPLACE, Operand::RELAY, 1},
                                     {2, e, b, Operand::RELAY, Merge::REPLACE, Operand::NONE, 0},
                                     {2, e, a, Operand::RELAY, Merge::REPLACE, Operand::NONE, 1}};
  const Schedule plan(t->num_nodes(), swap, {}, relays);
  EXPECT_ERROR(ModelViolation, (void)run_plan(*t, plan, Collective::BROADCAST, {}), "e0_0");
  // With two ports the same plan runs.
  EXPECT_TRUE(run_plan(*t, plan, Collective::BROADCAST, {2, false}, Op::SUM, a).report.plan_errors == 0);
}

TEST(RoutedTree, TheImplicitFamiliesHaveNoRouters) {
  EXPECT_TRUE(router_flags(*topology::make_topology("star:4")).empty());
  EXPECT_TRUE(router_flags(*topology::make_topology("torus:3x3")).empty());
  EXPECT_EQ(router_flags(*topology::make_topology("fattree:4")).size(), 36U);
}

TEST(RoutedTree, RejectsABlockedCollectiveNamingIt) {
  const auto t = topology::make_topology("fattree:4");
  EXPECT_ERROR(ScheduleError, (void)routed_tree_schedule(*t, 0, router_flags(*t), Collective::ALLGATHER, {}),
               "allgather", "fattree:4");
}

}  // namespace
}  // namespace starnet::algorithms::generic
