#include "../../core/expect_error.hpp"
#include "../generic/generic_test_support.hpp"

#include <starnet/algorithms/collectives/block_collectives.hpp>
#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace starnet::algorithms::collectives {
namespace {

using emulator::PortModel;

const PortModel MODELS[] = {{1, false}, {1, true}, {2, false}, {2, true}};

TEST(RoutedTreeCollective, RoutersHoldNoBlockAndOnlyForwardWhileEveryProcessorEndsRight) {
  for (const char* spec : {"fattree:4", "dragonfly:2:2:1", "dragonfly:4:3:2", "tiers:1", "tiers:4"}) {
    const auto t = topology::make_topology(spec);
    const auto relays = generic::router_flags(*t);
    const auto processors = static_cast<std::uint32_t>(std::count(relays.begin(), relays.end(), false));
    for (const Collective c : {Collective::ALLGATHER, Collective::GATHER, Collective::SCATTER,
                               Collective::REDUCESCATTER, Collective::ALLTOALL}) {
      for (const PortModel& ports : MODELS) {
        SCOPED_TRACE(std::string(spec) + " " + to_string(c) + " " + ports.to_string());
        std::string variant;
        const auto s = routed_tree_collective(*t, 0, c, ports, relays, &variant);
        EXPECT_NE(variant.find("routed"), std::string::npos) << variant;
        // One block per processor; a router has none in and none out.
        EXPECT_EQ(s.rules().members(), processors);
        EXPECT_EQ(s.rules().chunks(), processors);
        for (std::uint32_t v = 0; v < s.nodes(); ++v) {
          std::uint32_t inputs = 0;
          std::uint32_t outputs = 0;
          s.rules().for_each_input(v, [&](std::uint32_t, std::uint64_t) { ++inputs; });
          s.rules().for_each_output(v, [&](std::uint32_t, std::uint64_t, bool) { ++outputs; });
          if (relays[v]) {
            EXPECT_EQ(inputs + outputs, 0U) << t->node_name(v);
          } else {
            const bool all = c == Collective::ALLGATHER || c == Collective::ALLTOALL ||
                             (c == Collective::GATHER && v == 0);
            const bool own = c == Collective::SCATTER || c == Collective::REDUCESCATTER;
            EXPECT_EQ(outputs, all ? processors : own ? 1U : 0U) << t->node_name(v);
          }
        }
        schedule::ScheduleRunSettings settings;
        settings.config.ports = ports;
        settings.config.trace = true;
        const auto run = schedule::run_schedule(s, *t, settings);  // strict checks: a violation throws
        EXPECT_TRUE(run.verified) << run.report.first_problem();
        EXPECT_EQ(generic::testing::forwarding_violation(run.run, relays), "");
      }
    }
  }
}

TEST(RoutedTreeCollective, TheTreeOverEveryNodeGivesRoutersBlocksAndCopies) {
  // The check above is not vacuous: the tree all-gather over every node of fattree:4 has a block
  // for each switch and copies at the switches.
  const auto t = topology::make_topology("fattree:4");
  const auto s = tree_collective(*t, 0, Collective::ALLGATHER, 1);
  EXPECT_EQ(s.rules().members(), t->num_nodes());
  schedule::ScheduleRunSettings settings;
  settings.config.trace = true;
  const auto run = schedule::run_schedule(s, *t, settings);
  EXPECT_NE(generic::testing::forwarding_violation(run.run, generic::router_flags(*t)), "");
}

TEST(RoutedTreeCollective, RejectsAWordCollectiveAndAnAllToAllOfMoreThan128Processors) {
  const auto t = topology::make_topology("fattree:4");
  EXPECT_ERROR(ScheduleError, (void)routed_tree_collective(*t, 0, Collective::ALLREDUCE, {}, generic::router_flags(*t)),
               "allreduce", "fattree:4", "blocked collectives");
  const auto big = topology::make_topology("dragonfly:4:4:2");  // 144 processors
  EXPECT_ERROR(ScheduleError,
               (void)routed_tree_collective(*big, 0, Collective::ALLTOALL, {}, generic::router_flags(*big)),
               "dragonfly:4:4:2", "144 processors", "128");
}

TEST(ChunkRules, RelaysHaveNoBlockAndTakeCopiesOnly) {
  // 0 — 1 — 2, node 1 a relay: an all-gather of two blocks between 0 and 2.
  const std::vector<bool> relays = {false, true, false};
  const schedule::ChunkRules rules(Collective::ALLGATHER, 3, 2, 0, relays);
  EXPECT_EQ(rules.members(), 2U);
  EXPECT_TRUE(rules.relay(1));
  EXPECT_EQ(rules.rank(2), 1U);
  EXPECT_EQ(rules.member(1), 2U);
  EXPECT_ERROR(ScheduleError, schedule::ChunkRules(Collective::GATHER, 3, 2, 1, relays), "root 1", "relay");
  EXPECT_ERROR(ScheduleError, schedule::ChunkRules(Collective::ALLGATHER, 3, 3, 0, relays), "3 chunks",
               "2 participants");
  schedule::ScheduleBuilder b(rules, 0);
  const schedule::TransferItem reduce[] = {{0, 0, schedule::ItemOp::REDUCE}};
  EXPECT_ERROR(ScheduleError, b.add_transfer(0, 0, 1, reduce, "the transfer"), "reduce", "node 1", "relay");
}

}  // namespace
}  // namespace starnet::algorithms::collectives
