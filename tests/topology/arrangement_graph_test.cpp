#include "../core/expect_error.hpp"
#include "platform_names.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/arrangement_graph.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/properties.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace starnet::topology {
namespace {

std::string spec_of(const char* family, int n, int k) {
  return std::string(family) + ":" + std::to_string(n) + (k > 0 ? ":" + std::to_string(k) : "");
}

/// The neighbours' names by the papers' rules, written with std::string operations on the name
/// (independently of ArrangementGraph::for_each_neighbor); n ≤ 9, so a symbol is one character.
std::set<std::string> neighbours_by_rule(const std::string& family, const std::string& a, int n) {
  std::set<std::string> out;
  std::string lacks;
  for (char c = '1'; c < '1' + n; ++c) {
    if (a.find(c) == std::string::npos) lacks += c;
  }
  const auto k = a.size();
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i + 1; j < k; ++j) {
      std::string b = a;
      std::swap(b[i], b[j]);
      const bool adjacent = j == i + 1;
      if (family == "transposition" || (family == "bubblesort" && adjacent) || (family == "nkstar" && i == 0)) out.insert(b);
    }
    for (const char c : lacks) {
      std::string b = a;
      b[i] = c;
      if (family == "arrangement" || (family == "nkstar" && i == 0)) out.insert(b);
    }
  }
  for (std::size_t i = 2; family == "pancake" && i <= k; ++i) {
    std::string b = a;
    std::reverse(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(i));
    out.insert(b);
  }
  return out;
}


/// One row per family and size: the closed forms the literature gives (arrangement_graph.hpp).
struct Row {
  const char* family;
  int n;
  int k;  // 0: the family takes N only
  std::uint64_t nodes;
  std::uint32_t degree;
  std::uint32_t diameter;
};

std::uint64_t falling(int n, int k) {
  std::uint64_t out = 1;
  for (int i = 0; i < k; ++i) out *= static_cast<std::uint64_t>(n - i);
  return out;
}

std::vector<Row> literature_rows() {
  std::vector<Row> rows;
  // Pancake diameters are known values, not a formula: 3, 4, 5, 7, 8 for n = 3..7.
  const std::uint32_t pancake_diameter[] = {0, 0, 1, 3, 4, 5, 7, 8};
  for (int n = 1; n <= 7; ++n) {
    const auto un = static_cast<std::uint32_t>(n);
    rows.push_back({"pancake", n, 0, falling(n, n), un - 1, pancake_diameter[n]});
    rows.push_back({"bubblesort", n, 0, falling(n, n), un - 1, un * (un - 1) / 2});
    rows.push_back({"transposition", n, 0, falling(n, n), un * (un - 1) / 2, un - 1});
  }
  for (int n = 2; n <= 7; ++n) {
    for (int k = 1; k < n; ++k) {
      const auto uk = static_cast<std::uint32_t>(k);
      const auto un = static_cast<std::uint32_t>(n);
      const bool small = k <= n / 2;
      rows.push_back({"nkstar", n, k, falling(n, k), un - 1, small ? 2 * uk - 1 : uk + (un - 1) / 2});
      // ⌊3k/2⌋ for every k < n: the form "k + ⌊(n − k)/2⌋ for k > ⌊n/2⌋" sometimes quoted for A_{n,k}
      // is refuted by the search (A_{5,4} has diameter 6, not 4).
      rows.push_back({"arrangement", n, k, falling(n, k), uk * (un - uk), 3 * uk / 2});
    }
  }
  return rows;
}

TEST(ArrangementGraph, SizeDegreeAndDiameterAreThoseOfTheLiterature) {
  for (const Row& row : literature_rows()) {
    const std::string spec = spec_of(row.family, row.n, row.k);
    const auto props = topology_properties(spec);
    EXPECT_EQ(props.nodes, row.nodes) << spec;
    EXPECT_EQ(props.links, row.nodes * row.degree / 2) << spec;
    EXPECT_EQ(props.degree_min, row.degree) << spec;
    EXPECT_EQ(props.degree_max, row.degree) << spec;
    EXPECT_EQ(props.diameter(), row.diameter) << spec;
    EXPECT_TRUE(props.implicit) << spec;
    EXPECT_EQ(props.method, DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE) << spec;
    EXPECT_EQ(props.name, spec);
  }
}

// The oracle: every node's own BFS on the materialised graph. Equal histograms also confirm that
// each family is vertex-transitive at these sizes, which the implicit search assumes.
TEST(ArrangementGraph, ImplicitSearchEqualsAllPairsBfsOnThePlatform) {
  for (const Row& row : literature_rows()) {
    if (row.nodes > 720) continue;
    const std::string spec = spec_of(row.family, row.n, row.k);
    const auto implicit = topology_properties(spec);
    const auto all = platform_properties(make_platform(spec), DistanceMethod::ALL_PAIRS_BFS);
    EXPECT_EQ(implicit.distance_histogram, all.distance_histogram) << spec;
    EXPECT_EQ(implicit.links, all.links) << spec;
    EXPECT_EQ(implicit.degree_min, all.degree_min) << spec;
    EXPECT_EQ(implicit.degree_max, all.degree_max) << spec;
    EXPECT_EQ(all.unreachable_pairs, 0U) << spec;
  }
}

TEST(ArrangementGraph, PlatformLinksFollowThePapersRules) {
  for (const Row& row : literature_rows()) {
    if (row.nodes > 720) continue;
    const std::string spec = spec_of(row.family, row.n, row.k);
    const Platform p = make_platform(spec);
    EXPECT_EQ(p.name(), spec);
    EXPECT_FALSE(p.directed());
    std::set<std::string> names;
    for (const auto v : boost::make_iterator_range(boost::vertices(p.graph()))) {
      const auto& node = p.graph()[v];
      names.insert(node.name);
      ASSERT_EQ(neighbour_names(p, v), neighbours_by_rule(row.family, node.name, row.n)) << spec << " " << node.name;
      EXPECT_EQ(node.label, row.k == 0 ? node.name : "") << spec;
      EXPECT_EQ(node.role, Role::PROCESSOR);
    }
    EXPECT_EQ(names.size(), row.nodes) << spec;
  }
}

TEST(ArrangementGraph, RankAndLabelAreInverseAndPermutationsRankAsInTheStarGraph) {
  for (int n = 2; n <= 7; ++n) {
    const StarGraph star(n);
    const ArrangementGraph pancake(ArrangementRule::PANCAKE, n, n);
    for (StarGraph::vertex_descriptor v = 0; v < star.size(); ++v) {
      ASSERT_EQ(pancake.label_string(v), star.label_string(v)) << " n=" << n << " v=" << v;
    }
    for (int k = 1; k < n; ++k) {
      const ArrangementGraph g(ArrangementRule::NK_STAR, n, k);
      std::set<std::string> names;
      for (ArrangementGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
        ASSERT_EQ(g.rank(g.label(v)), v) << " n=" << n << " k=" << k << " v=" << v;
        names.insert(g.label_string(v));
      }
      EXPECT_EQ(names.size(), g.size());
    }
  }
  // Above 9 symbols a label is dot-separated, as star graphs write theirs.
  EXPECT_EQ(ArrangementGraph(ArrangementRule::NK_STAR, 12, 3).label_string(0), "10.11.12");
  EXPECT_EQ(ArrangementGraph(ArrangementRule::ARRANGEMENT, 5, 2).label_string(0), "45");
}

TEST(ArrangementGraph, PortPIsThePthGeneratorOfAPermutationFamily) {
  const ArrangementGraph g(ArrangementRule::BUBBLE_SORT, 5, 5);
  const PlatformTopology t(arrangement_platform(g));
  for (ArrangementGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
    Port port = 0;
    g.for_each_neighbor(g.label(v), [&](const ArrangementGraph::Label& x) {
      EXPECT_EQ(t.neighbor(v, port++), g.rank(x)) << " v=" << v;
    });
  }
}

// S_{n,n−1} and A_{n,n−1} are isomorphic to S_n, S_{n,1} and A_{n,1} to K_n (arrangement_graph.hpp).
TEST(ArrangementGraph, ExtremeKGiveTheStarAndTheCompleteGraph) {
  for (int n = 2; n <= 7; ++n) {
    const auto star = topology_properties("star:" + std::to_string(n)).distance_histogram;
    const auto complete = topology_properties("complete:" + std::to_string(n)).distance_histogram;
    for (const char* family : {"nkstar", "arrangement"}) {
      EXPECT_EQ(topology_properties(spec_of(family, n, n - 1)).distance_histogram, star) << family << " n=" << n;
      EXPECT_EQ(topology_properties(spec_of(family, n, 1)).distance_histogram, complete) << family << " n=" << n;
    }
  }
}

TEST(ArrangementGraph, LargeGraphsAreMeasuredWithoutAPlatform) {
  const auto nk = topology_properties("nkstar:12:6");
  EXPECT_EQ(nk.nodes, 665'280U);
  EXPECT_EQ(nk.degree_max, 11U);
  EXPECT_EQ(nk.diameter(), 11U);  // 2k − 1 with k = 6 ≤ ⌊12/2⌋
  EXPECT_EQ(std::accumulate(nk.distance_histogram.begin(), nk.distance_histogram.end(), std::uint64_t{0}),
            nk.nodes * nk.nodes);
  EXPECT_EQ(topology_properties("bubblesort:9").diameter(), 36U);
  EXPECT_EQ(topology_properties("pancake:9").diameter(), 10U);  // the known value for n = 9
  EXPECT_EQ(topology_properties("pancake:8").diameter(), 9U);
}

TEST(ArrangementGraph, RefusesBadSpecsNamingTheSpecAndTheForm) {
  EXPECT_ERROR(TopologyError, make_platform("pancake:0"), "\"pancake:0\"", "pancake:N", "1..12");
  EXPECT_ERROR(TopologyError, make_platform("pancake:x"), "\"pancake:x\"", "pancake:N");
  EXPECT_ERROR(TopologyError, topology_properties("pancake:13"), "\"pancake:13\"", "1..12");
  EXPECT_ERROR(TopologyError, make_platform("bubblesort:"), "\"bubblesort:\"", "bubblesort:N");
  EXPECT_ERROR(TopologyError, make_platform("transposition:3:2"), "\"transposition:3:2\"", "transposition:N");
  EXPECT_ERROR(TopologyError, make_platform("nkstar:5:6"), "\"nkstar:5:6\"", "K of nkstar:N:K", "1..4");
  EXPECT_ERROR(TopologyError, make_platform("nkstar:5:5"), "\"nkstar:5:5\"", "1..4");
  EXPECT_ERROR(TopologyError, make_platform("nkstar:5"), "\"nkstar:5\"", "nkstar:N:K");
  EXPECT_ERROR(TopologyError, make_platform("arrangement:1:1"), "\"arrangement:1:1\"", "N of arrangement:N:K", "2..12");
  EXPECT_ERROR(TopologyError, make_platform("pancake:9"), "\"pancake:9\"", "362,880", "65,536");
  EXPECT_ERROR(TopologyError, make_platform("transposition:9"), "\"transposition:9\"", "65,536");
  EXPECT_ERROR(TopologyError, topology_properties("pancake:11"), "\"pancake:11\"", "3628800");
  EXPECT_ERROR(TopologyError, ArrangementGraph(ArrangementRule::PANCAKE, 5, 4), "pancake:5", "k = n");
  EXPECT_ERROR(TopologyError, ArrangementGraph(ArrangementRule::ARRANGEMENT, 13, 2), "arrangement:13:2", "2..12");
}

}  // namespace
}  // namespace starnet::topology
