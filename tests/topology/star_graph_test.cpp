#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/two_bit_color_map.hpp>
#include <boost/range/iterator_range.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace starnet::topology {
namespace {

TEST(StarGraph, RejectsZeroDimension) {
  try {
    StarGraph g(/*n=*/0);
    FAIL() << "star:0 accepted";
  } catch (const TopologyError& e) {
    EXPECT_NE(std::string(e.what()).find("n = 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1..12"), std::string::npos) << e.what();
  }
}

TEST(StarGraph, RejectsDimensionAboveTwelve) { EXPECT_THROW(StarGraph(/*n=*/13), TopologyError); }

TEST(StarGraph, RankAndLabelAreInverse) {
  for (int n = 1; n <= 7; ++n) {
    const StarGraph g(n);
    std::set<std::string> labels;
    for (std::uint32_t v = 0; v < g.size(); ++v) {
      const auto l = g.label(v);
      EXPECT_EQ(g.rank(l), v) << " n=" << n << " v=" << v;
      std::vector<int> symbols(l.begin(), l.begin() + n);
      std::sort(symbols.begin(), symbols.end());
      for (int i = 0; i < n; ++i) ASSERT_EQ(symbols[static_cast<std::size_t>(i)], i + 1) << " n=" << n;
      labels.insert(g.label_string(v));
    }
    EXPECT_EQ(labels.size(), g.size()) << " n=" << n;
  }
  EXPECT_EQ(StarGraph(4).label_string(0), "1234");
}

TEST(StarGraph, NeighborSwapsFirstAndKthSymbol) {
  const StarGraph g(/*n=*/6);
  for (std::uint32_t v = 0; v < g.size(); ++v) {
    for (int k = 2; k <= 6; ++k) {
      auto l = g.label(v);
      std::swap(l[0], l[static_cast<std::size_t>(k - 1)]);
      const auto u = g.neighbor_along(v, k);
      ASSERT_EQ(u, g.rank(l)) << " v=" << v << " k=" << k;
      ASSERT_EQ(g.neighbor_along(u, k), v) << " links are involutions";
      ASSERT_EQ(g.port_to(v, u), StarGraph::port_of(k));
    }
  }
}

TEST(StarGraph, NeighborFromADecodedLabelEqualsNeighborFromTheRank) {
  const StarGraph g(/*n=*/8);
  for (std::uint32_t v = 0; v < g.size(); v += 11) {
    const auto l = g.label(v);
    for (int k = 2; k <= 8; ++k) {
      auto swapped = l;
      std::swap(swapped[0], swapped[static_cast<std::size_t>(k - 1)]);
      ASSERT_EQ(g.neighbor_along(v, l, k), g.rank(swapped)) << " v=" << v << " k=" << k;
    }
  }
}

TEST(StarGraph, NeighborFromTheRankAloneSwapsTheSymbolsOnEveryNodeOfS8AndAcrossS12) {
  // neighbor_along(v, k) works from v's digits without building its label: checked against the
  // swap of the decoded label on every node of S_8 and on nodes spread over S_12 (its last ones too).
  for (const int n : {8, 12}) {
    const StarGraph g(n);
    const std::uint32_t stride = n == 8 ? 1U : 9973U;
    for (std::uint64_t v = 0; v < g.size(); v += v + stride >= g.size() && v + 1 < g.size() ? 1 : stride) {
      const auto node = static_cast<std::uint32_t>(v);
      const auto l = g.label(node);
      for (int k = 2; k <= n; ++k) {
        auto swapped = l;
        std::swap(swapped[0], swapped[static_cast<std::size_t>(k - 1)]);
        ASSERT_EQ(g.neighbor_along(node, k), g.rank(swapped)) << " n=" << n << " v=" << v << " k=" << k;
      }
    }
  }
}

TEST(StarGraph, OutEdgesAndAdjacentVerticesListLinksTwoToN) {
  const StarGraph g(/*n=*/5);
  for (std::uint32_t v = 0; v < g.size(); ++v) {
    int k = 2;
    for (const auto e : boost::make_iterator_range(out_edges(v, g))) {
      EXPECT_EQ(e, (StarEdge{v, g.neighbor_along(v, k), k})) << " v=" << v;
      ++k;
    }
    EXPECT_EQ(k, 6);
    k = 2;
    for (const auto u : boost::make_iterator_range(adjacent_vertices(v, g))) EXPECT_EQ(u, g.neighbor_along(v, k++));
    EXPECT_EQ(k, 6);
  }
  const StarGraph one(/*n=*/1);
  const auto [first, last] = out_edges(0, one);
  EXPECT_TRUE(first == last);
}

TEST(StarGraph, SubStarsAreContiguousRankRanges) {
  const StarGraph g(/*n=*/6);
  for (std::uint32_t v = 0; v < g.size(); ++v) {
    const auto l = g.label(v);
    for (int m = 1; m <= 6; ++m) {
      const auto begin = g.substar_begin(v, m);
      // Every node of the range shares positions m..n-1 with v, and the range has m! nodes.
      for (auto u = begin; u < begin + StarGraph::factorial(m); u += 7) {
        const auto lu = g.label(u);
        ASSERT_TRUE(std::equal(l.begin() + m, l.begin() + 6, lu.begin() + m)) << " v=" << v << " m=" << m;
      }
    }
    EXPECT_EQ(g.last_symbol(v), l[5]);
    // The paper's S_{n-1}^i (last symbol i) is the (n-i)-th range of (n-1)! ranks.
    EXPECT_EQ(v / StarGraph::factorial(5), static_cast<std::uint32_t>(6 - l[5]));
  }
}

TEST(StarGraph, LinkAlongDimensionKStaysInsideSubStarSk) {
  const StarGraph g(/*n=*/7);
  for (std::uint32_t v = 0; v < g.size(); v += 3) {
    for (int k = 2; k <= 7; ++k) {
      EXPECT_EQ(g.substar_begin(g.neighbor_along(v, k), k), g.substar_begin(v, k)) << " v=" << v << " k=" << k;
    }
  }
}

class DistanceRecorder : public boost::default_bfs_visitor {
 public:
  explicit DistanceRecorder(std::vector<int>& d) : d_(d) {}
  void tree_edge(const StarEdge& e, const StarGraph&) const { d_[e.target] = d_[e.source] + 1; }

 private:
  std::vector<int>& d_;
};

TEST(StarGraph, BoostBreadthFirstSearchFindsTheKnownDiameter) {
  for (int n = 1; n <= 8; ++n) {
    const StarGraph g(n);
    std::vector<int> d(g.size(), 0);
    boost::breadth_first_search(g, 0U, boost::visitor(DistanceRecorder(d)));
    EXPECT_EQ(*std::max_element(d.begin(), d.end()), g.diameter()) << " n=" << n;
    EXPECT_EQ(g.diameter(), 3 * (n - 1) / 2) << " n=" << n;
  }
}

TEST(StarGraph, BoostBreadthFirstSearchWithTwoBitColorMap) {
  const StarGraph g(/*n=*/5);
  std::vector<int> d(g.size(), 0);
  boost::two_bit_color_map<boost::typed_identity_property_map<std::uint32_t>> colors(g.size());
  boost::breadth_first_search(g, 0U, boost::visitor(DistanceRecorder(d)).color_map(colors));
  EXPECT_EQ(std::count(d.begin(), d.end(), 1), 4);  // the n-1 neighbours of the identity
  EXPECT_EQ(*std::max_element(d.begin(), d.end()), 6);
}

}  // namespace
}  // namespace starnet::topology
