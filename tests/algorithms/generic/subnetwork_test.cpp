#include "../../core/expect_error.hpp"

#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
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

/// @p t without its network: a Subnetwork of it copies every arc, as for any other topology.
class WithoutNetwork final : public Topology {
 public:
  explicit WithoutNetwork(const Topology& t) : t_(t) {}
  [[nodiscard]] std::string name() const override { return t_.name(); }
  [[nodiscard]] NodeId num_nodes() const override { return t_.num_nodes(); }
  [[nodiscard]] Port degree(NodeId v) const override { return t_.degree(v); }
  [[nodiscard]] NodeId neighbor(NodeId v, Port port) const override { return t_.neighbor(v, port); }
  [[nodiscard]] Port find_port(NodeId v, NodeId u) const override { return t_.find_port(v, u); }
  [[nodiscard]] std::string node_name(NodeId v) const override { return t_.node_name(v); }
  [[nodiscard]] std::string link_name(NodeId v, Port port) const override { return t_.link_name(v, port); }
  [[nodiscard]] Rational link_cost(NodeId v, Port port) const override { return t_.link_cost(v, port); }
  [[nodiscard]] Rational link_latency(NodeId v, Port port) const override { return t_.link_latency(v, port); }
  [[nodiscard]] Rational speed(NodeId v) const override { return t_.speed(v); }

 private:
  const Topology& t_;
};

TEST(Subnetwork, ReadsTheIntactRoutesOfANetworkAsACopyOfThemWouldGiveThem) {
  const auto fattree = topology::make_topology("fattree:4");
  const auto* platform = dynamic_cast<const topology::PlatformTopology*>(fattree.get());
  ASSERT_NE(platform, nullptr);
  LinkCosts alpha_beta{CostKind::TOPOLOGY};
  alpha_beta.message_size = 1024;
  alpha_beta.latency = Rational(1, 1'000'000);
  alpha_beta.bandwidth = Rational(1'000'000'000);
  LinkCosts own{CostKind::TOPOLOGY};  // the platform's own link costs, route by route
  own.message_size = 8;
  struct Case {
    LinkCosts costs;
    Rational switch_latency;
    bool uniform;  // every route costs alike, known without reading them
  };
  const std::vector<Case> cases{{LinkCosts{}, 0, false},
                                {alpha_beta, 0, true},
                                {alpha_beta, Rational(1, 10), false},
                                {own, 0, false},
                                {LinkCosts{CostKind::RANDOM, 3}, 0, false}};
  for (const auto& c : cases) {
    topology::NetworkOptions options;
    options.switch_latency = c.switch_latency;
    const topology::HostNetwork hosts(std::make_shared<const topology::Platform>(platform->platform()), options);
    const WithoutNetwork plain(hosts);
    const Subnetwork implicit(hosts, {}, 3, c.costs);
    const Subnetwork held(plain, {}, 3, c.costs);
    EXPECT_EQ(implicit.network(), &hosts);
    EXPECT_EQ(held.network(), nullptr);
    EXPECT_EQ(implicit.uniform_by_construction(), c.uniform);
    EXPECT_FALSE(held.uniform_by_construction());
    ASSERT_EQ(implicit.num_nodes(), 16U);
    ASSERT_EQ(held.num_nodes(), 16U);
    EXPECT_EQ(implicit.root(), held.root());
    EXPECT_EQ(implicit.num_links(), held.num_links());
    EXPECT_EQ(implicit.num_links(), 120U);  // K_16
    EXPECT_EQ(implicit.symmetric(), held.symmetric());
    std::optional<Rational> least;
    bool same = true;
    for (NodeId v = 0; v < 16; ++v) {
      EXPECT_EQ(implicit.original(v), held.original(v));
      ASSERT_EQ(implicit.degree(v), held.degree(v));
      for (Port p = 0; p < held.degree(v); ++p) {
        EXPECT_EQ(implicit.neighbor(v, p), held.neighbor(v, p));
        EXPECT_EQ(implicit.base_port(v, p), held.base_port(v, p));
        // A route's cost as the study defines it (the copy, without a network, has no switch latency).
        const Rational cost = c.costs.of(hosts, v, p);
        EXPECT_EQ(implicit.link_cost(v, p), cost) << v << " port " << p;
        if (c.switch_latency == 0) EXPECT_EQ(held.link_cost(v, p), cost) << v << " port " << p;
        least = std::min(least.value_or(cost), cost);
        same = same && cost == implicit.link_cost(0, 0);
        EXPECT_EQ(implicit.link_name(v, p), held.link_name(v, p));
      }
      for (NodeId u = 0; u < 16; ++u) EXPECT_EQ(implicit.find_port(v, u), held.find_port(v, u));
    }
    EXPECT_EQ(implicit.min_cost(), least);
    EXPECT_EQ(implicit.uniform_cost().has_value(), same);
    if (c.switch_latency == 0) EXPECT_EQ(implicit.uniform_cost(), held.uniform_cost());
  }
  // A failed link: the routes would not avoid it, so the arcs are copied and the network dropped.
  const topology::HostNetwork hosts(std::make_shared<const topology::Platform>(platform->platform()), {});
  const Subnetwork cut(hosts, Faults{{{0, 1}}, {}}, 0, alpha_beta);
  EXPECT_EQ(cut.network(), nullptr);
  EXPECT_FALSE(cut.uniform_by_construction());
  EXPECT_EQ(cut.degree(0), 14U);
  EXPECT_EQ(cut.find_port(0, 1), Topology::NO_PORT);
}

TEST(CostKind, ParsesItsNamesAndRejectsOthersNamingTheInput) {
  for (const CostKind k : {CostKind::UNIT, CostKind::TOPOLOGY, CostKind::RANDOM}) {
    EXPECT_EQ(parse_cost_kind(to_string(k), "--costs"), k);
  }
  EXPECT_ERROR(UsageError, parse_cost_kind("free", "--costs"), "--costs", "\"free\"", "unit, topology or random");
}

}  // namespace
}  // namespace starnet::algorithms::generic
