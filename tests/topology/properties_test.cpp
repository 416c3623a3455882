#include "../core/expect_error.hpp"
#include "network_examples.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/files.hpp>
#include <starnet/topology/properties.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

namespace starnet::topology {
namespace {

constexpr std::uint32_t INF = std::numeric_limits<std::uint32_t>::max();

/// Oracle: Floyd–Warshall hop distances, histogram over ordered pairs and unreachable count.
std::pair<std::vector<std::uint64_t>, std::uint64_t> floyd_warshall(const Platform& p) {
  const std::size_t n = p.num_nodes();
  std::vector<std::vector<std::uint32_t>> d(n, std::vector<std::uint32_t>(n, INF));
  for (std::size_t v = 0; v < n; ++v) d[v][v] = 0;
  for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
    d[boost::source(e, p.graph())][boost::target(e, p.graph())] = 1;
  }
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (d[i][k] != INF && d[k][j] != INF) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
      }
    }
  }
  std::vector<std::uint64_t> histogram;
  std::uint64_t unreachable = 0;
  for (const auto& row : d) {
    for (const auto x : row) {
      if (x == INF) {
        ++unreachable;
        continue;
      }
      if (x >= histogram.size()) histogram.resize(x + 1, 0);
      ++histogram[x];
    }
  }
  return {histogram, unreachable};
}

/// Akers–Harel–Krishnamurthy: the distance from permutation π to the identity in S_n is
/// m + c, minus 2 if symbol 1 is out of place, where m counts misplaced symbols and c the cycles
/// of length ≥ 2 of π.
int star_distance(const StarGraph::Label& label, int n) {
  int misplaced = 0;
  int cycles = 0;
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (int i = 0; i < n; ++i) {
    if (seen[static_cast<std::size_t>(i)] || label[static_cast<std::size_t>(i)] == i + 1) continue;
    ++cycles;
    for (int j = i; !seen[static_cast<std::size_t>(j)]; j = label[static_cast<std::size_t>(j)] - 1) {
      seen[static_cast<std::size_t>(j)] = true;
      ++misplaced;
    }
  }
  return misplaced + cycles - (label[0] != 1 ? 2 : 0);
}

TEST(PlatformProperties, AllPairsBfsMatchesFloydWarshall) {
  for (const char* spec : {"hypercube:4", "debruijn:5", "complete:6", "ring:7", "torus:3x4", "mesh:3x4",
                           "product:ring:3*complete:3", "star:4", "tiers:1", "tiers:2", "tiers:3", "ring:1"}) {
    const Platform p = make_platform(spec);
    const auto props = platform_properties(p, DistanceMethod::ALL_PAIRS_BFS);
    const auto [histogram, unreachable] = floyd_warshall(p);
    EXPECT_EQ(props.distance_histogram, histogram) << spec;
    EXPECT_EQ(props.unreachable_pairs, unreachable) << spec;
    EXPECT_EQ(props.nodes, p.num_nodes()) << spec;
    EXPECT_EQ(props.links, p.num_links()) << spec;
    EXPECT_EQ(props.method, DistanceMethod::ALL_PAIRS_BFS);
  }
}

TEST(PlatformProperties, OneBfsEqualsAllPairsOnTheVertexTransitiveFamilies) {
  for (const char* spec : {"hypercube:5", "complete:7", "ring:9", "ring:2", "torus:3x5", "torus:2x4", "star:5",
                           "product:ring:4*star:3"}) {
    ASSERT_TRUE(is_vertex_transitive(spec)) << spec;
    const Platform p = make_platform(spec);
    const auto one = platform_properties(p, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE);
    const auto all = platform_properties(p, DistanceMethod::ALL_PAIRS_BFS);
    EXPECT_EQ(one.distance_histogram, all.distance_histogram) << spec;
    EXPECT_EQ(one.average_distance(), all.average_distance()) << spec;
    EXPECT_EQ(one.method, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE);
  }
  // The shortcut is wrong on a graph that is not vertex-transitive: the mesh's corner sees
  // farther than its centre, which is why it is only used when the family guarantees it.
  const Platform mesh = mesh_platform(3, 3);
  EXPECT_NE(platform_properties(mesh, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE).distance_histogram,
            platform_properties(mesh, DistanceMethod::ALL_PAIRS_BFS).distance_histogram);
}

TEST(StarGraphProperties, HistogramMatchesTheCycleFormulaForEveryPermutation) {
  for (int n = 1; n <= 9; ++n) {
    const StarGraph g(n);
    std::vector<std::uint64_t> expected;
    for (StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
      const auto d = static_cast<std::size_t>(star_distance(g.label(v), n));
      if (d >= expected.size()) expected.resize(d + 1, 0);
      expected[d] += g.size();  // ordered pairs: every node sees the same distribution
    }
    const auto props = star_graph_properties(g);
    EXPECT_EQ(props.distance_histogram, expected) << " n=" << n;
    EXPECT_EQ(props.diameter(), static_cast<std::uint32_t>(3 * (n - 1) / 2)) << " n=" << n;
    EXPECT_EQ(props.degree_min, static_cast<std::uint32_t>(n - 1));
    EXPECT_EQ(props.links, g.size() * static_cast<std::uint64_t>(n - 1) / 2);
    EXPECT_TRUE(props.implicit);
  }
}

TEST(StarGraphProperties, ImplicitEqualsMaterialised) {
  for (int n = 1; n <= 5; ++n) {
    const auto implicit = star_graph_properties(StarGraph(n));
    const auto platform = platform_properties(star_platform(n), DistanceMethod::ALL_PAIRS_BFS);
    EXPECT_EQ(implicit.distance_histogram, platform.distance_histogram) << " n=" << n;
    EXPECT_EQ(implicit.links, platform.links);
    EXPECT_EQ(implicit.degree_max, platform.degree_max);
    EXPECT_EQ(implicit.processors, platform.processors);
  }
}

TEST(StarGraphProperties, RefusesTwelveNamingTheLimit) {
  EXPECT_ERROR(TopologyError, star_graph_properties(StarGraph(12)), "star:12", "N ≤ 11");
  EXPECT_ERROR(TopologyError, topology_properties("star:12"), "star:12");
}

TEST(PlatformProperties, HypercubeHistogramIsBinomial) {
  for (int d = 1; d <= 10; ++d) {
    const auto props = topology_properties("hypercube:" + std::to_string(d));
    std::uint64_t binomial = 1;
    ASSERT_EQ(props.distance_histogram.size(), static_cast<std::size_t>(d + 1));
    for (int k = 0; k <= d; ++k) {
      EXPECT_EQ(props.distance_histogram[static_cast<std::size_t>(k)], (std::uint64_t{1} << d) * binomial)
          << " d=" << d << " k=" << k;
      binomial = binomial * static_cast<std::uint64_t>(d - k) / static_cast<std::uint64_t>(k + 1);
    }
    // Average over the 2^d - 1 others: d·2^(d-1) / (2^d - 1).
    EXPECT_EQ(props.average_distance(), Rational(d * (std::int64_t{1} << (d - 1)), (std::int64_t{1} << d) - 1));
  }
}

TEST(PlatformProperties, DirectedPlatformsReportUnreachablePairs) {
  const Platform p = parse_platform("digraph { node [role=processor]; a -> b; b -> c; }", FileFormat::DOT, "path.dot");
  const auto props = platform_properties(p, DistanceMethod::ALL_PAIRS_BFS);
  EXPECT_TRUE(props.directed);
  EXPECT_EQ(props.links, 2U);
  EXPECT_EQ(props.unreachable_pairs, 3U);  // b->a, c->a, c->b
  EXPECT_EQ(props.diameter(), std::nullopt);
  EXPECT_EQ(props.distance_histogram, (std::vector<std::uint64_t>{3, 2, 1}));
  EXPECT_EQ(props.average_distance(), Rational(4, 3));
  EXPECT_EQ(props.degree_min, 0U);  // c has no out-arc
  EXPECT_EQ(props.degree_max, 1U);
}

TEST(PlatformProperties, DisconnectedUndirectedPlatform) {
  const Platform p =
      parse_platform("graph { node [role=processor]; a -- b; c; d [role=router] }", FileFormat::DOT, "two.dot");
  const auto props = platform_properties(p, DistanceMethod::ALL_PAIRS_BFS);
  EXPECT_EQ(props.unreachable_pairs, 16U - 4U - 2U);
  EXPECT_EQ(props.diameter(), std::nullopt);
  EXPECT_EQ(props.processors, 3U);
  EXPECT_EQ(props.average_distance(), 1);
}

TEST(PlatformProperties, SingleNode) {
  const auto props = topology_properties("ring:1");
  EXPECT_EQ(props.distance_histogram, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(props.diameter(), 0U);
  EXPECT_EQ(props.average_distance(), 0);
  EXPECT_EQ(props.degree_max, 0U);
}

TEST(PlatformProperties, RefusesAllPairsBeyondTheWorkLimit) {
  const Platform mesh = mesh_platform(256, 256);
  EXPECT_ERROR(TopologyError, platform_properties(mesh, DistanceMethod::ALL_PAIRS_BFS), "mesh:256x256", "65536 nodes",
               "steps");
}

// Oh, Choi, Primeaux 2005, Table 1: size, degree, diameter. The de Bruijn rows give the maximum
// degree (families.hpp): the undirected binary D_n also has nodes of degree 2 and 3.
TEST(HostProperties, AFatTreesHostsAreTwoFourOrSixLinksApartAsItsLevelsSay) {
  for (const std::uint64_t k : {4, 8}) {
    const std::uint64_t h = k / 2;  // hosts of an edge switch, edge switches of a pod
    const std::uint64_t hosts = k * h * h;
    const auto p = host_properties(fattree_platform(static_cast<int>(k)));
    ASSERT_TRUE(p) << k;
    EXPECT_EQ(p->nodes, hosts);
    EXPECT_EQ(p->diameter(), 6U);
    // From each host: h − 1 under its switch, h² − h in its pod, the rest in other pods.
    const std::vector<std::uint64_t> want{hosts, 0, hosts * (h - 1), 0, hosts * (h * h - h), 0, hosts * (hosts - h * h)};
    EXPECT_EQ(p->distance_histogram, want) << k;
  }
  // fattree:8: 726/127 ≈ 5.72, where the average over all node pairs (switches too) is ≈ 4.47.
  EXPECT_EQ(host_properties(fattree_platform(8))->average_distance(), Rational(726, 127));
}

TEST(HostProperties, RoutesCrossRoutersOnlyAndPlatformsWithoutRoutersHaveNone) {
  // The dumbbell: 3 hosts beside each one under its switch (2 links), 4 across the bridge (3).
  const auto p = host_properties(testing::dumbbell_platform(4));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->distance_histogram, (std::vector<std::uint64_t>{8, 0, 8 * 3, 8 * 4}));
  EXPECT_EQ(p->average_distance(), Rational(18, 7));
  // A host between two others relays nothing: a path a - b - c of processors only has no routers.
  EXPECT_FALSE(host_properties(make_platform("ring:5")));
  Platform chain("chain", /*directed=*/false);
  const auto a = chain.add_node({"a", Role::PROCESSOR});
  const auto b = chain.add_node({"b", Role::PROCESSOR});
  const auto r = chain.add_node({"r", Role::ROUTER});
  const auto c = chain.add_node({"c", Role::PROCESSOR});
  chain.add_link(a, b);
  chain.add_link(b, r);
  chain.add_link(r, c);
  chain.validate();
  const auto q = host_properties(chain);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->unreachable_pairs, 2U) << "a and c reach each other only through host b";
  EXPECT_FALSE(q->diameter());
}

TEST(TopologyProperties, ReproducesTable1OfOhChoiPrimeaux) {
  struct Row {
    const char* spec;
    std::uint64_t size;
    std::uint32_t degree;
    std::uint32_t diameter;
  };
  for (const Row& row : {Row{"star:5", 120, 4, 6}, Row{"star:6", 720, 5, 7}, Row{"hypercube:7", 128, 7, 7},
                         Row{"hypercube:10", 1024, 10, 10}, Row{"debruijn:7", 128, 4, 7}, Row{"debruijn:10", 1024, 4, 10},
                         // HS_{4,3} and HS_{5,3}: the numbers are those of S_4 x S_3 and S_5 x S_3.
                         Row{"product:star:4*star:3", 144, 5, 7}, Row{"product:star:5*star:3", 720, 6, 9}}) {
    const auto props = topology_properties(row.spec);
    EXPECT_EQ(props.nodes, row.size) << row.spec;
    EXPECT_EQ(props.degree_max, row.degree) << row.spec;
    EXPECT_EQ(props.diameter(), row.diameter) << row.spec;
  }
  EXPECT_EQ(topology_properties("debruijn:7").degree_min, 2U);
}

TEST(TopologyProperties, MethodFollowsTheFamily) {
  EXPECT_EQ(topology_properties("torus:4x4").method, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE);
  EXPECT_EQ(topology_properties("mesh:4x4").method, DistanceMethod::ALL_PAIRS_BFS);
  EXPECT_EQ(topology_properties("star:4").method, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE);
  EXPECT_EQ(to_string(DistanceMethod::ALL_PAIRS_BFS), "all-pairs-bfs");
  EXPECT_EQ(topology_properties("star:4").name, "star:4");
}

}  // namespace
}  // namespace starnet::topology
