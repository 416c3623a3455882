// Arbitrated checking's decisions (emulator/src/arbiter.hpp): which waiting transfers start, in
// which order, and that nothing left waiting could have started beside them.
#include "../../emulator/src/arbiter.hpp"
#include "../topology/network_examples.hpp"

#include <starnet/topology/network.hpp>

#include <gtest/gtest.h>

#include <memory>

#include <string>
#include <utility>
#include <vector>

namespace starnet::emulator {
namespace {

using Pair = std::pair<NodeId, NodeId>;

struct Round {
  std::vector<Pair> started;
  std::vector<Pair> waiting;  // asked for this round and not started
};

Round decide(Arbiter& a) {
  Round r;
  for (const auto& d : a.arbitrate()) (d.starts ? r.started : r.waiting).emplace_back(d.from, d.to);
  return r;
}

Arbiter with_ports(NodeId nodes, unsigned ports, bool half) {
  Arbiter a;
  a.reset(nodes, PortModel{ports, half});
  return a;
}

/// The certificate of maximality: no transfer left waiting could start with the ports as they are.
void expect_maximal(const Arbiter& a) {
  a.for_each_waiting([&](NodeId from, NodeId to, Port) {
    const auto posted = a.posted(to);
    const bool accepted = !posted || (*posted && **posted == from);
    EXPECT_FALSE(accepted && a.has_free_port(from, true) && a.has_free_port(to, false))
        << from << "->" << to << " waits although both ends are free";
  });
}

TEST(Arbiter, HalfDuplexRingStartsEveryOtherTransferInSenderOrder) {
  // Every node sends to its successor and receives from its predecessor: a node cannot do both.
  auto a = with_ports(/*nodes=*/6, /*ports=*/1, /*half=*/true);
  for (NodeId v = 0; v < 6; ++v) a.request(v, (v + 1) % 6, 0, true, Arbiter::NONE);
  const auto first = decide(a);
  EXPECT_EQ(first.started, (std::vector<Pair>{{0, 1}, {2, 3}, {4, 5}}));
  EXPECT_EQ(first.waiting, (std::vector<Pair>{{1, 2}, {3, 4}, {5, 0}}));
  expect_maximal(a);
  for (const auto& [u, v] : first.started) EXPECT_TRUE(a.release(u, v));
  const auto second = decide(a);
  EXPECT_EQ(second.started, (std::vector<Pair>{{1, 2}, {3, 4}, {5, 0}}));
  EXPECT_TRUE(second.waiting.empty());
  EXPECT_FALSE(a.any_waiting());
}

TEST(Arbiter, HalfDuplexOddRingNeedsAThirdRound) {
  auto a = with_ports(/*nodes=*/5, /*ports=*/1, /*half=*/true);
  for (NodeId v = 0; v < 5; ++v) a.request(v, (v + 1) % 5, 0, true, Arbiter::NONE);
  const auto first = decide(a);
  EXPECT_EQ(first.started, (std::vector<Pair>{{0, 1}, {2, 3}}));
  expect_maximal(a);
  for (const auto& [u, v] : first.started) EXPECT_TRUE(a.release(u, v));
  // 1->2 and 3->4 asked first (earlier senders), so 4->0 finds 4 receiving.
  EXPECT_EQ(decide(a).started, (std::vector<Pair>{{1, 2}, {3, 4}}));
  expect_maximal(a);
  EXPECT_TRUE(a.release(1, 2));
  EXPECT_TRUE(a.release(3, 4));
  EXPECT_EQ(decide(a).started, (std::vector<Pair>{{4, 0}}));
}

TEST(Arbiter, AWaitingSendHoldsNoPort) {
  // Full duplex, one port: 0's send to a busy receiver does not keep 0 from sending elsewhere.
  auto a = with_ports(/*nodes=*/4, /*ports=*/1, /*half=*/false);
  a.request(3, 1, 0, true, Arbiter::NONE);
  EXPECT_EQ(decide(a).started, (std::vector<Pair>{{3, 1}}));
  a.request(0, 1, 0, true, Arbiter::NONE);
  a.request(0, 2, 1, true, Arbiter::NONE);
  const auto r = decide(a);
  EXPECT_EQ(r.started, (std::vector<Pair>{{0, 2}}));
  EXPECT_EQ(r.waiting, (std::vector<Pair>{{0, 1}}));
  expect_maximal(a);
}

TEST(Arbiter, EarlierRequestsGoFirstThenSenderThenReceiver) {
  auto a = with_ports(/*nodes=*/6, /*ports=*/1, /*half=*/false);
  a.request(0, 1, 0, true, Arbiter::NONE);  // holds 1's receive port
  (void)decide(a);
  a.request(5, 1, 0, true, Arbiter::NONE);  // asked in an earlier round than 3->1
  (void)decide(a);
  // Asked 4, 3, 2 in one round: they wait in sender order.
  a.request(4, 1, 0, true, Arbiter::NONE);
  a.request(3, 1, 0, true, Arbiter::NONE);
  a.request(2, 1, 0, true, Arbiter::NONE);
  EXPECT_EQ(decide(a).waiting, (std::vector<Pair>{{2, 1}, {3, 1}, {4, 1}}));
  const std::vector<Pair> expected = {{5, 1}, {2, 1}, {3, 1}, {4, 1}};
  NodeId last = 0;
  for (const auto& next : expected) {
    EXPECT_TRUE(a.release(last, 1));
    EXPECT_EQ(decide(a).started, std::vector<Pair>{next}) << "after " << last << "->1 ended";
    last = next.first;
  }
}

TEST(Arbiter, AConsumedPostLetsAnEarlierRequestThroughInTheSamePass) {
  // Two receive ports; node 0 takes 2 first, then 1. 1->0 is looked at first and passed over;
  // once 2->0 has consumed its post, 1->0 is the next sender posted and starts in the same round.
  auto a = with_ports(/*nodes=*/3, /*ports=*/2, /*half=*/false);
  a.post(0, 2);
  a.post(0, 1);
  a.request(1, 0, 0, true, Arbiter::NONE);
  a.request(2, 0, 0, true, Arbiter::NONE);
  const auto r = decide(a);
  EXPECT_EQ(r.started, (std::vector<Pair>{{2, 0}, {1, 0}}));
  EXPECT_EQ(r.waiting, (std::vector<Pair>{{1, 0}}));  // traced once as waiting, then started
  EXPECT_FALSE(a.any_waiting());
  ASSERT_TRUE(a.posted(0).has_value());
  EXPECT_FALSE(a.posted(0)->has_value());  // posts used up: node 0 takes nobody now
}

TEST(Arbiter, AZeroDurationTransferHoldsNoPort) {
  auto a = with_ports(/*nodes=*/3, /*ports=*/1, /*half=*/true);
  a.request(0, 1, 0, true, Arbiter::NONE);
  a.request(1, 2, 0, /*occupies=*/false, Arbiter::NONE);
  EXPECT_EQ(decide(a).started, (std::vector<Pair>{{0, 1}, {1, 2}}));
  EXPECT_EQ(a.sends(1), 0U);
  EXPECT_EQ(a.receives(1), 1U);
}

TEST(Arbiter, RefusesToReleaseATransferThatHoldsNoPort) {
  auto a = with_ports(/*nodes=*/3, /*ports=*/1, /*half=*/false);
  EXPECT_FALSE(a.release(0, 1));
  EXPECT_FALSE(a.release(0, 7));  // no such node
  a.request(0, 1, 0, true, Arbiter::NONE);
  (void)decide(a);
  EXPECT_FALSE(a.release(1, 0));
  EXPECT_TRUE(a.release(0, 1));
  EXPECT_FALSE(a.release(0, 1));
}

TEST(Arbiter, KeepsTheMessageRecordOfEachDecision) {
  auto a = with_ports(/*nodes=*/2, /*ports=*/1, /*half=*/true);
  a.request(0, 1, 0, true, /*message=*/7);
  a.request(1, 0, 0, true, /*message=*/9);
  const auto& d = a.arbitrate();
  ASSERT_EQ(d.size(), 2U);
  EXPECT_EQ(d[0].message, 7U);
  EXPECT_TRUE(d[0].starts);
  EXPECT_EQ(d[1].message, 9U);
  EXPECT_FALSE(d[1].starts);
  EXPECT_TRUE(a.release(0, 1));
  const auto& next = a.arbitrate();
  ASSERT_EQ(next.size(), 1U);
  EXPECT_EQ(next[0].message, 9U);
  EXPECT_TRUE(next[0].starts);
}

}  // namespace
}  // namespace starnet::emulator

namespace starnet::emulator {
namespace {

TEST(Arbiter, ATransferWaitsForABusyLinkOfItsRouteAndStartsWhenItFrees) {
  const auto net = testing::dumbbell_hosts(/*per_switch=*/2);  // h0_0, h0_1 on s0; h1_0, h1_1 on s1
  Arbiter a;
  a.reset(4, PortModel{}, net.get());
  a.request(0, 2, 0, true, Arbiter::NONE);  // h0_0 -> h1_0 over s0->s1
  a.request(1, 3, 0, true, Arbiter::NONE);  // h0_1 -> h1_1 over s0->s1 too
  a.request(2, 1, 0, true, Arbiter::NONE);  // h1_0 -> h0_1: the other direction, free
  const auto& first = a.arbitrate();
  ASSERT_EQ(first.size(), 3U);
  EXPECT_TRUE(first[0].starts);
  EXPECT_FALSE(first[1].starts);
  EXPECT_EQ(first[1].blocker, Arbiter::Blocker::LINK);
  EXPECT_EQ(net->link_label(first[1].link), "s0->s1");
  EXPECT_TRUE(first[2].starts);
  ASSERT_TRUE(a.release(0, 2));
  const Round second = decide(a);
  EXPECT_EQ(second.started, (std::vector<Pair>{{1, 3}}));
  std::vector<topology::LinkId> route;
  net->route(0, 2, route);
  EXPECT_EQ(a.link_messages(route[1]), 2U);  // both crossed s0->s1, one after the other
}

}  // namespace
}  // namespace starnet::emulator
