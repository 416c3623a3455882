#include "../core/expect_error.hpp"
#include "platform_names.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/properties.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <vector>

namespace starnet::topology {
namespace {

/// Hop distances from @p s by a plain BFS, only through nodes that @p through allows (the
/// target itself may be any node).
template <class Through>
std::vector<int> bfs(const Platform& p, Platform::vertex_descriptor s, Through through) {
  const auto& g = p.graph();
  std::vector<int> d(p.num_nodes(), -1);
  std::queue<Platform::vertex_descriptor> q;
  d[s] = 0;
  q.push(s);
  while (!q.empty()) {
    const auto v = q.front();
    q.pop();
    if (v != s && !through(v)) continue;
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const auto u = boost::target(e, g);
      if (d[u] < 0) {
        d[u] = d[v] + 1;
        q.push(u);
      }
    }
  }
  return d;
}

/// Largest distance between two nodes of @p role, by BFS from each of them.
int role_diameter(const Platform& p, Role role, bool routers_only) {
  const auto& g = p.graph();
  int out = 0;
  for (const auto s : boost::make_iterator_range(boost::vertices(g))) {
    if (g[s].role != role) continue;
    const auto d = bfs(p, s, [&](Platform::vertex_descriptor v) { return !routers_only || g[v].role == Role::ROUTER; });
    for (const auto t : boost::make_iterator_range(boost::vertices(g))) {
      if (g[t].role == role) {
        EXPECT_GE(d[t], 0) << p.name() << " " << g[s].name << " " << g[t].name;
        out = std::max(out, d[t]);
      }
    }
  }
  return out;
}


TEST(FatTree, CountsDegreesAndHostDiameterAreAlFaresLoukissasVahdats) {
  for (const int k : {2, 4, 6, 8}) {
    const std::string spec = "fattree:" + std::to_string(k);
    const Platform p = make_platform(spec);
    const auto uk = static_cast<std::uint64_t>(k);
    const auto props = topology_properties(spec);
    EXPECT_EQ(props.nodes, uk * uk * uk / 4 + 5 * uk * uk / 4) << spec;
    EXPECT_EQ(props.processors, uk * uk * uk / 4) << spec;
    EXPECT_EQ(props.links, 3 * uk * uk * uk / 4) << spec;  // host–edge, edge–aggregation, aggregation–core
    EXPECT_EQ(props.degree_min, 1U) << spec;
    EXPECT_EQ(props.degree_max, static_cast<std::uint32_t>(k)) << spec;  // every switch uses its K ports
    EXPECT_EQ(props.diameter(), 6U) << spec;
    EXPECT_EQ(role_diameter(p, Role::PROCESSOR, /*routers_only=*/true), 6) << spec;
    EXPECT_EQ(props.method, DistanceMethod::ONE_BFS_PER_ORBIT);
    EXPECT_FALSE(is_vertex_transitive(spec));
  }
}

// Host pairs by distance: the k/2 − 1 others on its edge switch at 2, the (k/2 − 1)·k/2 others of
// its pod at 4, the (k − 1)·k²/4 of other pods at 6.
TEST(FatTree, HostsAreTwoFourOrSixLinksApart) {
  const int k = 6;
  const Platform p = fattree_platform(k);
  std::map<int, int> count;
  const auto d = bfs(p, *p.find("h0_0_0"), [](Platform::vertex_descriptor) { return true; });
  for (const auto v : boost::make_iterator_range(boost::vertices(p.graph()))) {
    if (p.graph()[v].role == Role::PROCESSOR) ++count[d[v]];
  }
  EXPECT_EQ(count, (std::map<int, int>{{0, 1}, {2, 2}, {4, 6}, {6, 45}}));
}

TEST(FatTree, OneBfsPerOrbitEqualsAllPairsBfs) {
  for (const int k : {2, 4, 6, 8}) {
    const Platform p = fattree_platform(k);
    const auto orbits = orbit_properties(p, fattree_orbits(k));
    const auto all = platform_properties(p, DistanceMethod::ALL_PAIRS_BFS);
    EXPECT_EQ(orbits.distance_histogram, all.distance_histogram) << " k=" << k;
    EXPECT_EQ(orbits.average_distance(), all.average_distance()) << " k=" << k;
  }
}

TEST(FatTree, NamesSayPodSwitchAndHost) {
  const Platform p = fattree_platform(/*k=*/4);
  EXPECT_EQ(p.graph()[0].name, "h0_0_0");
  EXPECT_EQ(p.graph()[16].name, "e0_0");  // hosts first: 4³/4 = 16 of them
  EXPECT_EQ(p.graph()[35].name, "c3");    // last: (4/2)² = 4 core switches
  EXPECT_EQ(neighbour_names(p, "h1_1_0"), (std::set<std::string>{"e1_1"}));
  EXPECT_EQ(neighbour_names(p, "e1_1"), (std::set<std::string>{"h1_1_0", "h1_1_1", "a1_0", "a1_1"}));
  EXPECT_EQ(neighbour_names(p, "a2_1"), (std::set<std::string>{"e2_0", "e2_1", "c2", "c3"}));
  EXPECT_EQ(neighbour_names(p, "c0"), (std::set<std::string>{"a0_0", "a1_0", "a2_0", "a3_0"}));
  EXPECT_EQ(p.graph()[*p.find("c0")].role, Role::ROUTER);
  EXPECT_EQ(p.graph()[*p.find("h0_0_0")].role, Role::PROCESSOR);
}

TEST(FatTree, RefusesBadArityNamingTheSpec) {
  EXPECT_ERROR(TopologyError, make_platform("fattree:3"), "\"fattree:3\"", "odd", "even");
  EXPECT_ERROR(TopologyError, make_platform("fattree:0"), "\"fattree:0\"", "2..62");
  EXPECT_ERROR(TopologyError, make_platform("fattree:64"), "\"fattree:64\"", "2..62", "65,536");
  EXPECT_ERROR(TopologyError, topology_properties("fattree:k"), "\"fattree:k\"", "fattree:K");
  EXPECT_ERROR(TopologyError, fattree_platform(/*k=*/5), "fattree:5", "odd");
}

struct Shape {
  int a;
  int p;
  int h;
};

TEST(Dragonfly, CountsDegreesAndDiametersAreKimDallyScottAbtss) {
  for (const Shape& s : {Shape{1, 1, 1}, {2, 1, 1}, {4, 2, 2}, {3, 2, 1}, {2, 3, 2}, {4, 1, 3}}) {
    const std::string spec = "dragonfly:" + std::to_string(s.a) + ":" + std::to_string(s.p) + ":" + std::to_string(s.h);
    const Platform p = make_platform(spec);
    const auto groups = static_cast<std::uint64_t>(s.a * s.h + 1);
    const auto routers = groups * static_cast<std::uint64_t>(s.a);
    const auto props = topology_properties(spec);
    EXPECT_EQ(props.nodes, routers * static_cast<std::uint64_t>(1 + s.p)) << spec;
    EXPECT_EQ(props.processors, routers * static_cast<std::uint64_t>(s.p)) << spec;
    EXPECT_EQ(props.links, routers * static_cast<std::uint64_t>(s.p) + groups * static_cast<std::uint64_t>(s.a * (s.a - 1) / 2) +
                               groups * (groups - 1) / 2)
        << spec;
    EXPECT_EQ(props.degree_min, 1U) << spec;
    EXPECT_EQ(props.degree_max, static_cast<std::uint32_t>(s.a - 1 + s.p + s.h)) << spec;
    // Minimal routes: local, global, local between routers; one more link at each host.
    const int router_diameter = s.a == 1 ? 1 : 3;
    EXPECT_EQ(role_diameter(p, Role::ROUTER, /*routers_only=*/true), router_diameter) << spec;
    EXPECT_EQ(role_diameter(p, Role::PROCESSOR, /*routers_only=*/true), router_diameter + 2) << spec;
    EXPECT_EQ(props.diameter(), static_cast<std::uint32_t>(router_diameter + 2)) << spec;
    EXPECT_FALSE(is_vertex_transitive(spec));
  }
}

TEST(Dragonfly, OneGlobalLinkJoinsEveryTwoGroupsInTheAbsoluteArrangement) {
  const Shape s{4, 2, 2};
  const Platform p = dragonfly_platform({s.a, s.p, s.h});
  const auto& g = p.graph();
  const auto group_of = [](const std::string& router) { return std::stoi(router.substr(1, router.find('_') - 1)); };
  std::map<std::pair<int, int>, int> global;
  std::map<std::string, int> per_router;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const auto& x = g[boost::source(e, g)].name;
    const auto& y = g[boost::target(e, g)].name;
    if (x[0] != 'r' || y[0] != 'r' || group_of(x) == group_of(y)) continue;
    ++global[{group_of(x), group_of(y)}];
    ++per_router[x];
    // Router r of group G carries ports r·H .. r·H + H − 1, to the other groups in order.
    const int t = group_of(y) < group_of(x) ? group_of(y) : group_of(y) - 1;
    EXPECT_EQ(x, "r" + std::to_string(group_of(x)) + "_" + std::to_string(t / s.h));
  }
  const int groups = s.a * s.h + 1;
  EXPECT_EQ(global.size(), static_cast<std::size_t>(groups * (groups - 1)));  // ordered pairs
  for (const auto& [pair, links] : global) EXPECT_EQ(links, 1) << pair.first << "-" << pair.second;
  for (const auto& [router, links] : per_router) EXPECT_EQ(links, s.h) << router;
  EXPECT_EQ(neighbour_names(p, "h2_1_0"), (std::set<std::string>{"r2_1"}));
  EXPECT_EQ(neighbour_names(p, "r0_0"), (std::set<std::string>{"h0_0_0", "h0_0_1", "r0_1", "r0_2", "r0_3", "r1_0", "r2_0"}));
}

TEST(Dragonfly, EveryArrangementJoinsEveryTwoGroupsOnceThroughThePortsItsFormulaNames) {
  // Odd and even numbers of groups (A·H even and odd: the circulant's port G/2 away).
  for (const Shape& s : {Shape{4, 2, 2}, {3, 1, 1}, {2, 1, 3}, {3, 2, 3}, {1, 1, 1}}) {
    for (const auto arrangement : {GlobalArrangement::ABSOLUTE, GlobalArrangement::RELATIVE, GlobalArrangement::CIRCULANT}) {
      const DragonflyShape shape{s.a, s.p, s.h, arrangement};
      const std::string spec = shape.spec();
      const Platform p = dragonfly_platform(shape);
      EXPECT_EQ(p.name(), spec);
      const auto groups = static_cast<int>(shape.groups());
      for (int g = 0; g < groups; ++g) {
        std::set<std::uint64_t> reached;
        for (int t = 0; t + 1 < groups; ++t) {
          const auto peer = shape.global_peer(g, t);
          ASSERT_LT(peer, shape.groups()) << spec;
          EXPECT_NE(peer, static_cast<std::uint64_t>(g)) << spec;
          reached.insert(peer);
          EXPECT_EQ(shape.global_port(g, peer), static_cast<std::uint64_t>(t)) << spec << " group " << g << " port " << t;
          // The link is there, between the routers that hold the port at each end.
          const auto back = shape.global_port(peer, g);
          EXPECT_EQ(shape.global_peer(peer, back), static_cast<std::uint64_t>(g)) << spec;
          const std::string here = fmt::format("r{}_{}", g, t / s.h);
          EXPECT_TRUE(neighbour_names(p, here).contains(fmt::format("r{}_{}", peer, back / s.h))) << spec << " " << here;
        }
        EXPECT_EQ(reached.size(), static_cast<std::size_t>(groups - 1)) << spec;
      }
      const auto props = topology_properties(spec);
      EXPECT_EQ(props.links, static_cast<std::uint64_t>(groups) * static_cast<std::uint64_t>(s.a * s.p + s.a * (s.a - 1) / 2) +
                                 static_cast<std::uint64_t>(groups * (groups - 1) / 2))
          << spec << ": one global link a pair of groups, none twice";
      EXPECT_EQ(props.degree_max, static_cast<std::uint32_t>(s.a - 1 + s.p + s.h)) << spec;
    }
  }
  // Router 0 of group 0 of dragonfly:4:2:2 (9 groups), by each arrangement's rule.
  const auto globals = [](const char* spec) {
    std::set<std::string> out;
    for (const auto& n : neighbour_names(make_platform(spec), "r0_0")) {
      if (n[0] == 'r' && n.rfind("r0_", 0) != 0) out.insert(n);
    }
    return out;
  };
  EXPECT_EQ(globals("dragonfly:4:2:2:absolute"), (std::set<std::string>{"r1_0", "r2_0"}));
  EXPECT_EQ(globals("dragonfly:4:2:2:relative"), (std::set<std::string>{"r1_3", "r2_3"}));
  EXPECT_EQ(globals("dragonfly:4:2:2:circulant"), (std::set<std::string>{"r1_0", "r8_0"}));
  EXPECT_EQ(globals("dragonfly:4:2:2"), globals("dragonfly:4:2:2:absolute")) << "the default";
}

TEST(Dragonfly, RefusesBadShapesNamingTheSpec) {
  EXPECT_ERROR(TopologyError, make_platform("dragonfly:2:1"), "\"dragonfly:2:1\"", "dragonfly:A:P:H");
  EXPECT_ERROR(TopologyError, make_platform("dragonfly:2:1:1:1:1"), "\"dragonfly:2:1:1:1:1\"", "dragonfly:A:P:H[:ARRANGEMENT]");
  EXPECT_ERROR(TopologyError, make_platform("dragonfly:2:1:1:diagonal"), "\"dragonfly:2:1:1:diagonal\"", "\"diagonal\"",
               "absolute, relative or circulant");
  EXPECT_ERROR(TopologyError, make_platform("dragonfly:0:1:1"), "\"dragonfly:0:1:1\"", "routers per group A");
  EXPECT_ERROR(TopologyError, make_platform("dragonfly:2:x:1"), "\"dragonfly:2:x:1\"", "hosts per router P");
  EXPECT_ERROR(TopologyError, make_platform("dragonfly:64:64:64"), "\"dragonfly:64:64:64\"", "65,536");
  EXPECT_ERROR(TopologyError, dragonfly_platform({/*routers=*/2, /*hosts=*/1, /*global=*/0}), "dragonfly:2:1:0",
               "global links per router H");
}

TEST(NetworkNotes, SayWhenADragonflysGlobalLinksAreOversubscribedAndWhetherItIsBalanced) {
  const auto notes = [](const char* spec) { return network_notes(parse_spec(spec)); };
  const auto over = notes("dragonfly:4:3:2");
  ASSERT_EQ(over.size(), 3U);
  EXPECT_NE(over[0].find("oversubscribed 3:2"), std::string::npos) << over[0];
  EXPECT_NE(over[1].find("not balanced"), std::string::npos) << over[1];
  EXPECT_NE(over[1].find("dragonfly:4:2:2 is"), std::string::npos) << over[1];
  const auto kim = notes("dragonfly:4:2:2");
  EXPECT_NE(kim[0].find("not oversubscribed"), std::string::npos) << kim[0];
  EXPECT_EQ(kim[1].rfind("balanced as Kim", 0), 0U) << kim[1];
  EXPECT_NE(notes("fattree:4").at(0).find("full bisection"), std::string::npos);
  EXPECT_TRUE(notes("star:5").empty());
}

}  // namespace
}  // namespace starnet::topology
