#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/platform.hpp>

#include <gtest/gtest.h>

namespace starnet::topology {
namespace {

Platform triangle(bool directed) {
  Platform p("triangle", directed);
  p.add_node({"a"});
  p.add_node({"b", Role::ROUTER, Rational(1, 2)});
  p.add_node({"c", Role::PROCESSOR, 3, "123"});
  p.add_link(0, 1, {Rational(2, 3), 0});
  p.add_link(1, 2, {1, 2});
  p.add_link(2, 0, {5, 0});
  return p;
}

TEST(Platform, AddRejectsBadNodesAndLinksNamingThem) {
  Platform p = triangle(false);
  EXPECT_ERROR(TopologyError, p.add_node({"a"}), "triangle", "\"a\" is used twice");
  EXPECT_ERROR(TopologyError, p.add_node({""}), "empty name");
  EXPECT_ERROR(TopologyError, p.add_node({"d", Role::PROCESSOR, 0}), "node \"d\" has speed 0");
  EXPECT_ERROR(TopologyError, p.add_link(0, 0), "link a->a is a self-loop");
  EXPECT_ERROR(TopologyError, p.add_link(1, 0), "link b->a is given twice");
  EXPECT_ERROR(TopologyError, p.add_link(0, 2, {-1, 0}), "link a->c has cost -1");
  EXPECT_ERROR(TopologyError, (void)p.at("z", "--root"), "--root", "\"z\"", "triangle");
}

TEST(Platform, ValidateFindsParallelArcsAndOneWayLinksInUndirectedPlatforms) {
  Platform parallel = triangle(true);
  boost::add_edge(0, 1, LinkProperties{1, 0}, parallel.graph());
  EXPECT_ERROR(TopologyError, parallel.validate(), "link a->b is given twice");

  Platform one_way = triangle(false);
  boost::remove_edge(1, 0, one_way.graph());
  EXPECT_ERROR(TopologyError, one_way.validate(), "link a->b has no reverse arc");

  Platform uneven = triangle(false);
  uneven.graph()[boost::edge(2, 1, uneven.graph()).first].cost = 7;
  EXPECT_ERROR(TopologyError, uneven.validate(), "no reverse arc of the same cost");
  EXPECT_NO_THROW(triangle(false).validate());
}

TEST(Platform, DifferenceComparesByNameWhateverTheOrder) {
  const Platform a = triangle(false);
  Platform b("other", false);  // same platform, nodes and links in another order
  b.add_node({"c", Role::PROCESSOR, 3, "123"});
  b.add_node({"b", Role::ROUTER, Rational(1, 2)});
  b.add_node({"a"});
  b.add_link(2, 0, {5, 0});
  b.add_link(0, 1, {1, 2});
  b.add_link(1, 2, {Rational(2, 3), 0});
  EXPECT_EQ(difference(a, b), std::nullopt);

  EXPECT_NE(difference(a, triangle(true)), std::nullopt);
  Platform speed = triangle(false);
  speed.graph()[1].speed = 1;
  EXPECT_NE(difference(a, speed).value_or("").find("node \"b\""), std::string::npos);
  Platform cost = triangle(false);
  for (const auto e : boost::make_iterator_range(boost::out_edges(0, cost.graph()))) cost.graph()[e].cost = 9;
  EXPECT_NE(difference(a, cost).value_or("").find("cost"), std::string::npos);
  Platform fewer("fewer", false);
  fewer.add_node({"a"});
  EXPECT_NE(difference(a, fewer).value_or("").find("missing"), std::string::npos);
  EXPECT_NE(difference(fewer, a).value_or("").find("missing"), std::string::npos);
}

TEST(PlatformTopology, PortsAreOutArcsInInsertionOrderAndItOwnsThePlatform) {
  const PlatformTopology t(triangle(true));  // built from a temporary
  EXPECT_EQ(t.name(), "triangle");
  EXPECT_EQ(t.num_nodes(), 3U);
  EXPECT_EQ(t.degree(0), 1U);
  EXPECT_EQ(t.neighbor(1, 0), 2U);
  EXPECT_EQ(t.port_to(2, 0), Port{0});
  EXPECT_EQ(t.port_to(0, 2), std::nullopt);
  EXPECT_EQ(t.link_cost(0, 0), Rational(2, 3));
  EXPECT_EQ(t.link_name(1, 0), "b->c");
  EXPECT_EQ(t.speed(1), Rational(1, 2));
  EXPECT_EQ(t.node_name(2), "c");
  EXPECT_EQ(t.platform().num_links(), 3U);
}

}  // namespace
}  // namespace starnet::topology
