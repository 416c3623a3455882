// The shortest-path tree: parents on cheapest paths (a two-hop detour of cost 2 beats a direct link
// of cost 8), parents before children in its order, and a refusal naming the node not reached.
#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/shortest_path_tree.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/platform.hpp>

#include <gtest/gtest.h>

namespace starnet::algorithms::generic {
namespace {

TEST(ShortestPathTree, TakesTheCheapDetourOverTheSlowDirectLink) {
  topology::Platform p("detour", /*directed=*/false);
  for (const char* name : {"a", "b", "c", "d"}) p.add_node({name});
  p.add_link(0, 1, {Rational(8)});  // a – b, slow
  p.add_link(0, 2, {Rational(1)});  // a – c
  p.add_link(2, 1, {Rational(1)});  // c – b
  p.add_link(0, 3, {Rational(1)});  // a – d
  const topology::PlatformTopology t(p);
  const auto tree = shortest_path_tree(t, /*root=*/0);
  EXPECT_EQ(tree.parent, (std::vector<NodeId>{0, 2, 0, 0}));
  EXPECT_EQ(tree.depth, (std::vector<std::uint32_t>{0, 2, 1, 1}));
  EXPECT_EQ(tree.order, (std::vector<NodeId>{0, 2, 3, 1}));
}

TEST(ShortestPathTree, RefusesANodeTheRootDoesNotReachNamingIt) {
  topology::Platform p("apart", /*directed=*/false);
  for (const char* name : {"a", "b", "c"}) p.add_node({name});
  p.add_link(0, 1);
  const topology::PlatformTopology t(p);
  EXPECT_ERROR(ScheduleError, (void)shortest_path_tree(t, 0), "node c is not reachable from root a");
}

}  // namespace
}  // namespace starnet::algorithms::generic
