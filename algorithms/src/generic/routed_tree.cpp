#include <starnet/algorithms/generic/routed_tree.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/platform.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <unordered_set>

namespace starnet::algorithms::generic {

std::vector<bool> router_flags(const topology::Topology& topology) {
  const auto* platform = dynamic_cast<const topology::PlatformTopology*>(&topology);
  if (platform == nullptr) return {};
  std::vector<bool> flags(topology.num_nodes(), false);
  bool any = false;
  for (NodeId v = 0; v < topology.num_nodes(); ++v) {
    flags[v] = platform->platform().graph()[v].role == topology::Role::ROUTER;
    any = any || flags[v];
  }
  if (!any) flags.clear();
  return flags;
}

namespace {

constexpr auto UNSEEN = std::numeric_limits<NodeId>::max();

/// Each processor's parent and the route to it (the processor first, the parent last, routers
/// between); the root has no route.
struct ProcessorTree {
  NodeId root = 0;
  std::vector<std::vector<NodeId>> route;  // by node; empty for the root and the routers
};

/// The processor tree @p tree contracts to: each processor's nearest processor ancestor.
ProcessorTree contracted(const SpanningTree& tree, const std::vector<bool>& relays) {
  ProcessorTree p{tree.root, std::vector<std::vector<NodeId>>(tree.parent.size())};
  for (const NodeId v : tree.order) {
    if (v == tree.root || relays[v]) continue;
    auto& route = p.route[v];
    route.push_back(v);
    do {
      route.push_back(tree.parent[route.back()]);
    } while (relays[route.back()]);
  }
  return p;
}

/// The binomial tree over the processors in @p order (BFS order from the root), each route a
/// shortest path whose every hop goes to the least used router so far (ties: port order) — on a
/// fat-tree the first-found paths would all cross one core switch; none when a hop has no router
/// to go to (a processor would have to forward a word it does not combine).
std::optional<ProcessorTree> binomial(const topology::Topology& t, const std::vector<NodeId>& order,
                                      const std::vector<bool>& relays) {
  std::vector<NodeId> procs;
  for (const NodeId v : order) {
    if (!relays[v]) procs.push_back(v);
  }
  // p_i's parent is p_j, j = i less its lowest bit: the processors with many children are spread
  // over the order (multiples of large powers of two), most tree edges join neighbours in it.
  std::vector<std::vector<std::size_t>> children(procs.size());
  for (std::size_t i = 1; i < procs.size(); ++i) children[i & (i - 1)].push_back(i);
  ProcessorTree p{procs.front(), std::vector<std::vector<NodeId>>(t.num_nodes())};
  constexpr auto FAR = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> dist(t.num_nodes(), FAR);  // hops to the parent
  std::vector<std::uint64_t> load(t.num_nodes(), 0);     // routes through each router so far
  std::vector<bool> wanted(t.num_nodes(), false);
  std::vector<NodeId> queue;
  for (std::size_t j = 0; j < procs.size(); ++j) {
    if (children[j].empty()) continue;
    const NodeId source = procs[j];
    // The search stops once it has found every child: the layers before the last child's are
    // complete, so every shortest path to the parent is known. Most parents' children are near
    // (most tree edges join neighbours in BFS order), so most searches stop early.
    for (const NodeId v : queue) dist[v] = FAR;
    std::size_t missing = children[j].size();
    for (const std::size_t i : children[j]) wanted[procs[i]] = true;
    dist[source] = 0;
    queue.assign(1, source);
    for (std::size_t head = 0; head < queue.size() && missing > 0; ++head) {
      const NodeId u = queue[head];
      for (topology::Port port = 0; port < t.degree(u); ++port) {
        const NodeId w = t.neighbor(u, port);
        if (dist[w] != FAR) continue;
        dist[w] = dist[u] + 1;
        queue.push_back(w);
        if (wanted[w]) wanted[w] = false, --missing;
      }
    }
    for (const std::size_t i : children[j]) {
      auto& route = p.route[procs[i]];
      route.push_back(procs[i]);
      while (route.back() != source) {
        const NodeId v = route.back();
        NodeId next = UNSEEN;
        for (topology::Port port = 0; port < t.degree(v); ++port) {
          const NodeId w = t.neighbor(v, port);
          if (dist[w] + 1 != dist[v] || (w != source && !relays[w])) continue;
          if (w == source || next == UNSEEN || load[w] < load[next]) next = w;
          if (w == source) break;
        }
        if (next == UNSEEN) return std::nullopt;
        if (next != source) ++load[next];
        route.push_back(next);
      }
    }
  }
  return p;
}

/// Sends and receives per node and step, and the (step, sender, receiver) triples taken.
class PortUse {
 public:
  PortUse(NodeId nodes, const emulator::PortModel& model)
      : nodes_(nodes), model_(model), sends_(nodes), receives_(nodes) {}

  /// The first step ≥ @p from in which @p u can send to @p w.
  [[nodiscard]] std::uint32_t first_free(NodeId u, NodeId w, std::uint32_t from) const {
    std::uint32_t s = from;
    while (!free(u, w, s)) ++s;
    return s;
  }
  void take(NodeId u, NodeId w, std::uint32_t s) {
    grow(sends_[u], s)++;
    grow(receives_[w], s)++;
    pairs_.insert(key(u, w, s));
  }

 private:
  [[nodiscard]] static unsigned at(const std::vector<std::uint16_t>& use, std::uint32_t s) {
    return s < use.size() ? use[s] : 0;
  }
  static std::uint16_t& grow(std::vector<std::uint16_t>& use, std::uint32_t s) {
    if (use.size() <= s) use.resize(s + 1, 0);
    return use[s];
  }
  [[nodiscard]] bool free(NodeId u, NodeId w, std::uint32_t s) const {
    const unsigned k = model_.ports;
    const unsigned u_out = at(sends_[u], s);
    const unsigned w_in = at(receives_[w], s);
    if (u_out >= k || w_in >= k) return false;
    if (model_.half_duplex && (u_out + at(receives_[u], s) >= k || w_in + at(sends_[w], s) >= k)) return false;
    return !pairs_.contains(key(u, w, s));
  }
  [[nodiscard]] std::uint64_t key(NodeId u, NodeId w, std::uint32_t s) const {
    return (std::uint64_t{s} * nodes_ + u) * nodes_ + w;
  }

  NodeId nodes_;
  emulator::PortModel model_;
  std::vector<std::vector<std::uint16_t>> sends_;
  std::vector<std::vector<std::uint16_t>> receives_;
  std::unordered_set<std::uint64_t> pairs_;
};

/// The reduce on @p tree (file comment): its transfers, message m = the route of processor m.
std::vector<Transfer> routed_reduce(const ProcessorTree& tree, const std::vector<bool>& relays,
                                    const emulator::PortModel& model) {
  const NodeId n = tree.route.size();
  std::vector<std::uint32_t> pending(n, 0);
  std::vector<std::uint32_t> ready(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    if (!tree.route[v].empty()) ++pending[tree.route[v].back()];
  }
  using Event = std::tuple<std::uint32_t, NodeId, std::uint32_t>;  // (time, message, hop)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (NodeId v = 0; v < n; ++v) {
    if (!tree.route[v].empty() && pending[v] == 0) events.emplace(0, v, 0);
  }
  PortUse use(n, model);
  std::vector<Transfer> transfers;
  while (!events.empty()) {
    const auto [time, m, hop] = events.top();
    events.pop();
    const auto& route = tree.route[m];
    const NodeId u = route[hop];
    const NodeId w = route[hop + 1];
    const std::uint32_t s = use.first_free(u, w, time);
    use.take(u, w, s);
    const auto message = static_cast<std::uint32_t>(m);
    transfers.push_back({s, u, w, relays[u] ? Operand::RELAY : Operand::ACC, Merge::COMBINE,
                         relays[w] ? Operand::RELAY : Operand::NONE, message});
    if (hop + 2 < route.size()) {
      events.emplace(s + 1, m, hop + 1);
      continue;
    }
    ready[w] = std::max(ready[w], s + 1);
    if (--pending[w] == 0 && w != tree.root) events.emplace(ready[w], w, 0);
  }
  return transfers;
}

/// @p reduce run backwards from step @p start (file comment), message ids moved by @p shift so
/// that a relay never sees an id twice.
void append_reversed(const std::vector<Transfer>& reduce, const std::vector<bool>& relays, std::uint32_t start,
                     std::uint32_t shift, std::vector<Transfer>& out) {
  std::uint32_t last = 0;
  for (const auto& t : reduce) last = std::max(last, t.step);
  for (const auto& t : reduce) {
    out.push_back({start + last - t.step, t.to, t.from, relays[t.to] ? Operand::RELAY : Operand::ACC, Merge::REPLACE,
                   relays[t.from] ? Operand::RELAY : Operand::NONE, t.message + shift});
  }
}

Schedule plan_on(const ProcessorTree& tree, const std::vector<bool>& relays, Collective c,
                 const emulator::PortModel& model) {
  const NodeId n = tree.route.size();
  const auto reduce = routed_reduce(tree, relays, model);
  std::uint32_t reduce_steps = 0;
  for (const auto& t : reduce) reduce_steps = std::max(reduce_steps, t.step + 1);
  std::vector<Transfer> transfers;
  if (c != Collective::BROADCAST) transfers = reduce;
  if (c != Collective::REDUCE && !reduce.empty()) {
    append_reversed(reduce, relays, c == Collective::ALLREDUCE ? reduce_steps : 0, static_cast<std::uint32_t>(n),
                    transfers);
  }
  return Schedule(n, std::move(transfers), {}, relays);
}

void check_collective(const topology::Topology& t, Collective c) {
  if (c != Collective::ALLREDUCE && c != Collective::REDUCE && c != Collective::BROADCAST) {
    throw ScheduleError(fmt::format(
        "routed tree on {}: the word collectives are allreduce, reduce and broadcast, not {}", t.name(), to_string(c)));
  }
}

}  // namespace

RoutedPlan routed_tree_schedule(const topology::Topology& t, const SpanningTree& tree, const std::vector<bool>& relays,
                                Collective c, const emulator::PortModel& ports) {
  check_collective(t, c);
  STARNET_ASSERT(relays.size() == t.num_nodes() && !relays[tree.root]);
  return {plan_on(contracted(tree, relays), relays, c, ports), "routed bfs tree"};
}

RoutedPlan routed_tree_schedule(const topology::Topology& t, NodeId root, const std::vector<bool>& relays,
                                Collective c, const emulator::PortModel& ports) {
  const auto tree = bfs_tree(t, root, ParentRule::FIRST, ports.ports);
  RoutedPlan bfs = routed_tree_schedule(t, tree, relays, c, ports);
  const auto spread_tree = binomial(t, tree.order, relays);
  if (!spread_tree) return bfs;
  RoutedPlan spread{plan_on(*spread_tree, relays, c, ports), "routed binomial tree"};
  return spread.schedule.steps() < bfs.schedule.steps() ? std::move(spread) : std::move(bfs);
}

}  // namespace starnet::algorithms::generic
