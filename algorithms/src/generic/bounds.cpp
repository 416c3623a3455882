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

}  // namespace starnet::algorithms::generic
