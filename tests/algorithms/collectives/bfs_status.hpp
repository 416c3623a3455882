#pragma once
// The status of a vertex-transitive topology, Σ_v d(0, v), by breadth-first search on the topology
// itself: the oracle of the total exchange tests and benchmark (no group arithmetic).
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace starnet::algorithms::collectives {

/// Σ_v d(0, v) by BFS on the topology itself (the oracle: no group arithmetic).
inline std::uint64_t bfs_status(const topology::Topology& t) {
  constexpr auto UNSEEN = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> dist(t.num_nodes(), UNSEEN);
  std::vector<topology::NodeId> queue{0};
  dist[0] = 0;
  std::uint64_t sum = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto u = queue[head];
    sum += dist[u];
    for (topology::Port p = 0; p < t.degree(u); ++p) {
      const auto w = t.neighbor(u, p);
      if (dist[w] == UNSEEN) dist[w] = dist[u] + 1, queue.push_back(w);
    }
  }
  return sum;
}

}  // namespace starnet::algorithms::collectives
