#include "generic_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace starnet::algorithms::generic {
namespace {

using emulator::PortModel;
using testing::run_plan;

Transfer combine(std::uint32_t step, NodeId from, NodeId to) {
  return {step, from, to, Operand::ACC, Merge::COMBINE, Operand::NONE};
}

TEST(Schedule, OrdersEachNodesActionsSavesThenSendsThenReceivesByStep) {
  const Schedule s(3, {combine(1, 1, 0), combine(0, 0, 1), combine(1, 0, 2)}, {{1, 0, Operand::SLOT_0}});
  EXPECT_EQ(s.steps(), 2U);
  EXPECT_EQ(s.transfers().size(), 3U);
  const auto a = s.actions(0);
  ASSERT_EQ(a.size(), 4U);
  EXPECT_EQ(a[0].kind, Action::Kind::SEND);  // step 0 to 1
  EXPECT_EQ(a[0].peer, 1U);
  EXPECT_EQ(a[1].kind, Action::Kind::SAVE);  // step 1: save, send to 2, receive from 1
  EXPECT_EQ(a[2].kind, Action::Kind::SEND);
  EXPECT_EQ(a[2].peer, 2U);
  EXPECT_EQ(a[3].kind, Action::Kind::RECEIVE);
  EXPECT_EQ(a[3].peer, 1U);
  EXPECT_EQ(Schedule(4, {}).steps(), 0U);
}

TEST(Schedule, RejectsImpossibleTransfersNamingThem) {
  EXPECT_ERROR(ScheduleError, Schedule(3, {combine(2, 0, 5)}), "0 -> 5", "step 2", "0..2");
  EXPECT_ERROR(ScheduleError, Schedule(3, {combine(0, 1, 1)}), "1 -> 1", "self-loop");
  EXPECT_ERROR(ScheduleError, Schedule(3, {combine(4, 0, 1), combine(4, 0, 1)}), "0 -> 1", "step 4", "twice");
  EXPECT_ERROR(ScheduleError, Schedule(3, {{0, 0, 1, Operand::NONE, Merge::COMBINE, Operand::NONE}}), "0 -> 1");
  EXPECT_ERROR(ScheduleError, Schedule(3, {}, {{0, 1, Operand::ACC}}), "node 1", "step 0");
}

TEST(ScheduleProgram, RunsAnExchangeInOneStepAndVerifiesEveryNode) {
  const auto k2 = topology::make_topology("complete:2");
  const Schedule s(2, {combine(0, 0, 1), combine(0, 1, 0)});
  for (const Op op : {Op::SUM, Op::MIN, Op::MAX, Op::XOR}) {
    const auto o = run_plan(*k2, s, Collective::ALLREDUCE, {}, op);
    EXPECT_EQ(o.run.makespan, Rational(1)) << to_string(op);
    EXPECT_TRUE(o.report.ok()) << to_string(op);
    EXPECT_EQ(o.report.nodes_checked, 2U);
  }
}

TEST(ScheduleProgram, AWrongPlanIsCaughtByTheCheckOfEveryNode) {
  // Node 2 never hears from node 0: an all-reduce on a path 0 - 1 - 2 that forgets a transfer.
  const auto path = topology::make_topology("mesh:1x3");
  const Schedule s(3, {combine(0, 0, 1), combine(1, 1, 2), {2, 2, 1, Operand::ACC, Merge::REPLACE, Operand::NONE}});
  const auto o = run_plan(*path, s, Collective::ALLREDUCE, {});
  EXPECT_FALSE(o.report.ok());
  EXPECT_EQ(o.report.nodes_checked, 3U);
  EXPECT_EQ(o.report.nodes_correct, 2U);  // 1 and 2 hold 6, node 0 holds 1
  EXPECT_EQ(o.report.first_wrong, 0);
  // As a reduce to node 2 the same plan is right: only the root is checked.
  const auto reduce = run_plan(*path, s, Collective::REDUCE, {}, Op::SUM, /*root=*/2);
  EXPECT_TRUE(reduce.report.ok());
  EXPECT_EQ(reduce.report.nodes_checked, 1U);
}

TEST(ScheduleProgram, StrictModeRejectsAPlanThatBreaksThePortModel) {
  // Node 0 sends to 1 and 2 in the same step: two sends under the single-port model.
  const auto k3 = topology::make_topology("complete:3");
  const Schedule s(3, {combine(0, 0, 1), combine(0, 0, 2)});
  EXPECT_ERROR(ModelViolation, run_plan(*k3, s, Collective::REDUCE, {}, Op::SUM, 1), "step 0", "send port is busy");
  // Two ports allow it.
  EXPECT_EQ(run_plan(*k3, s, Collective::REDUCE, {2, false}, Op::SUM, 1).run.makespan, Rational(1));
}

TEST(ScheduleProgram, SendsWaitForTheirPlannedStepInUnitTime) {
  // 1 → 0 at step 0, 2 → 0 at step 1: node 2 waits a step (timers), then 0 forwards at step 2.
  const auto k3 = topology::make_topology("complete:3");
  const Schedule s(3, {combine(0, 1, 0), combine(1, 2, 0), {2, 0, 1, Operand::ACC, Merge::REPLACE, Operand::NONE}});
  const auto o = run_plan(*k3, s, Collective::REDUCE, {}, Op::SUM, 1);
  EXPECT_EQ(o.run.makespan, Rational(3));
  EXPECT_TRUE(o.report.ok());
  EXPECT_EQ(o.run.counters.messages, 3U);
}

TEST(ScheduleProgram, DelaysOfArbitratedUnitRunsShowAsPlanErrors) {
  // Two transfers into node 0 at step 0 under one port: arbitration delays one, so node 0's send
  // planned at step 1 cannot start on time.
  const auto k3 = topology::make_topology("complete:3");
  const Schedule s(3, {combine(0, 1, 0), combine(0, 2, 0), {1, 0, 1, Operand::ACC, Merge::REPLACE, Operand::NONE}});
  const auto o = run_plan(*k3, s, Collective::REDUCE, {}, Op::SUM, 0, false, emulator::Checking::ARBITRATED);
  EXPECT_EQ(o.report.plan_errors, 1U);
  EXPECT_EQ(o.report.first_error, 0);
  EXPECT_FALSE(o.report.ok());
}

TEST(ScheduleProgram, TimedRunsFollowPlanOrderWhateverTheArrivalOrder) {
  // On a weighted triangle, 1 → 0 is slow and 2 → 0 fast: node 0 receives 2's word first but
  // applies the words in plan order, and forwards acc only after both.
  topology::Platform p("triangle", false);
  for (const char* name : {"a", "b", "c"}) p.add_node({name});
  p.add_link(0, 1, {Rational(7, 2)});
  p.add_link(0, 2, {Rational(1, 3)});
  p.add_link(1, 2, {Rational(1)});
  const topology::PlatformTopology t(std::move(p));
  const Schedule s(3, {combine(0, 1, 0),
                       combine(1, 2, 0),
                       {2, 0, 1, Operand::ACC, Merge::REPLACE, Operand::NONE},
                       {2, 0, 2, Operand::ACC, Merge::REPLACE, Operand::NONE}});
  const auto o = run_plan(t, s, Collective::ALLREDUCE, {2, false}, Op::SUM, 0, /*timed=*/true);
  EXPECT_TRUE(o.report.ok());
  EXPECT_EQ(o.run.makespan, Rational(7, 2) + Rational(7, 2));  // 1 → 0, then 0 → 1
}

TEST(ScheduleReport, SerializesAndMerges) {
  ScheduleReport a{3, 2, 5, 0, -1};
  const ScheduleReport b{4, 4, -1, 2, 1};
  EXPECT_EQ(ScheduleReport::parse(a.serialize()).serialize(), a.serialize());
  a.merge(b);
  EXPECT_EQ(a.nodes_checked, 7U);
  EXPECT_EQ(a.nodes_correct, 6U);
  EXPECT_EQ(a.first_wrong, 5);
  EXPECT_EQ(a.plan_errors, 2U);
  EXPECT_EQ(a.first_error, 1);
  EXPECT_ERROR(Error, ScheduleReport::parse("1 2"), "\"1 2\"");
}

Transfer relayed(std::uint32_t step, NodeId from, NodeId to, Operand source, Operand keep, std::uint32_t message) {
  return {step, from, to, source, keep == Operand::RELAY ? Merge::REPLACE : Merge::COMBINE, keep, message};
}

TEST(Schedule, ARelayForwardsEachMessageOnceAfterItArrives) {
  // 0 — 1 — 2 with 1 a relay: 0's word reaches 2 through 1.
  const std::vector<bool> relays = {false, true, false};
  const Transfer in = relayed(0, 0, 1, Operand::ACC, Operand::RELAY, 7);
  const Transfer out = relayed(1, 1, 2, Operand::RELAY, Operand::NONE, 7);
  const Schedule ok(3, {in, out}, {}, relays);
  EXPECT_TRUE(ok.relay(1));
  EXPECT_FALSE(ok.relay(0));
  // Sent before it arrived, never sent on, sent twice, or a relay's acc: all refused, naming the relay.
  const Transfer early_in = relayed(1, 0, 1, Operand::ACC, Operand::RELAY, 7);
  const Transfer early_out = relayed(0, 1, 2, Operand::RELAY, Operand::NONE, 7);
  EXPECT_ERROR(ScheduleError, Schedule(3, {early_in, early_out}, {}, relays), "relay 1", "message 7",
               "has not received");
  EXPECT_ERROR(ScheduleError, Schedule(3, {in}, {}, relays), "relay 1", "never sends on message 7");
  const Transfer again = relayed(2, 1, 0, Operand::RELAY, Operand::NONE, 7);
  EXPECT_ERROR(ScheduleError, Schedule(3, {in, out, again}, {}, relays), "relay 1", "sent already");
  const Transfer combining_in = relayed(0, 0, 1, Operand::ACC, Operand::NONE, 7);
  EXPECT_ERROR(ScheduleError, Schedule(3, {combining_in, out}, {}, relays), "0 -> 1", "whole messages");
  EXPECT_ERROR(ScheduleError, Schedule(3, {}, {{0, 1, Operand::SLOT_0}}, relays), "node 1", "relay");
}

}  // namespace
}  // namespace starnet::algorithms::generic
