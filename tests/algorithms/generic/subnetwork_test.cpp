#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace starnet::algorithms::generic {
namespace {

using Links = std::vector<std::pair<NodeId, NodeId>>;

TEST(SplitList, KeepsCommasInsideParentheses) {
  EXPECT_EQ(split_list("(0,1)-(0,2),3-4,,5"), (std::vector<std::string>{"(0,1)-(0,2)", "3-4", "5"}));
  EXPECT_TRUE(split_list("").empty());
  EXPECT_EQ(split_list("star:5,torus:11x11"), (std::vector<std::string>{"star:5", "torus:11x11"}));
}

TEST(FindNode, ByNameFirstThenByIndex) {
  const auto star = topology::make_topology("star:4");
  EXPECT_EQ(find_node(*star, "1234"), 0U);
  EXPECT_EQ(find_node(*star, "2134"), star->neighbor(0, 0));
  EXPECT_EQ(find_node(*star, "3"), 3U);               // index
  EXPECT_EQ(find_node(*star, "1123"), std::nullopt);  // not a permutation, not an index < 24
  const auto star10 = topology::make_topology("star:10");
  EXPECT_EQ(find_node(*star10, "2.1.3.4.5.6.7.8.9.10"), star10->neighbor(0, 0));
  const auto cube = topology::make_topology("hypercube:3");
  EXPECT_EQ(find_node(*cube, "011"), 3U);
  EXPECT_EQ(find_node(*cube, "7"), 7U);
  EXPECT_EQ(find_node(*cube, "8"), std::nullopt);
  const auto torus = topology::make_topology("torus:3x4");
  EXPECT_EQ(find_node(*torus, "(1,2)"), 6U);
  EXPECT_EQ(find_node(*torus, ""), std::nullopt);
}

TEST(ParseFailures, LinksAndNodesByNameOrIndex) {
  const auto torus = topology::make_topology("torus:3x4");
  EXPECT_EQ(parse_failed_links("(0,0)-(0,1),5-9", *torus, "failed links"), (Links{{0, 1}, {5, 9}}));
  EXPECT_EQ(parse_failed_nodes("(2,3),0", *torus, "failed nodes"), (std::vector<NodeId>{11, 0}));
  const auto cube = topology::make_topology("hypercube:7");
  EXPECT_EQ(parse_failed_links("3-19", *cube, "failed links"), (Links{{3, 19}}));
}

TEST(ParseFailures, BadItemsAreUsageErrorsNamingFlagItemAndTopology) {
  const auto cube = topology::make_topology("hypercube:7");
  EXPECT_ERROR(UsageError, parse_failed_links("3-17", *cube, "failed links"), "failed links 3-17", "no link 3-17",
               "hypercube:7", "0000011", "0010001");
  EXPECT_ERROR(UsageError, parse_failed_links("3-999", *cube, "failed links"), "\"3-999\"", "hypercube:7", "0..127");
  EXPECT_ERROR(UsageError, parse_failed_links("3", *cube, "failed links"), "\"3\"", "not a link");
  EXPECT_ERROR(UsageError, parse_failed_nodes("x", *cube, "failed nodes"), "failed nodes x", "\"x\"", "hypercube:7");
}

TEST(ParseFailures, ANameWithDashesThatSplitsTwoWaysIsRefused) {
  topology::Platform p("dashes", false);
  for (const char* name : {"a", "a-b", "b-c", "c"}) p.add_node({name});
  p.add_link(0, 2);  // a — b-c
  p.add_link(1, 3);  // a-b — c
  const topology::PlatformTopology t(std::move(p));
  EXPECT_ERROR(UsageError, parse_failed_links("a-b-c", t, "failed links"), "\"a-b-c\"", "more than one pair", "dashes");
  EXPECT_EQ(parse_failed_links("1-3", t, "failed links"), (Links{{1, 3}}));  // by index it is clear
}

TEST(RandomFailures, ReproducibleNestedInPAndNearTheRate) {
  const auto cube = topology::make_topology("hypercube:10");  // 5120 links
  const auto a = random_failed_links(*cube, 0.05, 7);
  EXPECT_EQ(a, random_failed_links(*cube, 0.05, 7));
  EXPECT_NE(a, random_failed_links(*cube, 0.05, 8));
  const auto b = random_failed_links(*cube, 0.2, 7);
  EXPECT_TRUE(std::includes(b.begin(), b.end(), a.begin(), a.end()));  // p ≤ p' fails a subset
  for (const auto& [u, v] : b) EXPECT_TRUE(u < v && cube->port_to(u, v)) << u << "-" << v;
  // Binomial(5120, 0.2): mean 1024, standard deviation 28.6; five deviations either way.
  EXPECT_NEAR(static_cast<double>(b.size()), 1024.0, 5 * 28.6);
  EXPECT_TRUE(random_failed_links(*cube, 0, 7).empty());
  EXPECT_EQ(random_failed_links(*cube, 1, 7).size(), 5120U);
}

TEST(Subnetwork, WithoutFaultsItIsTheTopology) {
  const auto torus = topology::make_topology("torus:3x4");
  const Subnetwork net(*torus, {}, 5, {});
  EXPECT_EQ(net.num_nodes(), 12U);
  EXPECT_EQ(net.root(), 5U);
  EXPECT_EQ(net.num_links(), 24U);
  EXPECT_TRUE(net.connected());
  EXPECT_TRUE(net.symmetric());
  EXPECT_EQ(net.uniform_cost(), Rational(1));
  for (NodeId v = 0; v < 12; ++v) {
    ASSERT_EQ(net.degree(v), torus->degree(v));
    for (topology::Port p = 0; p < net.degree(v); ++p) {
      EXPECT_EQ(net.neighbor(v, p), torus->neighbor(v, p));
      EXPECT_EQ(net.link_name(v, p), torus->link_name(v, p));
    }
  }
}

TEST(Subnetwork, RemovesFailedPartsAndKeepsWhatTheRootReaches) {
  // ring:6 without link 2-3 and node 5: a path 0 - 1 - 2 and an island 3 - 4 cut off from root 0.
  const auto ring = topology::make_topology("ring:6");
  const Subnetwork net(*ring, {{{3, 2}}, {5}}, 0, {});
  EXPECT_EQ(net.num_nodes(), 3U);
  EXPECT_EQ(net.alive_nodes(), 5U);
  EXPECT_FALSE(net.connected());
  EXPECT_EQ(net.num_links(), 2U);
  EXPECT_EQ(net.node_name(2), "2");
  EXPECT_EQ(net.degree(0), 1U);
  // Port order kept: ring:6's node 1 links 2 (port 0, toward i + 1), then 0 (since #59, one
  // direction at every node: docs/topology.md, "Ports").
  EXPECT_EQ(net.port_to(1, 2), 0U);
  EXPECT_EQ(net.port_to(1, 0), 1U);
  // From the island's side the root's part is what is left out.
  const Subnetwork island(*ring, {{{2, 3}}, {5}}, 4, {});
  EXPECT_EQ(island.num_nodes(), 2U);
  EXPECT_EQ(island.original(island.root()), 4U);
  EXPECT_EQ(island.original(0), 3U);
}

TEST(Subnetwork, RandomCostsAreSymmetricExactQuarters) {
  const auto cube = topology::make_topology("hypercube:6");
  const Subnetwork net(*cube, {}, 0, {CostKind::RANDOM, 3});
  std::set<Rational> seen;
  for (NodeId v = 0; v < net.num_nodes(); ++v) {
    for (topology::Port p = 0; p < net.degree(v); ++p) {
      const Rational c = net.link_cost(v, p);
      EXPECT_EQ(c, net.link_cost(net.neighbor(v, p), *net.port_to(net.neighbor(v, p), v)));
      EXPECT_TRUE(c >= Rational(1, 2) && c <= Rational(2)) << c;
      EXPECT_EQ((c * 4).den(), 1);
      seen.insert(c);
    }
  }
  EXPECT_EQ(seen.size(), 7U);  // 2/4 .. 8/4 all occur among 192 links
  EXPECT_FALSE(net.uniform_cost().has_value());
  EXPECT_EQ(net.min_cost(), Rational(1, 2));
  const Subnetwork same(*cube, {}, 0, {CostKind::RANDOM, 3});
  EXPECT_EQ(same.link_cost(9, 2), net.link_cost(9, 2));
}

TEST(Subnetwork, TopologyCostsComeFromThePlatform) {
  const auto tiers = topology::make_topology("tiers:4");
  const Subnetwork net(*tiers, {}, 0, {CostKind::TOPOLOGY});
  for (NodeId v = 0; v < net.num_nodes(); ++v) {
    for (topology::Port p = 0; p < net.degree(v); ++p) EXPECT_EQ(net.link_cost(v, p), tiers->link_cost(v, p));
  }
}

TEST(Subnetwork, ReportsALinkWithoutReverse) {
  topology::Platform p("one-way", /*directed=*/true);
  for (const char* name : {"a", "b"}) p.add_node({name});
  p.add_link(0, 1);
  const topology::PlatformTopology t(std::move(p));
  const Subnetwork net(t, {}, 0, {});
  EXPECT_FALSE(net.symmetric());
  EXPECT_EQ(net.asymmetric_arc(), (std::pair<NodeId, NodeId>{0, 1}));
}

TEST(Subnetwork, RejectsAFailedRootAndOversizedTopologies) {
  const auto ring = topology::make_topology("ring:6");
  EXPECT_ERROR(UsageError, Subnetwork(*ring, {{}, {2}}, 2, {}), "root 2", "ring:6", "failed");
  EXPECT_ERROR(UsageError, Subnetwork(*ring, {}, 6, {}), "root 6", "ring:6", "0..5");
  const topology::StarGraph s10(10);
  EXPECT_ERROR(TopologyError, Subnetwork(s10, {}, 0, {}), "star:10", "3628800", "1048576");
}

TEST(CostKind, ParsesItsNamesAndRejectsOthersNamingTheInput) {
  for (const CostKind k : {CostKind::UNIT, CostKind::TOPOLOGY, CostKind::RANDOM}) {
    EXPECT_EQ(parse_cost_kind(to_string(k), "--costs"), k);
  }
  EXPECT_ERROR(UsageError, parse_cost_kind("free", "--costs"), "--costs", "\"free\"", "unit, topology or random");
}

}  // namespace
}  // namespace starnet::algorithms::generic
