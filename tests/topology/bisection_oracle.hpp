#pragma once
// The bisection width by brute force, the oracle of tests/topology/bisection_test.cpp and
// partition_test.cpp: every balanced split of the processors tried, the routers placed on the
// side that cuts fewest links (a minimum s–t cut with the two halves as source and sink).

#include <starnet/topology/platform.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

namespace starnet::testing::oracle {

using topology::Platform;
using topology::Role;

/// Links as pairs of node ids (a directed platform's every arc, an undirected one's every link
/// once), and which nodes are routers.
struct Graph {
  std::size_t nodes = 0;
  std::vector<std::pair<std::size_t, std::size_t>> links;
  std::vector<bool> router;
};

inline Graph graph_of(const Platform& p) {
  Graph g;
  g.nodes = p.num_nodes();
  for (std::size_t v = 0; v < g.nodes; ++v) g.router.push_back(p.graph()[v].role == Role::ROUTER);
  for (const auto e : boost::make_iterator_range(boost::edges(p.graph()))) {
    const auto u = boost::source(e, p.graph());
    const auto v = boost::target(e, p.graph());
    if (p.directed() || u < v) g.links.emplace_back(u, v);
  }
  return g;
}

/// Fewest links cut with the processors split as @p side says (routers free): unit capacities both
/// ways, augmenting paths from the processors on side A to those on side B.
inline std::uint64_t min_cut(const Graph& g, const std::vector<int>& side) {
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

/// The bisection width by trying every split of the processors into ⌊P/2⌋ and ⌈P/2⌉ (2^P splits:
/// P ≤ 16 or so). A directed platform's arcs count whichever way they cross.
inline std::uint64_t brute_force_bisection(const Platform& p) {
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

}  // namespace starnet::testing::oracle
