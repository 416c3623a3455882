// The earliest-completion tree: a root with one port hands a child on to a served neighbour that
// relays it sooner than the root's own next link; with two ports it serves both itself; a
// refusal names the node not reached.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/earliest_completion_tree.hpp>
#include <starnet/algorithms/generic/shortest_path_tree.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/platform.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::generic {
namespace {

/// a – b, a – c, a – d of cost 2; b – c, b – d of cost 1: every cheapest path from a is direct.
topology::Platform fan() {
  topology::Platform p("fan", /*directed=*/false);
  for (const char* name : {"a", "b", "c", "d"}) p.add_node({name});
  for (const NodeId v : {1, 2, 3}) p.add_link(0, v, {Rational(2)});
  p.add_link(1, 2, {Rational(1)});
  p.add_link(1, 3, {Rational(1)});
  return p;
}

TEST(EarliestCompletionTree, AOnePortRootHandsAChildToAServedNeighbourThatRelaysItSooner) {
  const topology::Platform p = fan();
  const topology::PlatformTopology t(p);
  // The shortest-path tree hangs b, c and d on a: one port serves them at 2, 4 and 6.
  EXPECT_EQ(shortest_path_tree(t, 0).parent, (std::vector<NodeId>{0, 0, 0, 0}));
  // a → b ends at 2; then b → c ends at 3 where a → c would end at 4; a → d and b → d both end at
  // 4, the earlier holder a takes d: everyone holds the word at 4.
  const auto one = earliest_completion_tree(t, /*root=*/0, /*ports=*/1);
  EXPECT_EQ(one.parent, (std::vector<NodeId>{0, 0, 1, 0}));
  EXPECT_EQ(one.depth, (std::vector<std::uint32_t>{0, 1, 2, 1}));
  EXPECT_EQ(one.order, (std::vector<NodeId>{0, 1, 3, 2}));
  // Two ports: a serves b and c at once (both end at 2), then b → d ends at 3 before a → d at 4.
  EXPECT_EQ(earliest_completion_tree(t, 0, /*ports=*/2).parent, (std::vector<NodeId>{0, 0, 0, 1}));
}

TEST(EarliestCompletionTree, OnEqualLinksItIsTheBinomialTreeAndNeedsNoSortedLinks) {
  // complete:8, one port: the holders double each round (1, 2, 4, 8), the root serving 1, 2, 4.
  const auto p = topology::make_platform("complete:8");
  const topology::PlatformTopology t(p);
  const auto sorted = earliest_completion_tree(t, 0, /*ports=*/1);
  EXPECT_EQ(sorted.parent, (std::vector<NodeId>{0, 0, 0, 1, 0, 1, 2, 3}));
  EXPECT_EQ(earliest_completion_tree(t, 0, 1, /*equal_links=*/true).parent, sorted.parent)
      << "port order is neighbour order here: the same tree";
}

TEST(EarliestCompletionTree, RefusesANodeTheRootDoesNotReachNamingIt) {
  topology::Platform p("apart", /*directed=*/false);
  for (const char* name : {"a", "b", "c"}) p.add_node({name});
  p.add_link(0, 1);
  const topology::PlatformTopology t(p);
  EXPECT_ERROR(ScheduleError, (void)earliest_completion_tree(t, 0, 1), "earliest-completion tree on apart",
               "node c is not reachable from root a");
}

}  // namespace
}  // namespace starnet::algorithms::generic
