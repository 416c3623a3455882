#include <starnet/algorithms/generic/shortest_path_tree.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <queue>

namespace starnet::algorithms::generic {

SpanningTree shortest_path_tree(const topology::Topology& t, NodeId root) {
  const NodeId n = t.num_nodes();
  std::vector<std::optional<Rational>> dist(n);
  std::vector<bool> done(n, false);
  SpanningTree tree{root, std::vector<NodeId>(n, root), std::vector<std::uint32_t>(n, 0), {}};
  std::vector<NodeId> settled;  // in order of cost from the root
  using Entry = std::pair<Rational, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  dist[root] = Rational(0);
  queue.emplace(Rational(0), root);
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (done[v]) continue;
    done[v] = true;
    settled.push_back(v);
    for (topology::Port p = 0; p < t.degree(v); ++p) {
      const NodeId u = t.neighbor(v, p);
      if (done[u]) continue;
      const Rational step = t.link_latency(v, p) + t.link_cost(v, p);
      // A positive step from d cannot reach or tie a node already at d or nearer: no sum needed
      // (on a network's complete graph of routes nearly every arc is such).
      if (dist[u] && step > 0 && *dist[u] <= d) continue;
      const Rational via = d + step;
      // Equal costs: the lower parent id, so that the tree does not depend on the queue's order.
      if (!dist[u] || via < *dist[u] || (via == *dist[u] && v < tree.parent[u])) {
        dist[u] = via;
        tree.parent[u] = v;
        tree.depth[u] = tree.depth[v] + 1;
        queue.emplace(via, u);
      }
    }
  }
  if (settled.size() < n) {
    const auto missing = static_cast<NodeId>(std::find(done.begin(), done.end(), false) - done.begin());
    throw ScheduleError(fmt::format("shortest-path tree on {}: node {} is not reachable from root {}", t.name(),
                                    t.node_name(missing), t.node_name(root)));
  }
  tree.order = settled;
  std::stable_sort(tree.order.begin(), tree.order.end(),
                   [&](NodeId a, NodeId b) { return tree.depth[a] < tree.depth[b]; });
  return tree;
}

}  // namespace starnet::algorithms::generic
