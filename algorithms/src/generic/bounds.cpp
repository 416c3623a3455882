#include <starnet/algorithms/generic/bounds.hpp>
#include <starnet/core/error.hpp>

#include <limits>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace starnet::algorithms::generic {

std::uint64_t ceil_log(std::uint64_t b, std::uint64_t n) {
  STARNET_ASSERT(b >= 2 && n >= 1);
  std::uint64_t steps = 0;
  for (std::uint64_t reach = 1; reach < n; ++steps) {
    reach = reach > n / b ? n : reach * b;  // saturate instead of overflowing
  }
  return steps;
}

StepBound step_lower_bound(Collective collective, const emulator::PortModel& ports, NodeId nodes,
                           std::uint64_t distance, bool relays) {
  STARNET_ASSERT(nodes >= 1 && ports.ports >= 1);
  StepBound b;
  b.counting = ceil_log(std::uint64_t{ports.ports} + 1, nodes);
  const bool everyone_full = collective == Collective::ALLREDUCE || collective == Collective::ALLGATHER;
  if (everyone_full && ports.half_duplex && ports.ports == 1 && nodes >= 2 && !relays) ++b.counting;
  b.distance = distance;
  return b;
}

TimeBound time_lower_bound(const emulator::PortModel& ports, NodeId nodes, const Rational& min_cost,
                           const Rational& distance) {
  STARNET_ASSERT(nodes >= 1 && ports.ports >= 1 && min_cost > 0);
  return {min_cost * static_cast<std::int64_t>(ceil_log(std::uint64_t{ports.ports} + 1, nodes)), distance};
}

namespace {

bool counts(const std::vector<bool>& relays, NodeId v) { return relays.empty() || !relays[v]; }

/// Distances from @p v (hops or weighted) and the farthest node that is not a relay (@p v itself
/// when it reaches none).
std::pair<Rational, NodeId> farthest(const topology::Topology& t, NodeId v, bool weighted,
                                     const std::vector<bool>& relays) {
  const NodeId n = t.num_nodes();
  if (!weighted && !relays.empty()) {
    constexpr auto UNSEEN = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> dist(n, UNSEEN);
    std::vector<NodeId> queue{v};
    queue.reserve(n);
    dist[v] = 0;
    NodeId best = v;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeId u = queue[head];
      if (counts(relays, u)) best = u;  // BFS order: the last processor dequeued is a farthest one
      for (topology::Port p = 0; p < t.degree(u); ++p) {
        const NodeId w = t.neighbor(u, p);
        if (dist[w] == UNSEEN) dist[w] = dist[u] + 1, queue.push_back(w);
      }
    }
    return {static_cast<std::int64_t>(dist[best]), best};
  }
  if (!weighted) {
    constexpr auto UNSEEN = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> dist(n, UNSEEN);
    std::vector<NodeId> queue{v};
    queue.reserve(n);
    dist[v] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeId u = queue[head];
      for (topology::Port p = 0; p < t.degree(u); ++p) {
        const NodeId w = t.neighbor(u, p);
        if (dist[w] == UNSEEN) dist[w] = dist[u] + 1, queue.push_back(w);
      }
    }
    return {static_cast<std::int64_t>(dist[queue.back()]), queue.back()};
  }
  std::vector<std::optional<Rational>> dist(n);
  using Item = std::pair<Rational, NodeId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[v] = Rational(0);
  heap.emplace(Rational(0), v);
  std::pair<Rational, NodeId> best{Rational(0), v};
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != *dist[u]) continue;
    if (best.first < d && counts(relays, u)) best = {d, u};
    for (topology::Port p = 0; p < t.degree(u); ++p) {
      const NodeId w = t.neighbor(u, p);
      if (dist[w] && *dist[w] <= d) continue;  // a cost ≥ 0 cannot bring w nearer than d
      const Rational through = d + t.link_cost(u, p);
      if (!dist[w] || through < *dist[w]) dist[w] = through, heap.emplace(through, w);
    }
  }
  return best;
}

}  // namespace

Rational eccentricity(const topology::Topology& topology, NodeId v, bool weighted, const std::vector<bool>& relays) {
  return farthest(topology, v, weighted, relays).first;
}

std::optional<Rational> mean_status(const topology::Topology& topology, bool vertex_transitive) {
  const NodeId n = topology.num_nodes();
  if (n == 0) return Rational(0);
  const auto sum_from = [&topology, n](NodeId v) {
    constexpr auto UNSEEN = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> dist(n, UNSEEN);
    std::vector<NodeId> queue{v};
    queue.reserve(n);
    dist[v] = 0;
    std::uint64_t sum = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeId u = queue[head];
      sum += dist[u];
      for (topology::Port p = 0; p < topology.degree(u); ++p) {
        const NodeId w = topology.neighbor(u, p);
        if (dist[w] == UNSEEN) dist[w] = dist[u] + 1, queue.push_back(w);
      }
    }
    return sum;
  };
  if (vertex_transitive) return Rational(static_cast<std::int64_t>(sum_from(0)));
  std::uint64_t arcs = 0;
  for (NodeId v = 0; v < n; ++v) arcs += topology.degree(v);
  if (n * (n + arcs) > MAX_DIAMETER_WORK) return std::nullopt;
  std::uint64_t total = 0;
  for (NodeId v = 0; v < n; ++v) total += sum_from(v);
  return Rational(static_cast<std::int64_t>(total), static_cast<std::int64_t>(n));
}

Diameter diameter(const topology::Topology& topology, bool weighted, bool vertex_transitive,
                  const std::vector<bool>& relays) {
  const NodeId n = topology.num_nodes();
  if (n == 0) return {Rational(0), true};
  if (vertex_transitive && relays.empty()) return {eccentricity(topology, 0, weighted), true};
  std::uint64_t arcs = 0;
  for (NodeId v = 0; v < n; ++v) arcs += topology.degree(v);
  const std::uint64_t budget = weighted ? MAX_DIAMETER_WORK / 8 : MAX_DIAMETER_WORK;
  if (n * (n + arcs) <= budget) {
    Rational best(0);
    for (NodeId v = 0; v < n; ++v) {
      if (counts(relays, v)) best = std::max(best, eccentricity(topology, v, weighted, relays));
    }
    return {best, true};
  }
  // Each sweep starts from the node farthest from the last: a lower estimate, often exact.
  Diameter d{Rational(0), false};
  NodeId from = 0;
  while (from + 1 < n && !counts(relays, from)) ++from;
  for (int sweep = 0; sweep < 4; ++sweep) {
    const auto [e, far] = farthest(topology, from, weighted, relays);
    d.value = std::max(d.value, e);
    from = far;
  }
  return d;
}

std::vector<BridgeCut> bridge_cuts(const topology::Topology& topology, const std::vector<bool>& routers, NodeId root) {
  // Tarjan's bridges, iteratively: discovery order, lowest order reachable, and processors below.
  const NodeId n = topology.num_nodes();
  constexpr NodeId UNSEEN = ~NodeId{0};
  std::vector<NodeId> order(n, UNSEEN);
  std::vector<NodeId> low(n, 0);
  std::vector<std::uint64_t> below(n, 0);  // processors in the DFS subtree
  std::vector<bool> root_below(n, false);
  struct Frame {
    NodeId v;
    NodeId parent;
    topology::Port next;
  };
  const auto processor = [&](NodeId v) { return routers.empty() || !routers[v]; };
  std::uint64_t processors = 0;
  for (NodeId v = 0; v < n; ++v) processors += processor(v) ? 1 : 0;
  std::vector<BridgeCut> cuts;
  NodeId counter = 0;
  std::vector<Frame> stack;
  for (NodeId start = 0; start < n; ++start) {
    if (order[start] != UNSEEN) continue;
    stack.push_back({start, UNSEEN, 0});
    order[start] = low[start] = counter++;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next == 0) {
        below[f.v] = processor(f.v) ? 1 : 0;
        root_below[f.v] = f.v == root;
      }
      if (f.next < topology.degree(f.v)) {
        const NodeId w = topology.neighbor(f.v, f.next++);
        if (w == f.parent) continue;
        if (order[w] == UNSEEN) {
          order[w] = low[w] = counter++;
          stack.push_back({w, f.v, 0});
        } else {
          low[f.v] = std::min(low[f.v], order[w]);
        }
        continue;
      }
      const Frame done = f;
      stack.pop_back();
      if (stack.empty()) continue;
      const NodeId p = stack.back().v;
      low[p] = std::min(low[p], low[done.v]);
      below[p] += below[done.v];
      root_below[p] = root_below[p] || root_below[done.v];
      if (low[done.v] > order[p] && below[done.v] > 0 && below[done.v] < processors) {
        cuts.push_back({below[done.v], processors - below[done.v], root_below[done.v]});
      }
    }
  }
  return cuts;
}

Rational cut_packets(Collective c, const BridgeCut& cut) {
  const auto a = static_cast<std::int64_t>(cut.side_a);
  const auto b = static_cast<std::int64_t>(cut.side_b);
  // The root's side sends (broadcast, scatter) or receives (reduce, gather); its far side is the other.
  const std::int64_t far = cut.root_in_a ? b : a;
  switch (c) {
    case Collective::ALLTOALL: return Rational(a * b);
    case Collective::ALLGATHER:
    case Collective::REDUCESCATTER: return Rational(std::max(a, b));
    case Collective::ALLREDUCE:
    case Collective::BROADCAST:
    case Collective::REDUCE: return Rational(1);
    case Collective::SCATTER:
    case Collective::GATHER: return Rational(far);
  }
  return Rational(0);
}

}  // namespace starnet::algorithms::generic
