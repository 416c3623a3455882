#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>

namespace starnet::algorithms::generic {

std::string to_string(ParentRule rule) { return rule == ParentRule::FIRST ? "first-parent" : "earliest-slot"; }

SpanningTree bfs_tree(const topology::Topology& topology, NodeId root, ParentRule rule, unsigned ports) {
  STARNET_ASSERT(ports >= 1);
  const NodeId n = topology.num_nodes();
  constexpr auto UNSEEN = std::numeric_limits<std::uint32_t>::max();
  SpanningTree t;
  t.root = root;
  t.parent.assign(n, root);
  t.depth.assign(n, UNSEEN);
  t.order.reserve(n);
  t.depth[root] = 0;
  t.order.push_back(root);
  for (std::size_t head = 0; head < t.order.size(); ++head) {
    const NodeId u = t.order[head];
    for (topology::Port p = 0; p < topology.degree(u); ++p) {
      const NodeId v = topology.neighbor(u, p);
      if (t.depth[v] != UNSEEN) continue;
      t.depth[v] = t.depth[u] + 1;
      t.parent[v] = u;
      t.order.push_back(v);
    }
  }
  if (t.order.size() != n) {
    const auto it = std::find(t.depth.begin(), t.depth.end(), UNSEEN);
    throw ScheduleError(fmt::format("BFS tree on {}: node {} is not reachable from the root {}", topology.name(),
                                    topology.node_name(static_cast<NodeId>(it - t.depth.begin())),
                                    topology.node_name(root)));
  }
  if (rule == ParentRule::EARLIEST_SLOT) {
    // Level by level from the deepest: each node, in order of readiness, joins the candidate
    // parent one level up that could take its word earliest (the reduce greedy of tree_schedule,
    // run while the tree is chosen). A parent's children arrive in nondecreasing readiness, so its
    // (step, used) state is that greedy's.
    const std::uint32_t levels = t.depth[t.order.back()];
    std::vector<std::vector<NodeId>> level(levels + 1);
    for (const NodeId v : t.order) level[t.depth[v]].push_back(v);
    std::vector<std::uint32_t> ready(n, 0), step(n, 0), used(n, 0), children(n, 0);
    const auto slot = [&](NodeId u, std::uint32_t r) {
      if (r > step[u] || children[u] == 0) return r;
      return used[u] == ports ? step[u] + 1 : step[u];
    };
    for (std::uint32_t d = levels; d >= 1; --d) {
      auto& nodes = level[d];
      std::sort(nodes.begin(), nodes.end(),
                [&](NodeId a, NodeId b) { return std::tie(ready[a], a) < std::tie(ready[b], b); });
      for (const NodeId v : nodes) {
        NodeId best = t.parent[v];
        for (topology::Port p = 0; p < topology.degree(v); ++p) {
          const NodeId u = topology.neighbor(v, p);
          if (t.depth[u] + 1 != d) continue;
          if (std::pair(slot(u, ready[v]), children[u]) < std::pair(slot(best, ready[v]), children[best])) best = u;
        }
        const std::uint32_t s = slot(best, ready[v]);
        if (children[best] == 0 || s > step[best]) step[best] = s, used[best] = 0;
        ++used[best];
        ++children[best];
        t.parent[v] = best;
      }
      for (const NodeId u : level[d - 1]) {
        if (children[u] > 0) ready[u] = step[u] + 1;
      }
    }
  }
  return t;
}

Schedule tree_schedule(const SpanningTree& tree, Collective collective, unsigned ports) {
  STARNET_ASSERT(ports >= 1);
  const NodeId n = tree.parent.size();
  std::vector<std::vector<NodeId>> children(n);
  for (const NodeId v : tree.order) {
    if (v != tree.root) children[tree.parent[v]].push_back(v);
  }
  std::vector<Transfer> transfers;
  std::uint32_t start = 0;
  if (collective != Collective::BROADCAST) {
    // ready[v]: the step from which v holds its subtree's reduction.
    std::vector<std::uint32_t> ready(n, 0);
    for (auto it = tree.order.rbegin(); it != tree.order.rend(); ++it) {
      auto kids = children[*it];
      if (kids.empty()) continue;
      std::sort(kids.begin(), kids.end(),
                [&](NodeId a, NodeId b) { return std::tie(ready[a], a) < std::tie(ready[b], b); });
      std::uint32_t step = 0;
      unsigned used = 0;
      for (const NodeId c : kids) {
        if (ready[c] > step) step = ready[c], used = 0;
        if (used == ports) ++step, used = 0;
        ++used;
        transfers.push_back({step, c, *it, Operand::ACC, Merge::COMBINE, Operand::NONE});
      }
      ready[*it] = step + 1;
    }
    start = ready[tree.root];
  }
  if (collective != Collective::REDUCE) {
    // need[v]: steps v's subtree needs once v holds the word.
    std::vector<std::uint32_t> need(n, 0);
    const auto by_need = [&](NodeId a, NodeId b) { return need[a] != need[b] ? need[a] > need[b] : a < b; };
    for (auto it = tree.order.rbegin(); it != tree.order.rend(); ++it) {
      auto& kids = children[*it];
      std::sort(kids.begin(), kids.end(), by_need);
      for (std::size_t i = 0; i < kids.size(); ++i) {
        need[*it] = std::max(need[*it], static_cast<std::uint32_t>(i / ports) + 1 + need[kids[i]]);
      }
    }
    std::vector<std::uint32_t> hold(n, 0);
    hold[tree.root] = start;
    for (const NodeId v : tree.order) {
      const auto& kids = children[v];  // sorted by decreasing need above
      for (std::size_t i = 0; i < kids.size(); ++i) {
        const auto step = hold[v] + static_cast<std::uint32_t>(i / ports);
        hold[kids[i]] = step + 1;
        transfers.push_back({step, v, kids[i], Operand::ACC, Merge::REPLACE, Operand::NONE});
      }
    }
  }
  return Schedule(n, std::move(transfers));
}

TreeSchedule bfs_tree_schedule(const topology::Topology& topology, NodeId root, Collective collective, unsigned ports) {
  TreeSchedule first{tree_schedule(bfs_tree(topology, root, ParentRule::FIRST, ports), collective, ports),
                     ParentRule::FIRST};
  TreeSchedule greedy{tree_schedule(bfs_tree(topology, root, ParentRule::EARLIEST_SLOT, ports), collective, ports),
                      ParentRule::EARLIEST_SLOT};
  return greedy.schedule.steps() < first.schedule.steps() ? std::move(greedy) : std::move(first);
}

}  // namespace starnet::algorithms::generic
