// Bisection widths (topology/bisection.hpp) against an oracle: every balanced split of the
// processors tried, the routers placed on the side that cuts fewest links (a minimum s–t cut with
// the two halves as source and sink), on small members of each family.
#include <starnet/topology/bisection.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/platform.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <deque>
#include <limits>
#include <vector>

namespace starnet::topology {
namespace {

/// Undirected links as pairs of node ids, and which nodes are routers.
struct Graph {
  std::size_t nodes = 0;
  std::vector<std::pair<std::size_t, std::size_t>> links;
  std::vector<bool> router;
};

Graph graph_of(const Platform& p) {
  Graph g;
  g.nodes = p.num_nodes();
  for (std::size_t v = 0; v < g.nodes; ++v) g.router.push_back(p.graph()[v].role == Role::ROUTER);
  for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
    const auto u = boost::source(e, p.graph());
    const auto v = boost::target(e, p.graph());
    if (u < v) g.links.emplace_back(u, v);
  }
  return g;
}

/// Fewest links cut with the processors split as @p side says (routers free): unit capacities both
/// ways, augmenting paths from the processors on side A to those on side B.
std::uint64_t min_cut(const Graph& g, const std::vector<int>& side) {
  const std::size_t s = g.nodes;
  const std::size_t t = g.nodes + 1;
  constexpr int INF = std::numeric_limits<int>::max() / 4;
  std::vector<std::vector<std::pair<std::size_t, int>>> adj(g.nodes + 2);  // (to, capacity index)
  std::vector<int> cap;
  const auto arc = [&](std::size_t u, std::size_t v, int c) {
    adj[u].emplace_back(v, static_cast<int>(cap.size()));
    cap.push_back(c);
    adj[v].emplace_back(u, static_cast<int>(cap.size()));
    cap.push_back(0);
  };
  for (const auto& [u, v] : g.links) {
    arc(u, v, 1);
    arc(v, u, 1);
  }
  for (std::size_t v = 0; v < g.nodes; ++v) {
    if (side[v] == 0) arc(s, v, INF);
    if (side[v] == 1) arc(v, t, INF);
  }
  std::uint64_t flow = 0;
  while (true) {
    std::vector<std::pair<std::size_t, int>> from(g.nodes + 2, {SIZE_MAX, -1});
    std::deque<std::size_t> queue{s};
    from[s] = {s, -1};
    while (!queue.empty() && from[t].first == SIZE_MAX) {
      const auto u = queue.front();
      queue.pop_front();
      for (const auto& [v, c] : adj[u]) {
        if (cap[c] > 0 && from[v].first == SIZE_MAX) {
          from[v] = {u, c};
          queue.push_back(v);
        }
      }
    }
    if (from[t].first == SIZE_MAX) return flow;
    for (std::size_t v = t; v != s; v = from[v].first) {
      --cap[from[v].second];
      ++cap[from[v].second ^ 1];
    }
    ++flow;
  }
}

/// The bisection width by trying every split of the processors into ⌊P/2⌋ and ⌈P/2⌉.
std::uint64_t oracle(const Platform& p) {
  const Graph g = graph_of(p);
  std::vector<std::size_t> processors;
  for (std::size_t v = 0; v < g.nodes; ++v) {
    if (!g.router[v]) processors.push_back(v);
  }
  const std::size_t count = processors.size();
  const std::size_t half = count / 2;
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  const bool routers = std::any_of(g.router.begin(), g.router.end(), [](bool r) { return r; });
  // Subsets of size half containing processor 0 (its complement gives the same cut) when halves are equal.
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << count); ++mask) {
    if (static_cast<std::size_t>(std::popcount(mask)) != half) continue;
    if (count % 2 == 0 && (mask & 1U) == 0) continue;
    std::vector<int> side(g.nodes, -1);
    for (std::size_t i = 0; i < count; ++i) side[processors[i]] = (mask >> i & 1U) != 0 ? 0 : 1;
    if (routers) {
      best = std::min(best, min_cut(g, side));
      continue;
    }
    std::uint64_t cut = 0;
    for (const auto& [u, v] : g.links) cut += side[u] != side[v] ? 1 : 0;
    best = std::min(best, cut);
  }
  return best;
}

TEST(Bisection, FormulasEqualTheBruteForceWidth) {
  for (const char* spec : {"hypercube:3", "hypercube:4", "ring:8", "ring:7", "ring:2", "complete:6", "complete:7",
                           "torus:4x4", "mesh:4x4", "torus:2x2x2", "fattree:4"}) {
    const auto b = bisection_width(spec);
    ASSERT_TRUE(b.has_value()) << spec;
    EXPECT_TRUE(b->exact) << spec;
    EXPECT_EQ(b->links, oracle(make_platform(spec))) << spec << ": " << b->argument;
  }
}

TEST(Bisection, UpperBoundsAreAtLeastTheWidthAndSaySo) {
  for (const char* spec : {"torus:3x4", "mesh:3x4", "star:4", "dragonfly:2:2:1", "dragonfly:2:2:1:relative"}) {
    const auto b = bisection_width(spec);
    ASSERT_TRUE(b.has_value()) << spec;
    EXPECT_FALSE(b->exact) << spec;
    EXPECT_EQ(b->argument.rfind("upper bound", 0), 0U) << spec;
    EXPECT_GE(b->links, oracle(make_platform(spec))) << spec;
  }
  // The formulas at a size no oracle reaches, as their papers state them.
  EXPECT_EQ(bisection_width("fattree:8")->links, 64U);
  EXPECT_EQ(bisection_width("hypercube:10")->links, 512U);
  EXPECT_EQ(bisection_width("torus:8x8x8")->links, 128U);
  // Nine groups: the middle one split, its global links on its routers' side (absolute, relative).
  EXPECT_EQ(bisection_width("dragonfly:4:1:2")->links, 16U + 4U);
  EXPECT_EQ(bisection_width("dragonfly:4:1:2:relative")->links, 16U + 4U);
  EXPECT_FALSE(bisection_width("dragonfly:4:1:2:circulant").has_value()) << "its routers hold links to both halves";
  EXPECT_FALSE(bisection_width("debruijn:5").has_value());
  EXPECT_FALSE(bisection_width("mesh:3x5").has_value()) << "no cut across an odd side halves the nodes";
}

}  // namespace
}  // namespace starnet::topology
