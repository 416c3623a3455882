// Hosts of a network of switches (topology/network.hpp): every route a walk of the platform's
// links between two hosts through routers only, the families' minimal routes as their papers draw
// them, D-mod-K free of contention for the shifts and exchanges of the linear placement.
#include "../core/expect_error.hpp"
#include "network_examples.hpp"

#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace starnet::topology {
namespace {

std::shared_ptr<const Platform> shared(Platform p) { return std::make_shared<const Platform>(std::move(p)); }

Platform dumbbell(int per_switch) { return testing::dumbbell_platform(per_switch); }

/// Checks that every route of @p net is a walk of platform links from one host to the other whose
/// inner nodes are routers; returns the largest route length in links.
std::size_t check_routes(const HostNetwork& net) {
  const PlatformTopology view(std::make_shared<const Platform>(net.platform()));
  const auto& g = net.platform().graph();
  std::size_t longest = 0;
  for (NodeId s = 0; s < net.num_nodes(); ++s) {
    for (NodeId d = 0; d < net.num_nodes(); ++d) {
      if (s == d) continue;
      const auto path = net.path(s, d);
      EXPECT_EQ(path.front(), net.host(s)) << s << "->" << d;
      EXPECT_EQ(path.back(), net.host(d)) << s << "->" << d;
      for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        EXPECT_NE(view.find_port(path[i], path[i + 1]), Topology::NO_PORT) << s << "->" << d << " hop " << i;
        if (i > 0) {
          EXPECT_EQ(g[path[i]].role, Role::ROUTER) << s << "->" << d << " hop " << i;
        }
      }
      std::vector<LinkId> links;
      net.route(s, d, links);
      EXPECT_EQ(links.size() + 1, path.size());
      longest = std::max(longest, links.size());
    }
  }
  return longest;
}

/// The most messages one directed link carries when every rank r sends to partner(r) at once.
template <class Partner>
std::uint64_t busiest_link(const HostNetwork& net, Partner partner) {
  std::map<LinkId, std::uint64_t> load;
  for (NodeId r = 0; r < net.num_nodes(); ++r) {
    std::vector<LinkId> links;
    net.route(r, partner(r), links);
    for (const auto l : links) ++load[l];
  }
  std::uint64_t most = 0;
  for (const auto& [l, n] : load) most = std::max(most, n);
  return most;
}

TEST(HostNetwork, IsTheCompleteGraphOfTheHostsInRankOrder) {
  const HostNetwork net(shared(fattree_platform(/*k=*/4)), {});
  ASSERT_EQ(net.num_nodes(), 16U);
  EXPECT_EQ(net.name(), "fattree:4");
  EXPECT_EQ(net.node_name(0), "h0_0_0");
  EXPECT_EQ(net.node_name(15), "h3_1_1");
  for (NodeId v = 0; v < net.num_nodes(); ++v) {
    ASSERT_EQ(net.degree(v), 15U);
    for (Port p = 0; p < net.degree(v); ++p) EXPECT_EQ(net.find_port(v, net.neighbor(v, p)), p);
  }
  EXPECT_EQ(net.network(), &net);
  EXPECT_EQ(net.num_links(), 2 * net.platform().num_links());
}

TEST(HostNetwork, FatTreeRoutesGoUpAndDownByLocality) {
  for (const int k : {4, 8}) {
    const HostNetwork net(shared(fattree_platform(k)), {});
    EXPECT_EQ(check_routes(net), 6U) << "k=" << k;
    const auto half = static_cast<NodeId>(k / 2);
    EXPECT_EQ(net.path(0, 1).size(), 3U) << "same edge switch";
    EXPECT_EQ(net.path(0, half).size(), 5U) << "same pod";
    EXPECT_EQ(net.path(0, half * half).size(), 7U) << "other pod";
  }
}

TEST(HostNetwork, ARouteTakesTheSwitchLatencyOfEverySwitchItCrosses) {
  NetworkOptions options;
  options.switch_latency = Rational(1, 10);
  const HostNetwork net(shared(fattree_platform(4)), options);
  // Hosts 0 and 1 share an edge switch; 2 is in the pod (edge, aggregation, edge); 4 beyond it.
  EXPECT_EQ(net.switching_time(0, 1), Rational(1, 10));
  EXPECT_EQ(net.switching_time(0, 2), Rational(3, 10));
  EXPECT_EQ(net.switching_time(0, 4), Rational(5, 10));
  const Rational host_link = PlatformTopology(shared(fattree_platform(4))).link_latency(0, 0);
  EXPECT_EQ(net.link_latency(0, net.find_port(0, 4)), host_link + Rational(5, 10));
  EXPECT_EQ(HostNetwork(shared(fattree_platform(4)), {}).switching_time(0, 4), Rational(0));
}

TEST(HostNetwork, DModKCarriesShiftsAndExchangesOfTheLinearPlacementWithoutContention) {
  const HostNetwork net(shared(fattree_platform(/*k=*/8)), {});
  const NodeId n = net.num_nodes();
  for (NodeId bit = 1; bit < n; bit *= 2) {
    EXPECT_EQ(busiest_link(net, [&](NodeId r) { return r ^ bit; }), 1U) << "recursive doubling, bit " << bit;
  }
  for (NodeId shift = 1; shift < n; shift *= 2) {
    EXPECT_EQ(busiest_link(net, [&](NodeId r) { return (r + shift) % n; }), 1U) << "shift " << shift;
  }
}

TEST(HostNetwork, ARandomPlacementMakesTheSameExchangeContend) {
  NetworkOptions options;
  options.placement = parse_placement("random:3");
  const HostNetwork net(shared(fattree_platform(/*k=*/8)), options);
  std::set<NodeId> hosts;
  for (NodeId r = 0; r < net.num_nodes(); ++r) hosts.insert(net.host(r));
  EXPECT_EQ(hosts.size(), net.num_nodes()) << "a permutation of the hosts";
  std::uint64_t most = 0;
  for (NodeId bit = 1; bit < net.num_nodes(); bit *= 2) {
    most = std::max(most, busiest_link(net, [&](NodeId r) { return r ^ bit; }));
  }
  EXPECT_GT(most, 1U);
  const HostNetwork again(shared(fattree_platform(/*k=*/8)), options);
  for (NodeId r = 0; r < net.num_nodes(); ++r) EXPECT_EQ(again.host(r), net.host(r)) << "one seed, one placement";
}

TEST(HostNetwork, DragonflyMinimalIsLocalGlobalLocalAndValiantVisitsAThirdGroup) {
  const auto platform = shared(dragonfly_platform({/*routers=*/4, /*hosts=*/2, /*global=*/2}));
  const HostNetwork minimal(platform, {});
  EXPECT_EQ(check_routes(minimal), 5U);  // host, local, global, local, host
  NetworkOptions options;
  options.routing = Routing::VALIANT;
  const HostNetwork valiant(platform, options);
  EXPECT_LE(check_routes(valiant), 8U);
  const auto& g = valiant.platform().graph();
  const auto group = [&](NodeId v) { return g[v].name.substr(1, g[v].name.find('_') - 1); };
  // Ranks 0 and 8 sit in groups 0 and 1 (8 hosts a group): Valiant crosses a third one.
  std::set<std::string> groups;
  for (const NodeId v : valiant.path(0, 8)) groups.insert(group(v));
  EXPECT_EQ(groups.size(), 3U);
}

TEST(HostNetwork, DragonflyRoutesCrossTheGlobalLinkOfEachArrangement) {
  for (const auto arrangement : {GlobalArrangement::RELATIVE, GlobalArrangement::CIRCULANT}) {
    const DragonflyShape shape{/*routers=*/4, /*hosts=*/2, /*global=*/2, arrangement};
    const auto platform = shared(dragonfly_platform(shape));
    EXPECT_EQ(check_routes(HostNetwork(platform, {})), 5U) << shape.spec();
    NetworkOptions options;
    options.routing = Routing::VALIANT;
    EXPECT_LE(check_routes(HostNetwork(platform, options)), 8U) << shape.spec();
  }
}

TEST(HostNetwork, NamesTheLevelsOfItsHierarchyOutermostFirst) {
  const HostNetwork fattree(shared(fattree_platform(/*k=*/8)), {});
  EXPECT_EQ(fattree.hierarchy(), (std::vector<NodeId>{8, 4, 4}));
  EXPECT_EQ(fattree.hierarchy_names(), (std::vector<std::string_view>{"pods", "edge switches", "hosts"}));
  const HostNetwork dragonfly(shared(dragonfly_platform({/*routers=*/4, /*hosts=*/3, /*global=*/2})), {});
  EXPECT_EQ(dragonfly.hierarchy(), (std::vector<NodeId>{9, 4, 3}));
  EXPECT_EQ(dragonfly.hierarchy_names(), (std::vector<std::string_view>{"groups", "routers", "hosts"}));
  const HostNetwork other(shared(dumbbell(/*per_switch=*/2)), {});
  EXPECT_TRUE(other.hierarchy().empty());
  EXPECT_TRUE(other.hierarchy_names().empty());
}

TEST(HostNetwork, OtherPlatformsTakeShortestPathsThroughRouters) {
  const HostNetwork net(shared(dumbbell(/*per_switch=*/4)), {});
  EXPECT_EQ(check_routes(net), 3U);
  const auto path = net.path(0, 4);
  ASSERT_EQ(path.size(), 4U);
  EXPECT_EQ(net.platform().graph()[path[1]].name, "s0");
  EXPECT_EQ(net.platform().graph()[path[2]].name, "s1");
  // Every host of one side sends to the other: the one link s0->s1 carries all four.
  EXPECT_EQ(busiest_link(net, [](NodeId r) { return (r + 4) % 8; }), 4U);
  std::vector<LinkId> links;
  net.route(0, 4, links);
  EXPECT_EQ(net.link_label(links[1]), "s0->s1");
}

TEST(HostNetwork, RefusesWhatItCannotModelNamingTheSetting) {
  EXPECT_ERROR(UsageError, (void)parse_routing("adaptive"), "adaptive", "minimal, ecmp or valiant");
  EXPECT_ERROR(UsageError, (void)parse_placement("random:x"), "random:x", "linear or random:SEED");
  EXPECT_ERROR(UsageError, (void)parse_forwarding("wormhole"), "cut-through or store-and-forward");
  NetworkOptions valiant;
  valiant.routing = Routing::VALIANT;
  EXPECT_ERROR(UsageError, (HostNetwork(shared(dumbbell(2)), valiant)), "dumbbell", "fat-tree", "dragonfly");
  EXPECT_EQ(testing::setting_of([&] { (void)parse_routing("x"); }), "routing=x");
  Platform lonely("lonely", false);
  lonely.add_node({"h", Role::PROCESSOR});
  lonely.add_node({"s", Role::ROUTER});
  lonely.add_link(0, 1);
  EXPECT_ERROR(TopologyError, (HostNetwork(shared(lonely), {})), "lonely", "two at least");
}

}  // namespace
}  // namespace starnet::topology
