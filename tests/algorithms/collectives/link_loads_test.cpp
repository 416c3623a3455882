// What each directed link carries (collectives/link_loads.hpp): on a network of switches every
// link of a message's route, on a direct topology the one link from sender to receiver.
#include "../../topology/network_examples.hpp"
#include <starnet/algorithms/collectives/link_loads.hpp>
#include <starnet/topology/families.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <map>

namespace starnet::algorithms::collectives {
namespace {

constexpr auto ALL = std::numeric_limits<std::size_t>::max();

std::map<std::string, LinkLoad> by_link(const std::vector<LinkLoad>& loads) {
  std::map<std::string, LinkLoad> out;
  for (const auto& l : loads) out.emplace(l.link, l);
  return out;
}

TEST(LinkTally, OnTwoSwitchesEveryMessageAcrossHoldsTheLinkBetweenThem) {
  // Hosts h0_0, h0_1 on s0 and h1_0, h1_1 on s1 (ranks in that order): three messages from the
  // left to the right, one within the left, one back.
  const auto net = starnet::testing::dumbbell_hosts(2);
  LinkTally tally(*net);
  tally.add(0, 2, Rational(1), Rational(3));
  tally.add(0, 3, Rational(2), Rational(4));
  tally.add(1, 2, Rational(1), Rational(3));
  tally.add(0, 1, Rational(5), Rational(1));
  tally.add(3, 1, Rational(1), Rational(2));
  const auto loads = by_link(tally.loads(ALL));
  ASSERT_TRUE(loads.contains("s0->s1"));
  EXPECT_EQ(loads.at("s0->s1").messages, 3U);
  EXPECT_EQ(loads.at("s0->s1").packets, Rational(4));
  EXPECT_EQ(loads.at("s0->s1").busy, Rational(10));
  EXPECT_EQ(loads.at("s1->s0").messages, 1U);
  EXPECT_EQ(loads.at("h0_0->s0").messages, 3U);
  EXPECT_EQ(loads.at("h0_0->s0").packets, Rational(8));
  EXPECT_FALSE(loads.contains("s0->h0_0")) << "nothing came back to h0_0";
  EXPECT_EQ(tally.loads(1).front().link, "h0_0->s0") << "the most packets first";
}

TEST(LinkTally, OnADirectTopologyAMessageHoldsTheLinkToItsReceiver) {
  const auto ring = topology::make_topology("ring:4");
  LinkTally tally(*ring);
  tally.add(0, 1, Rational(1), Rational(1));
  tally.add(0, 1, Rational(2), Rational(1));
  tally.add(1, 0, Rational(1), Rational(1));
  tally.add(3, 0, Rational(1, 2), Rational(7, 2));
  const auto loads = tally.loads(ALL);
  ASSERT_EQ(loads.size(), 3U);
  EXPECT_EQ(loads[0].link, "0->1");
  EXPECT_EQ(loads[0].messages, 2U);
  EXPECT_EQ(loads[0].packets, Rational(3));
  EXPECT_EQ(loads[1].link, "1->0");
  EXPECT_EQ(loads[2].link, "3->0");
  EXPECT_EQ(loads[2].busy, Rational(7, 2));
}

}  // namespace
}  // namespace starnet::algorithms::collectives
