// The earliest-completion tree: the broadcast timed as the tree grows (earliest_completion_tree.hpp).
#include <starnet/algorithms/generic/earliest_completion_tree.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <queue>
#include <tuple>
#include <utility>

namespace starnet::algorithms::generic {
namespace {

/// A holder's links in order of weight (latency + cost), then neighbour id — as ports, so that a
/// node holds 4 bytes a link (none with equal links: port order is that order) — and the next one
/// to try.
struct Holder {
  std::vector<topology::Port> links;
  std::size_t next = 0;
  std::vector<Rational> ports;  // when each port is free
};

std::vector<topology::Port> sorted_links(const topology::Topology& t, NodeId v) {
  std::vector<std::pair<Rational, NodeId>> weighed;
  weighed.reserve(t.degree(v));
  for (topology::Port p = 0; p < t.degree(v); ++p) weighed.emplace_back(t.link_latency(v, p) + t.link_cost(v, p), p);
  // By weight, then neighbour id (the ties' rule, header).
  std::sort(weighed.begin(), weighed.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : t.neighbor(v, a.second) < t.neighbor(v, b.second);
  });
  std::vector<topology::Port> out;
  out.reserve(weighed.size());
  for (const auto& [w, p] : weighed) out.push_back(p);
  return out;
}

}  // namespace

SpanningTree earliest_completion_tree(const topology::Topology& t, NodeId root, unsigned ports, bool equal_links) {
  const NodeId n = t.num_nodes();
  SpanningTree tree{root, std::vector<NodeId>(n, root), std::vector<std::uint32_t>(n, 0), {root}};
  std::vector<bool> joined(n, false);
  std::vector<Holder> holders(n);
  const auto link_at = [&](NodeId u, std::size_t i) {
    return equal_links ? static_cast<topology::Port>(i) : holders[u].links[i];
  };
  // (completion time, holder, neighbour): the smallest first.
  using Entry = std::tuple<Rational, NodeId, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  const auto offer = [&](NodeId u) {
    Holder& h = holders[u];
    const std::size_t degree = t.degree(u);
    while (h.next < degree && joined[t.neighbor(u, link_at(u, h.next))]) ++h.next;
    if (h.next == degree) {
      h.links = {};  // all its neighbours joined: its order is no longer needed
      return;
    }
    const topology::Port p = link_at(u, h.next);
    const Rational& free = *std::min_element(h.ports.begin(), h.ports.end());
    queue.emplace(free + t.link_latency(u, p) + t.link_cost(u, p), u, t.neighbor(u, p));
  };
  const auto join = [&](NodeId v, const Rational& at) {
    joined[v] = true;
    if (!equal_links) holders[v].links = sorted_links(t, v);
    holders[v].ports.assign(std::max(ports, 1U), at);
    offer(v);
  };
  join(root, Rational(0));
  while (!queue.empty()) {
    const auto [at, u, v] = queue.top();
    queue.pop();
    if (joined[v]) {
      offer(u);  // stale: v joined through another holder; u's next link
      continue;
    }
    auto& port = *std::min_element(holders[u].ports.begin(), holders[u].ports.end());
    port = at;
    tree.parent[v] = u;
    tree.depth[v] = tree.depth[u] + 1;
    tree.order.push_back(v);
    join(v, at);
    offer(u);
  }
  if (tree.order.size() < n) {
    const auto missing = static_cast<NodeId>(std::find(joined.begin(), joined.end(), false) - joined.begin());
    throw ScheduleError(fmt::format("earliest-completion tree on {}: node {} is not reachable from root {}", t.name(),
                                    t.node_name(missing), t.node_name(root)));
  }
  // By depth, as the other trees list their nodes (bfs_tree.hpp); parents still come first.
  std::stable_sort(tree.order.begin(), tree.order.end(),
                   [&](NodeId a, NodeId b) { return tree.depth[a] < tree.depth[b]; });
  return tree;
}

}  // namespace starnet::algorithms::generic
