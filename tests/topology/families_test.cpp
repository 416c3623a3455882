#include "../core/expect_error.hpp"
#include "platform_names.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/properties.hpp>
#include <starnet/topology/star_graph.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <queue>
#include <random>
#include <set>
#include <unistd.h>

namespace starnet::topology {
namespace {

using Link = std::pair<std::string, std::string>;

/// Undirected links by end names, smaller name first.
std::set<Link> links_of(const Platform& p) {
  const auto& g = p.graph();
  std::set<Link> out;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    auto a = g[boost::source(e, g)].name;
    auto b = g[boost::target(e, g)].name;
    if (b < a) std::swap(a, b);
    out.emplace(a, b);
  }
  return out;
}


TEST(StarPlatform, MatchesTheImplicitStarGraphPortByPort) {
  for (int n = 1; n <= 6; ++n) {
    const StarGraph s(n);
    const Platform p = star_platform(n);
    const PlatformTopology t(p);
    ASSERT_EQ(p.num_nodes(), s.size()) << " n=" << n;
    EXPECT_EQ(p.num_links(), s.size() * static_cast<std::uint64_t>(n - 1) / 2) << " n=" << n;
    EXPECT_FALSE(p.directed());
    EXPECT_EQ(p.name(), "star:" + std::to_string(n));
    for (StarGraph::vertex_descriptor v = 0; v < s.size(); ++v) {
      const auto& node = p.graph()[v];
      ASSERT_EQ(node.name, s.label_string(v)) << " n=" << n << " v=" << v;
      EXPECT_EQ(node.label, node.name);
      ASSERT_EQ(t.degree(v), s.degree(v)) << " n=" << n << " v=" << v;
      for (Port port = 0; port < t.degree(v); ++port) {
        ASSERT_EQ(t.neighbor(v, port), s.neighbor(v, port)) << " n=" << n << " v=" << v << " port=" << port;
        const auto e = boost::edge(v, static_cast<Platform::vertex_descriptor>(t.neighbor(v, port)), p.graph()).first;
        EXPECT_EQ(p.graph()[e].dimension, StarGraph::dimension_of(port));
      }
    }
  }
}

TEST(StarPlatform, RefusesAboveEightPointingToTheImplicitModel) {
  EXPECT_ERROR(TopologyError, star_platform(/*n=*/9), "star:9", "star:8", "362,880", "implicit");
  EXPECT_ERROR(TopologyError, make_platform("star:9"), "star:9", "implicit", "12");
  EXPECT_ERROR(TopologyError, star_platform(/*n=*/13), "n = 13", "1..12");
}

TEST(Hypercube, NodesAreBitStringsAndPortPFlipsBitP) {
  for (int d = 1; d <= 6; ++d) {
    const Platform p = hypercube_platform(d);
    const PlatformTopology t(p);
    ASSERT_EQ(p.num_nodes(), 1U << d) << " d=" << d;
    EXPECT_EQ(p.num_links(), (std::size_t{1} << d) * static_cast<std::size_t>(d) / 2) << " d=" << d;
    for (std::uint32_t x = 0; x < (1U << d); ++x) {
      EXPECT_EQ(p.graph()[x].name, std::bitset<16>(x).to_string().substr(static_cast<std::size_t>(16 - d)));
      ASSERT_EQ(t.degree(x), static_cast<Port>(d));
      for (Port port = 0; port < t.degree(x); ++port) {
        EXPECT_EQ(t.neighbor(x, port), x ^ (1U << port)) << " d=" << d << " x=" << x << " port=" << port;
        const auto e = boost::edge(x, x ^ (1U << port), p.graph()).first;
        EXPECT_EQ(p.graph()[e].dimension, static_cast<int>(port) + 1);
      }
    }
  }
}

TEST(DeBruijn, DropsSelfLoopsAndMergesParallelLinks) {
  for (int d = 1; d <= 8; ++d) {
    const Platform p = debruijn_platform(d);
    // Oracle: the shift rule x -> 2x + b (mod 2^d) as unordered pairs, loops removed.
    std::set<Link> expected;
    const std::uint32_t size = 1U << d;
    for (std::uint32_t x = 0; x < size; ++x) {
      for (std::uint32_t b = 0; b < 2; ++b) {
        const std::uint32_t y = ((x << 1) | b) & (size - 1);
        if (x == y) continue;
        auto a = p.graph()[x].name;
        auto c = p.graph()[y].name;
        if (c < a) std::swap(a, c);
        expected.emplace(a, c);
      }
    }
    EXPECT_EQ(links_of(p), expected) << " d=" << d;
  }
}

TEST(DeBruijn, DegreesAreTwoToFourAsTheUndirectedBinaryGraph) {
  const Platform p = debruijn_platform(/*d=*/7);
  std::map<std::size_t, std::set<std::string>> by_degree;
  for (const auto v : boost::make_iterator_range(boost::vertices(p.graph()))) {
    by_degree[boost::out_degree(v, p.graph())].insert(p.graph()[v].name);
  }
  // Degree 2: the all-0 and all-1 nodes (their self-loop dropped); degree 3: the alternating
  // nodes (their two links to each other merged); every other node: 4, Table 1's degree.
  EXPECT_EQ(by_degree[2], (std::set<std::string>{"0000000", "1111111"}));
  EXPECT_EQ(by_degree[3], (std::set<std::string>{"0101010", "1010101"}));
  EXPECT_EQ(by_degree[4].size(), 128U - 4U);
  EXPECT_EQ(by_degree.size(), 3U);
}

TEST(Complete, EveryPairIsLinkedOnce) {
  const Platform p = complete_platform(/*n=*/6);
  EXPECT_EQ(p.num_links(), 15U);
  EXPECT_EQ(p.graph()[5].name, "5");
  EXPECT_EQ(links_of(complete_platform(1)).size(), 0U);
}

TEST(Ring, SmallRingsMergeTheirDuplicateLinks) {
  EXPECT_EQ(ring_platform(/*n=*/1).num_links(), 0U);
  EXPECT_EQ(ring_platform(/*n=*/2).num_links(), 1U);
  const Platform p = ring_platform(/*n=*/5);
  EXPECT_EQ(links_of(p), (std::set<Link>{{"0", "1"}, {"1", "2"}, {"2", "3"}, {"3", "4"}, {"0", "4"}}));
}

TEST(TorusAndMesh, AreProductsOfRingsAndPaths) {
  const Platform torus = torus_platform(/*a=*/3, /*b=*/4);
  const Platform factors[] = {ring_platform(3), ring_platform(4)};
  Platform product = product_platform(factors);
  product.set_name("torus:3x4");
  EXPECT_EQ(difference(torus, product), std::nullopt);
  EXPECT_EQ(torus.name(), "torus:3x4");
  EXPECT_EQ(torus.num_links(), 24U);
  EXPECT_EQ(torus.graph()[0].name, "(0,0)");
  EXPECT_EQ(torus.graph()[5].name, "(1,1)");  // first factor most significant: 5 = 1·4 + 1

  const Platform mesh = mesh_platform(/*a=*/3, /*b=*/4);
  EXPECT_EQ(mesh.num_nodes(), 12U);
  EXPECT_EQ(mesh.num_links(), 3U * 3U + 4U * 2U);
  const auto corner = neighbour_names(mesh, "(0,0)");
  EXPECT_EQ(std::set<std::string>(corner.begin(), corner.end()), (std::set<std::string>{"(1,0)", "(0,1)"}));
  EXPECT_EQ(torus_platform(/*a=*/2, /*b=*/2).num_links(), 4U);  // a side of 2: wrap link merged
}

TEST(TorusAndMesh, AnyDimensionIsTheProductOfItsSides) {
  const Platform torus = make_platform("torus:3x4x5");
  const Platform rings[] = {ring_platform(3), ring_platform(4), ring_platform(5)};
  Platform product = product_platform(rings);
  product.set_name("torus:3x4x5");
  EXPECT_EQ(difference(torus, product), std::nullopt);
  EXPECT_EQ(torus.num_links(), 3U * 60U);  // each ring of ≥ 3 nodes: one link per node
  EXPECT_EQ(torus.graph()[1 * 20 + 2 * 5 + 3].name, "(1,2,3)");
  const auto props = topology_properties("torus:3x4x5");
  EXPECT_EQ(props.diameter(), 1U + 2U + 2U);
  EXPECT_EQ(props.method, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE);

  const Platform mesh = make_platform("mesh:2x3x4");
  EXPECT_EQ(mesh.num_nodes(), 24U);
  EXPECT_EQ(mesh.num_links(), 1U * 12U + 2U * 8U + 3U * 6U);
  EXPECT_EQ(topology_properties("mesh:2x3x4").diameter(), 1U + 2U + 3U);
  EXPECT_EQ(make_platform("mesh:4x4x4x4").num_nodes(), 256U);
  // One side is the ring or the path itself, named like it.
  EXPECT_EQ(difference(make_platform("torus:6"), make_platform("ring:6")).value_or(""), "");
  EXPECT_EQ(make_platform("mesh:5").num_links(), 4U);
  EXPECT_EQ(make_platform("torus:6").graph()[5].name, "5");
  // Two sides keep the AxB names and order.
  EXPECT_EQ(make_platform("torus:4x4").graph()[5].name, "(1,1)");
}

TEST(TorusAndMesh, RefusesMissingSidesAndTooManyDimensions) {
  EXPECT_ERROR(TopologyError, make_platform("torus:4x"), "\"torus:4x\"", "side of torus:AxBx…", "\"\"");
  EXPECT_ERROR(TopologyError, make_platform("mesh:0x4x2"), "\"mesh:0x4x2\"", "side of mesh:AxBx…", "\"0\"");
  EXPECT_ERROR(TopologyError, make_platform("torus:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x1"), "17 dimensions", "1..16");
  EXPECT_ERROR(TopologyError, make_platform("torus:64x64x64"), "\"torus:64x64x64\"", "262,144", "65,536");
  EXPECT_ERROR(TopologyError, torus_platform(std::vector<int>{}), "torus:", "0 dimensions");
}

TEST(Product, LinksDifferInOneCoordinateWithThatFactorsCost) {
  Platform a("a", /*directed=*/false);
  a.add_node({"x", Role::ROUTER, 3});
  a.add_node({"y", Role::PROCESSOR, 2});
  a.add_link(0, 1, {Rational(1, 2), 0});
  Platform b("b", /*directed=*/true);
  b.add_node({"u", Role::PROCESSOR, Rational(1, 3)});
  b.add_node({"v", Role::PROCESSOR, 5});
  b.add_link(0, 1, {7, 0});
  const Platform factors[] = {a, b};
  const Platform p = product_platform(factors);
  EXPECT_EQ(p.name(), "product:a*b");
  EXPECT_TRUE(p.directed()) << "a directed factor makes a directed product";
  // a's link gives both arcs (x,w)<->(y,w); b's arc u->v gives (z,u)->(z,v) only.
  EXPECT_EQ(p.num_links(), 2U * 2U + 2U * 1U);
  const auto& g = p.graph();
  const auto cost = [&](const std::string& s, const std::string& t) {
    const auto [e, found] = boost::edge(*p.find(s), *p.find(t), g);
    return found ? g[e].cost : Rational(0);
  };
  EXPECT_EQ(cost("(x,u)", "(y,u)"), Rational(1, 2));
  EXPECT_EQ(cost("(y,v)", "(x,v)"), Rational(1, 2));
  EXPECT_EQ(cost("(x,u)", "(x,v)"), 7);
  EXPECT_EQ(cost("(x,v)", "(x,u)"), 0) << "no reverse arc for a directed factor";
  EXPECT_EQ(cost("(x,u)", "(y,v)"), 0) << "both coordinates differ";
  const auto& xu = g[*p.find("(x,u)")];
  EXPECT_EQ(xu.role, Role::ROUTER) << "a router coordinate makes a router";
  EXPECT_EQ(xu.speed, Rational(1, 3)) << "the smallest speed";
  EXPECT_EQ(g[*p.find("(y,v)")].speed, 2);
  EXPECT_EQ(g[*p.find("(y,v)")].role, Role::PROCESSOR);
}

TEST(Product, SpecSyntaxAcceptsSeveralFactors) {
  const Platform p = make_platform("product:ring:3*complete:2*star:3");
  EXPECT_EQ(p.num_nodes(), 3U * 2U * 6U);
  EXPECT_EQ(p.name(), "product:ring:3*complete:2*star:3");
  EXPECT_EQ(p.graph()[0].name, "(0,0,123)");
  EXPECT_EQ(p.num_links(), 3U * 12U + 1U * 18U + 6U * 6U);
  EXPECT_ERROR(TopologyError, make_platform("product:ring:3"), "product:ring:3", "two factors");
  EXPECT_ERROR(TopologyError, make_platform("product:product:ring:3*ring:3*ring:2"), "is itself a product");
  EXPECT_ERROR(TopologyError, make_platform("product:star:x*ring:3"), "product:star:x*ring:3", "\"star:x\"", "1..12");
  EXPECT_ERROR(TopologyError, make_platform("product:ring:300*ring:300"), "product:ring:300*ring:300", "90,000",
               "65,536");
}

TEST(Product, FilesCanBeFactors) {
  const auto path = std::filesystem::temp_directory_path() / ("starnet_factor_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(path) << "digraph { node [role=processor]; a -> b [cost=\"3/2\"]; }";
  const Platform p = make_platform("product:" + path.string() + "*ring:3");
  std::filesystem::remove(path);
  EXPECT_TRUE(p.directed());
  EXPECT_EQ(p.num_nodes(), 6U);
  EXPECT_EQ(p.num_links(), 1U * 3U + 6U * 2U);  // a->b in 3 copies; the ring's 3 links as 6 arcs in 2 copies
  EXPECT_EQ(p.graph()[boost::edge(*p.find("(a,0)"), *p.find("(b,0)"), p.graph()).first].cost, Rational(3, 2));
}

/// MCT_D(L) written out independently of families.cpp: nodes are D-tuples of heap indices
/// 1..2^L−1 (first coordinate most significant), a link changes one coordinate i into 2i or 2i + 1.
struct ExplicitMct {
  int trees;
  int levels;
  std::vector<std::vector<int>> tuples;
  std::vector<std::vector<std::size_t>> adjacent;

  ExplicitMct(int d, int l) : trees(d), levels(l) {
    const int n = (1 << l) - 1;
    std::vector<int> t(static_cast<std::size_t>(d), 1);
    for (;;) {
      tuples.push_back(t);
      int c = d - 1;
      while (c >= 0 && t[static_cast<std::size_t>(c)] == n) t[static_cast<std::size_t>(c--)] = 1;
      if (c < 0) break;
      ++t[static_cast<std::size_t>(c)];
    }
    std::map<std::vector<int>, std::size_t> index;
    for (std::size_t x = 0; x < tuples.size(); ++x) index[tuples[x]] = x;
    adjacent.resize(tuples.size());
    for (std::size_t x = 0; x < tuples.size(); ++x) {
      for (std::size_t c = 0; c < tuples[x].size(); ++c) {
        for (const int child : {2 * tuples[x][c], 2 * tuples[x][c] + 1}) {
          if (child > n) continue;
          auto y = tuples[x];
          y[c] = child;
          adjacent[x].push_back(index.at(y));
          adjacent[index.at(y)].push_back(x);
        }
      }
    }
  }
  std::string name(std::size_t x) const {
    std::string out;
    for (const int i : tuples[x]) out += (out.empty() ? "" : ",") + std::to_string(i);
    return trees == 1 ? out : "(" + out + ")";
  }
  std::set<Link> links() const {
    std::set<Link> out;
    for (std::size_t x = 0; x < adjacent.size(); ++x) {
      for (const auto y : adjacent[x]) out.emplace(std::min(name(x), name(y)), std::max(name(x), name(y)));
    }
    return out;
  }
  /// h[d] over ordered pairs, by one BFS per node.
  std::vector<std::uint64_t> histogram() const {
    std::vector<std::uint64_t> h;
    for (std::size_t s = 0; s < adjacent.size(); ++s) {
      std::vector<int> dist(adjacent.size(), -1);
      std::queue<std::size_t> q;
      dist[s] = 0;
      q.push(s);
      while (!q.empty()) {
        const auto x = q.front();
        q.pop();
        const auto d = static_cast<std::size_t>(dist[x]);
        if (h.size() <= d) h.resize(d + 1, 0);
        ++h[d];
        for (const auto y : adjacent[x]) {
          if (dist[y] < 0) {
            dist[y] = dist[x] + 1;
            q.push(y);
          }
        }
      }
    }
    return h;
  }
};

TEST(Mct, IsTheProductOfCompleteBinaryTreesWrittenOutByHand) {
  for (const auto& [d, l] : {std::pair{1, 1}, {1, 3}, {2, 2}, {2, 3}, {3, 3}, {2, 4}, {4, 3}}) {
    const ExplicitMct mct(d, l);
    const Platform p = mct_platform(d, l);
    const std::string spec = "mct:" + std::to_string(d) + ":" + std::to_string(l);
    EXPECT_EQ(p.name(), spec);
    EXPECT_FALSE(p.directed());
    ASSERT_EQ(p.num_nodes(), mct.tuples.size()) << spec;
    for (std::size_t x = 0; x < mct.tuples.size(); ++x) {
      ASSERT_EQ(p.graph()[static_cast<Platform::vertex_descriptor>(x)].name, mct.name(x)) << spec << " x=" << x;
    }
    EXPECT_EQ(links_of(p), mct.links()) << spec;
    EXPECT_EQ(make_platform(spec).num_links(), p.num_links()) << spec;
  }
}

// T_3 counted by hand: root r, children a b, leaves a1 a2 b1 b2. Unordered pairs at distance 1: the
// 6 links; 2: r–leaf (4), a–b, a1–a2, b1–b2; 3: a–b1, a–b2, b–a1, b–a2; 4: a leaf of a with one of b.
TEST(Mct, TreeOfThreeLevelsHasTheHandCountedDistances) {
  const auto t = topology_properties("mct:1:3");
  EXPECT_EQ(t.distance_histogram, (std::vector<std::uint64_t>{7, 2 * 6, 2 * 7, 2 * 4, 2 * 4}));
  EXPECT_EQ(t.links, 6U);
  EXPECT_EQ(t.degree_min, 1U);
  EXPECT_EQ(t.degree_max, 3U);
  EXPECT_EQ(t.average_distance(), Rational(16, 7));  // (12 + 28 + 24 + 32) / 42
}

// Closed forms for L ≥ 3 (families.hpp): (2^L − 1)^D nodes, D·(2^L − 2)·(2^L − 1)^(D−1) links,
// degrees D..3D, diameter 2D(L − 1); checked against the hand-written graph's BFS and against
// all-pairs BFS on the platform, whose histograms the product rule must reproduce exactly.
TEST(Mct, PropertiesFromOneTreeEqualBreadthFirstSearchOnTheWholeGraph) {
  for (const auto& [d, l] : {std::pair{1, 3}, {2, 2}, {2, 3}, {3, 3}, {2, 4}, {4, 3}}) {
    const std::string spec = "mct:" + std::to_string(d) + ":" + std::to_string(l);
    const ExplicitMct mct(d, l);
    const auto props = topology_properties(spec);
    EXPECT_EQ(props.method, DistanceMethod::PRODUCT_OF_FACTORS) << spec;
    EXPECT_EQ(props.name, spec);
    EXPECT_EQ(props.distance_histogram, mct.histogram()) << spec;
    const auto all = platform_properties(mct_platform(d, l), DistanceMethod::ALL_PAIRS_BFS);
    EXPECT_EQ(props.distance_histogram, all.distance_histogram) << spec;
    EXPECT_EQ(props.nodes, all.nodes) << spec;
    EXPECT_EQ(props.links, all.links) << spec;
    EXPECT_EQ(props.processors, all.processors) << spec;
    EXPECT_EQ(props.degree_min, all.degree_min) << spec;
    EXPECT_EQ(props.degree_max, all.degree_max) << spec;
    std::uint64_t tree = (std::uint64_t{1} << l) - 1;
    std::uint64_t nodes = 1;
    for (int i = 0; i < d; ++i) nodes *= tree;
    EXPECT_EQ(props.nodes, nodes) << spec;
    EXPECT_EQ(props.links, static_cast<std::uint64_t>(d) * (tree - 1) * (nodes / tree)) << spec;
    EXPECT_EQ(props.degree_min, static_cast<std::uint32_t>(d)) << spec;
    EXPECT_EQ(props.degree_max, static_cast<std::uint32_t>((l >= 3 ? 3 : 2) * d)) << spec;
    EXPECT_EQ(props.diameter(), static_cast<std::uint32_t>(2 * d * (l - 1))) << spec;
  }
}

// Oh, Choi, Primeaux 2005, Table 1: MCT_4(3) and MCT_6(3) have degree 12 and 18 (the maximum, 3D)
// and diameter 16 and 24 as printed, but 7^4 and 7^6 nodes where the paper prints 81 = 3^4 and
// 729 = 3^6. MCT_6(3) is beyond MAX_PLATFORM_NODES: its properties come from one tree.
TEST(Mct, Table1RowsHaveThePrintedDegreeAndDiameterButSevenToTheDNodes) {
  const auto m4 = topology_properties("mct:4:3");
  EXPECT_EQ(m4.nodes, 7U * 7U * 7U * 7U);
  EXPECT_EQ(m4.degree_max, 12U);
  EXPECT_EQ(m4.diameter(), 16U);
  const auto m6 = topology_properties("mct:6:3");
  EXPECT_EQ(m6.nodes, 7U * 7U * 7U * 7U * 7U * 7U);
  EXPECT_EQ(m6.degree_min, 6U);
  EXPECT_EQ(m6.degree_max, 18U);
  EXPECT_EQ(m6.diameter(), 24U);
  EXPECT_EQ(m6.links, 6U * 6U * 7U * 7U * 7U * 7U * 7U);
  EXPECT_EQ(std::accumulate(m6.distance_histogram.begin(), m6.distance_histogram.end(), std::uint64_t{0}),
            m6.nodes * m6.nodes);
  EXPECT_EQ(m6.distance_histogram.back(), 8U * 8U * 8U * 8U * 8U * 8U) << "leaf pairs across the root in all 6 trees";
  EXPECT_GT(m6.nodes, MAX_PLATFORM_NODES);
}

TEST(Mct, RefusesBadShapesNamingTheSpec) {
  EXPECT_ERROR(TopologyError, make_platform("mct:4"), "\"mct:4\"", "mct:D:L");
  EXPECT_ERROR(TopologyError, make_platform("mct:0:3"), "\"mct:0:3\"", "dimension D", "1..16");
  EXPECT_ERROR(TopologyError, make_platform("mct:4:17"), "\"mct:4:17\"", "levels L", "1..16");
  EXPECT_ERROR(TopologyError, make_platform("mct:4:3:2"), "\"mct:4:3:2\"", "\"3:2\"");
  EXPECT_ERROR(TopologyError, topology_properties("mct:14:3"), "\"mct:14:3\"", "268,435,456");
  EXPECT_ERROR(TopologyError, make_platform("mct:6:3"), "\"mct:6:3\"", "117,649", "65,536");
  EXPECT_ERROR(TopologyError, make_topology("mct:6:3"), "\"mct:6:3\"", "65,536");
  EXPECT_ERROR(TopologyError, mct_platform(/*trees=*/7, /*levels=*/3), "mct:7:3", "823,543");
  EXPECT_ERROR(TopologyError, mct_platform(/*trees=*/0, /*levels=*/3), "mct:0:3", "1..16");
  EXPECT_ERROR(TopologyError, platform_properties(mct_platform(2, 2), DistanceMethod::PRODUCT_OF_FACTORS), "mct:2:2",
               "product-of-factors");
}

TEST(Tiers, SameSeedSamePlatform) {
  for (const std::uint64_t seed : {0ULL, 1ULL, 42ULL, 9223372036854775807ULL}) {
    EXPECT_EQ(difference(tiers_platform(seed), tiers_platform(seed)), std::nullopt) << " seed=" << seed;
    EXPECT_EQ(difference(make_platform("tiers:" + std::to_string(seed)), tiers_platform(seed)), std::nullopt);
  }
  EXPECT_NE(difference(tiers_platform(1), tiers_platform(2)), std::nullopt);
}

TEST(Tiers, Mt19937_64IsTheStandardEngine) {
  // [rand.predef]: the 10000th output of a default-constructed std::mt19937_64. Holding this
  // pins the engine; the mapping to ranges is ours, so tiers:SEED is the same on every machine.
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ULL);
}

TEST(Tiers, StructureCostsAndSpeedsStayInTheirDocumentedRanges) {
  std::set<std::size_t> wan_sizes, man_sizes, lan_sizes, wan_links;
  std::set<Rational> lan_costs, speeds;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const Platform p = tiers_platform(seed);
    const auto& g = p.graph();
    ASSERT_FALSE(p.directed());
    std::map<char, std::size_t> count;
    for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
      const auto& node = g[v];
      const char tier = node.name[0];  // 'w', 'm' or 'p'
      ++count[tier];
      std::map<char, int> peers;
      for (const auto& n : neighbour_names(p, node.name)) ++peers[n[0]];
      if (tier == 'p') {
        EXPECT_EQ(node.role, Role::PROCESSOR);
        EXPECT_TRUE(node.speed >= 1 && node.speed <= 10 && (node.speed * 2).is_integer()) << node.speed;
        speeds.insert(node.speed);
        EXPECT_EQ(peers, (std::map<char, int>{{'m', 1}})) << " seed=" << seed << " " << node.name;
      } else {
        EXPECT_EQ(node.role, Role::ROUTER);
        EXPECT_EQ(node.speed, 1);
        if (tier == 'm') {
          EXPECT_EQ(peers['w'], 1) << " seed=" << seed << " " << node.name;
          EXPECT_GE(peers['p'], 1) << " every MAN has a LAN; seed=" << seed;
        }
      }
    }
    std::size_t wan_wan = 0;
    for (const auto e : boost::make_iterator_range(boost::edges(g))) {
      const char a = g[boost::source(e, g)].name[0];
      const char b = g[boost::target(e, g)].name[0];
      const Rational c = g[e].cost;
      ASSERT_TRUE((c * 10).is_integer()) << c;
      if (a == 'w' && b == 'w') {
        ++wan_wan;
        EXPECT_TRUE(c >= 1 && c <= 3) << c;
      } else if (a == 'p' || b == 'p') {
        EXPECT_TRUE(c >= Rational(1, 10) && c <= Rational(2, 5)) << c;
        lan_costs.insert(c);
      } else {
        EXPECT_TRUE(c >= Rational(1, 2) && c <= Rational(3, 2)) << c;
      }
    }
    wan_sizes.insert(count['w']);
    man_sizes.insert(count['m']);
    lan_sizes.insert(count['p']);
    wan_links.insert(wan_wan / 2);
    EXPECT_TRUE(wan_wan / 2 == count['w'] - 1 || wan_wan / 2 == 3) << " tree, or the closed triangle";
  }
  // Every value of every range occurs: the mapping of words to ranges reaches both ends.
  EXPECT_EQ(wan_sizes, (std::set<std::size_t>{2, 3}));
  EXPECT_EQ(man_sizes, (std::set<std::size_t>{3, 4, 5}));
  EXPECT_EQ(lan_sizes, (std::set<std::size_t>{6, 7, 8, 9, 10}));
  EXPECT_EQ(wan_links, (std::set<std::size_t>{1, 2, 3}));
  EXPECT_EQ(lan_costs.size(), 4U);
  EXPECT_EQ(speeds.size(), 19U);
}

TEST(MakePlatform, NamesTheSpecAndTheExpectedFormOnBadInput) {
  EXPECT_ERROR(TopologyError, make_platform("star:0"), "\"star:0\"", "1..12");
  EXPECT_ERROR(TopologyError, make_platform("star:13"), "\"star:13\"", "1..12");
  EXPECT_ERROR(TopologyError, make_platform("star:x"), "\"star:x\"", "star:N");
  EXPECT_ERROR(TopologyError, make_platform("hypercube:-1"), "\"hypercube:-1\"", "hypercube:D", "1..16");
  EXPECT_ERROR(TopologyError, make_platform("hypercube:40"), "\"hypercube:40\"", "1..16", "65,536");
  EXPECT_ERROR(TopologyError, make_platform("debruijn:0"), "\"debruijn:0\"", "1..16");
  EXPECT_ERROR(TopologyError, make_platform("complete:1449"), "\"complete:1449\"", "1..1448", "1,048,576");
  EXPECT_ERROR(TopologyError, make_platform("ring:x"), "\"ring:x\"", "ring:N");
  EXPECT_ERROR(TopologyError, make_platform("torus:4y4"), "\"torus:4y4\"", "torus:AxB");
  EXPECT_ERROR(TopologyError, make_platform("mesh:0x4"), "\"mesh:0x4\"", "AxB");
  EXPECT_ERROR(TopologyError, make_platform("torus:300x300"), "\"torus:300x300\"", "90,000", "65,536");
  EXPECT_ERROR(TopologyError, make_platform("tiers:seven"), "\"tiers:seven\"", "tiers:SEED");
  EXPECT_ERROR(TopologyError, make_platform("cube:3"), "\"cube:3\"", "hypercube");
  EXPECT_ERROR(TopologyError, make_platform("star"), "\"star\"", "FAMILY:ARG");
}

TEST(MakePlatform, FamilyFunctionsCheckTheirArgumentsToo) {
  EXPECT_ERROR(TopologyError, hypercube_platform(/*d=*/17), "hypercube:17", "1..16");
  EXPECT_ERROR(TopologyError, complete_platform(/*n=*/0), "complete:0");
  EXPECT_ERROR(TopologyError, ring_platform(/*n=*/70000), "ring:70000");
  EXPECT_ERROR(TopologyError, torus_platform(/*a=*/1000, /*b=*/1000), "torus:1000x1000", "65,536");
  EXPECT_ERROR(TopologyError, product_platform(std::span<const Platform>{}), "at least two");
}

TEST(MakeTopology, StarIsImplicitUpToTwelveOthersOwnTheirPlatform) {
  const auto star = make_topology("star:12");
  ASSERT_NE(dynamic_cast<const StarGraph*>(star.get()), nullptr);
  EXPECT_EQ(star->num_nodes(), 479001600U);
  const auto ring = make_topology("ring:5");  // the platform was a temporary: the topology owns it
  const auto* platform = dynamic_cast<const PlatformTopology*>(ring.get());
  ASSERT_NE(platform, nullptr);
  EXPECT_EQ(ring->name(), "ring:5");
  EXPECT_EQ(ring->num_nodes(), 5U);
  EXPECT_EQ(ring->node_name(ring->neighbor(0, 0)), "1");
  EXPECT_ERROR(TopologyError, make_topology("star:13"), "\"star:13\"", "1..12");
}

TEST(IsVertexTransitive, FollowsTheFamily) {
  for (const char* spec : {"star:4", "hypercube:3", "complete:4", "ring:5", "torus:3x4", "torus:3x4x2",
                           "product:ring:3*star:3", "pancake:4", "bubblesort:4", "transposition:4", "nkstar:5:2",
                           "arrangement:5:2"}) {
    EXPECT_TRUE(is_vertex_transitive(spec)) << spec;
  }
  for (const char* spec : {"mesh:3x3", "mesh:3x3x3", "debruijn:4", "tiers:1", "x.dot", "product:ring:3*mesh:2x2",
                           "mct:2:3", "fattree:4", "dragonfly:2:1:1"}) {
    EXPECT_FALSE(is_vertex_transitive(spec)) << spec;
  }
}

TEST(Families, RingPortsGoOneWayAtEveryNode) {
  for (const int n : {3, 4, 16}) {
    const auto ring = make_topology("ring:" + std::to_string(n));
    for (NodeId v = 0; v < static_cast<NodeId>(n); ++v) {
      EXPECT_EQ(ring->neighbor(v, 0), (v + 1) % n) << " n=" << n << " v=" << v;
      EXPECT_EQ(ring->neighbor(v, 1), (v + n - 1) % n) << " n=" << n << " v=" << v;
      EXPECT_EQ(ring->back_port(v, 0), 1U) << " n=" << n << " v=" << v;
    }
  }
  EXPECT_EQ(make_topology("ring:2")->degree(0), 1U);
}

TEST(Families, TorusPortsGoUpThenDownSideBySideAtEveryNode) {
  const auto torus = make_topology("torus:3x4");  // node (a, b) is 4a + b
  for (NodeId v = 0; v < 12; ++v) {
    const NodeId a = v / 4;
    const NodeId b = v % 4;
    const std::vector<NodeId> expected = {(a + 1) % 3 * 4 + b, (a + 2) % 3 * 4 + b, a * 4 + (b + 1) % 4,
                                          a * 4 + (b + 3) % 4};
    std::vector<NodeId> ports;
    for (Port p = 0; p < torus->degree(v); ++p) ports.push_back(torus->neighbor(v, p));
    EXPECT_EQ(ports, expected) << " v=" << v;
    for (Port p = 0; p < torus->degree(v); ++p) EXPECT_EQ(torus->back_port(v, p), p ^ 1U) << " v=" << v;
  }
}

TEST(Families, StarAndHypercubeLinksHaveOnePortAtBothEnds) {
  for (const auto* spec : {"star:5", "hypercube:4"}) {
    const auto g = make_topology(spec);
    for (NodeId v = 0; v < g->num_nodes(); ++v) {
      for (Port p = 0; p < g->degree(v); ++p) {
        EXPECT_EQ(g->back_port(v, p), p) << spec << " v=" << v << " p=" << p;
        EXPECT_EQ(g->find_port(g->neighbor(v, p), v), p) << spec << " v=" << v << " p=" << p;
      }
    }
  }
}

}  // namespace
}  // namespace starnet::topology
