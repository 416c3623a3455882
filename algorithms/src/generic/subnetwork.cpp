#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/core/error.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <unordered_set>

namespace starnet::algorithms::generic {

std::string to_string(CostKind kind) {
  switch (kind) {
    case CostKind::UNIT: return "unit";
    case CostKind::TOPOLOGY: return "topology";
    case CostKind::RANDOM: return "random";
  }
  return "?";
}

CostKind parse_cost_kind(std::string_view text, std::string_view what) {
  for (const CostKind k : {CostKind::UNIT, CostKind::TOPOLOGY, CostKind::RANDOM}) {
    if (text == to_string(k)) return k;
  }
  throw UsageError(fmt::format("{}: \"{}\" is not a cost model (expected unit, topology or random)", what, text));
}

namespace {

std::uint64_t splitmix(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// A reproducible word for the undirected link {u, v}; @p salt separates faults from costs.
std::uint64_t link_hash(std::uint64_t seed, std::uint64_t salt, NodeId u, NodeId v) {
  if (v < u) std::swap(u, v);
  return splitmix(splitmix(splitmix(seed ^ salt) ^ u) ^ v);
}

constexpr std::uint64_t FAULT_SALT = 0x6661756c74ULL;  // "fault"
constexpr std::uint64_t COST_SALT = 0x636f7374ULL;     // "cost"

std::string node_list_hint(const Topology& t) {
  return fmt::format("expected a node name of {} or an index 0..{}", t.name(), t.num_nodes() - 1);
}

std::optional<NodeId> star_rank(const topology::StarGraph& g, std::string_view text) {
  topology::StarGraph::Label label{};
  int count = 0;
  std::vector<bool> seen(static_cast<std::size_t>(g.n()) + 1, false);
  const auto take = [&](std::string_view symbol) {
    int s = 0;
    const auto [end, ec] = std::from_chars(symbol.data(), symbol.data() + symbol.size(), s);
    if (ec != std::errc() || end != symbol.data() + symbol.size() || s < 1 || s > g.n() ||
        seen[static_cast<std::size_t>(s)] || count >= g.n()) {
      return false;
    }
    seen[static_cast<std::size_t>(s)] = true;
    label[static_cast<std::size_t>(count++)] = static_cast<std::uint8_t>(s);
    return true;
  };
  if (g.n() <= 9) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (!take(text.substr(i, 1))) return std::nullopt;
    }
  } else {
    std::size_t begin = 0;
    for (;;) {
      const auto dot = text.find('.', begin);
      if (!take(text.substr(begin, dot - begin))) return std::nullopt;
      if (dot == std::string_view::npos) break;
      begin = dot + 1;
    }
  }
  if (count != g.n()) return std::nullopt;
  return g.rank(label);
}

}  // namespace

void check_alpha_beta(const std::optional<Rational>& latency, const std::optional<Rational>& bandwidth) {
  if (latency && !(*latency >= 0)) {
    throw UsageError(Setting{"latency", latency->to_string()}, "not a latency (expected a number ≥ 0)");
  }
  if (bandwidth && !(*bandwidth > 0)) {
    throw UsageError(Setting{"bandwidth", bandwidth->to_string()}, "not a bandwidth (expected a number > 0)");
  }
}

Rational LinkCosts::of(const Topology& base, NodeId v, Port port) const {
  return alpha(base, v, port) + per_unit(base, v, port);
}

Rational LinkCosts::alpha(const Topology& base, NodeId v, Port port) const {
  switch (kind) {
    case CostKind::UNIT: return 1;
    case CostKind::TOPOLOGY: {
      // One α for every link; a network's route adds the time its switches take (network.hpp).
      const emulator::AlphaBeta given{latency, bandwidth};
      const topology::Network* net = base.network();
      return !latency || net == nullptr || net->switching_free()
                 ? given.alpha(base, v, port)
                 : given.alpha(base, v, port) + net->switching_time(v, base.neighbor(v, port));
    }
    case CostKind::RANDOM: return 0;
  }
  return 1;
}

Rational LinkCosts::per_unit(const Topology& base, NodeId v, Port port) const {
  switch (kind) {
    case CostKind::UNIT: return 0;
    case CostKind::TOPOLOGY: return emulator::AlphaBeta{latency, bandwidth}.units(base, v, port, message_size);
    case CostKind::RANDOM:
      return {static_cast<std::int64_t>(2 + link_hash(seed, COST_SALT, v, base.neighbor(v, port)) % 7), 4};
  }
  return 0;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  int depth = 0;
  std::size_t start = 0;
  const auto take = [&](std::size_t end) {
    const auto item = text.substr(start, end - start);
    const auto first = item.find_first_not_of(" \t");
    if (first != std::string_view::npos) items.emplace_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (text[i] == ',' && depth <= 0) {
      take(i);
      start = i + 1;
    }
  }
  take(text.size());
  return items;
}

std::optional<NodeId> find_node(const Topology& topology, std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (const auto* g = dynamic_cast<const topology::StarGraph*>(&topology)) {
    if (const auto r = star_rank(*g, text)) return r;
  } else if (const auto* p = dynamic_cast<const topology::PlatformTopology*>(&topology)) {
    if (const auto v = p->platform().find(text)) return static_cast<NodeId>(*v);
  } else {
    for (NodeId v = 0; v < topology.num_nodes(); ++v) {
      if (topology.node_name(v) == text) return v;
    }
  }
  NodeId index = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (ec == std::errc() && end == text.data() + text.size() && index < topology.num_nodes()) return index;
  return std::nullopt;
}

std::vector<NodeId> parse_failed_nodes(std::string_view text, const Topology& topology, std::string_view what) {
  std::vector<NodeId> nodes;
  for (const auto& item : split_list(text)) {
    const auto v = find_node(topology, item);
    if (!v) {
      throw UsageError(Setting{std::string(what), std::string(text)},
                       fmt::format("\"{}\" is not a node of {} ({})", item, topology.name(), node_list_hint(topology)));
    }
    nodes.push_back(*v);
  }
  return nodes;
}

std::vector<std::pair<NodeId, NodeId>> parse_failed_links(std::string_view text, const Topology& topology,
                                                          std::string_view what) {
  std::vector<std::pair<NodeId, NodeId>> links;
  for (const auto& item : split_list(text)) {
    std::vector<std::pair<NodeId, NodeId>> readings;
    int depth = 0;
    for (std::size_t i = 0; i < item.size(); ++i) {
      if (item[i] == '(') ++depth;
      if (item[i] == ')') --depth;
      if (item[i] != '-' || depth != 0) continue;
      const auto u = find_node(topology, std::string_view(item).substr(0, i));
      const auto v = find_node(topology, std::string_view(item).substr(i + 1));
      if (u && v && std::find(readings.begin(), readings.end(), std::pair{*u, *v}) == readings.end()) {
        readings.emplace_back(*u, *v);
      }
    }
    if (readings.empty()) {
      throw UsageError(Setting{std::string(what), std::string(text)},
                       fmt::format("\"{}\" is not a link u-v of {} ({} on each side of the '-')", item, topology.name(),
                                   node_list_hint(topology)));
    }
    if (readings.size() > 1) {
      throw UsageError(Setting{std::string(what), std::string(text)},
                       fmt::format("\"{}\" names more than one pair of nodes of {} (write the nodes by index)", item,
                                   topology.name()));
    }
    const auto [u, v] = readings.front();
    if (!topology.port_to(u, v) && !topology.port_to(v, u)) {
      throw UsageError(Setting{std::string(what), std::string(text)},
                       fmt::format("there is no link {} in {} (nodes {} and {} are not neighbours)", item, topology.name(),
                                   topology.node_name(u), topology.node_name(v)));
    }
    links.emplace_back(u, v);
  }
  return links;
}

std::vector<std::pair<NodeId, NodeId>> random_failed_links(const Topology& topology, double p, std::uint64_t seed) {
  STARNET_ASSERT(p >= 0 && p <= 1);
  std::vector<std::pair<NodeId, NodeId>> links;
  if (p == 0) return links;
  const double threshold = p * 9007199254740992.0;  // p·2^53: (hash >> 11) < threshold has probability p
  for (NodeId u = 0; u < topology.num_nodes(); ++u) {
    for (Port port = 0; port < topology.degree(u); ++port) {
      const NodeId v = topology.neighbor(u, port);
      // Both arcs of a link hash alike, so they fail together; duplicates are removed below.
      if (static_cast<double>(link_hash(seed, FAULT_SALT, u, v) >> 11) < threshold) {
        links.emplace_back(std::min(u, v), std::max(u, v));
      }
    }
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  return links;
}

Subnetwork::Subnetwork(const Topology& base, const Faults& faults, NodeId root, LinkCosts costs)
    : base_(base), costs_(std::move(costs)) {
  const NodeId n = base.num_nodes();
  if (n > MAX_SUBNETWORK_NODES) {
    throw TopologyError(fmt::format("topology \"{}\": {} nodes exceed the {} nodes the generic collectives handle",
                                    base.name(), n, MAX_SUBNETWORK_NODES));
  }
  if (root >= n)
    throw UsageError(fmt::format("root {} is not a node of {} (expected 0..{})", root, base.name(), n - 1));
  std::vector<bool> dead(n, false);
  for (const NodeId v : faults.nodes) dead[v] = true;
  if (dead[root]) {
    throw UsageError(fmt::format("root {} of {} is among the failed nodes (choose another root)", base.node_name(root),
                                 base.name()));
  }
  alive_ = n - static_cast<NodeId>(std::count(dead.begin(), dead.end(), true));
  const auto key = [n](NodeId u, NodeId v) { return std::min(u, v) * n + std::max(u, v); };
  std::unordered_set<NodeId> cut;
  for (const auto& [u, v] : faults.links) cut.insert(key(u, v));
  const auto usable = [&](NodeId u, NodeId v) { return !dead[v] && !cut.contains(key(u, v)); };

  // Breadth-first search from the root over what survives; renumber the reached nodes in order.
  std::vector<NodeId> local(n, n);
  std::deque<NodeId> queue{root};
  local[root] = 0;
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop_front();
    for (Port p = 0; p < base.degree(u); ++p) {
      const NodeId v = base.neighbor(u, p);
      if (local[v] == n && usable(u, v)) local[v] = 0, queue.push_back(v);
    }
  }
  nodes_ = static_cast<NodeId>(n - std::count(local.begin(), local.end(), n));
  if (faults.empty() && nodes_ == n && base.network() != nullptr) {
    implicit_ = whole_ = true;
    root_ = root;
    // Every route costs alike when the study gives every link one α and β and switches take no time.
    if (costs_.kind == CostKind::TOPOLOGY && costs_.latency && costs_.bandwidth && base.network()->switching_free() &&
        n > 1) {
      uniform_ = costs_.of(base, 0, 0);
    }
    for (NodeId v = 0; v < n; ++v) arcs_ += base.degree(v);
    asymmetric_arc_ = find_asymmetric_arc();
    return;
  }
  for (NodeId v = 0; v < n; ++v) {
    if (local[v] == n) continue;
    local[v] = original_.size();
    original_.push_back(v);
  }
  root_ = local[root];
  offsets_.assign(original_.size() + 1, 0);
  const bool unit = costs_.kind == CostKind::UNIT;
  std::uint64_t base_arcs = 0;
  for (NodeId i = 0; i < original_.size(); ++i) {
    const NodeId u = original_[i];
    base_arcs += base.degree(u);
    for (Port p = 0; p < base.degree(u); ++p) {
      const NodeId v = base.neighbor(u, p);
      if (!usable(u, v)) continue;
      target_.push_back(local[v]);
      base_port_.push_back(p);
      if (!unit) cost_.push_back(costs_.of(base, u, p));
    }
    offsets_[i + 1] = target_.size();
  }
  // Every node and arc kept, in order: ids and ports are the base's, and so are its network's routes.
  arcs_ = target_.size();
  whole_ = original_.size() == base.num_nodes() && arcs_ == base_arcs;
  // Symmetric when the arcs, reversed, are the arcs again: O(E log E) (port_to per arc would be
  // O(E·degree), too slow on complete graphs).
  std::vector<std::pair<NodeId, NodeId>> arcs;
  arcs.reserve(target_.size());
  for (NodeId i = 0; i < original_.size(); ++i) {
    for (auto k = offsets_[i]; k < offsets_[i + 1]; ++k) arcs.emplace_back(i, target_[k]);
  }
  std::sort(arcs.begin(), arcs.end());
  for (const auto& [u, v] : arcs) {
    if (!std::binary_search(arcs.begin(), arcs.end(), std::pair{v, u})) {
      asymmetric_arc_ = std::pair{original_[u], original_[v]};
      break;
    }
  }
}

Port Subnetwork::find_port(NodeId v, NodeId u) const {
  if (implicit_) return base_.find_port(v, u);
  for (auto k = offsets_[v]; k < offsets_[v + 1]; ++k) {
    if (target_[k] == u) return static_cast<Port>(k - offsets_[v]);
  }
  return NO_PORT;
}

Rational Subnetwork::link_cost(NodeId v, Port port) const {
  if (implicit_) return costs_.kind == CostKind::UNIT ? Rational(1) : uniform_ ? *uniform_ : costs_.of(base_, v, port);
  return cost_.empty() ? Rational(1) : cost_[offsets_[v] + port];
}

std::optional<std::pair<NodeId, NodeId>> Subnetwork::find_asymmetric_arc() const {
  for (NodeId v = 0; v < nodes_; ++v) {
    for (Port p = 0; p < degree(v); ++p) {
      const NodeId u = neighbor(v, p);
      if (find_port(u, v) == NO_PORT) return std::pair{original(v), original(u)};
    }
  }
  return std::nullopt;
}

Subnetwork::CostRange Subnetwork::cost_range() const {
  if (uniform_) return {*uniform_, true};
  CostRange range{Rational(1), true};
  bool any = false;
  const auto take = [&](const Rational& c) {
    if (any && c != range.least) range.uniform = false;
    if (!any || c < range.least) range.least = c;
    any = true;
  };
  if (implicit_ && costs_.kind != CostKind::UNIT) {
    for (NodeId v = 0; v < nodes_; ++v) {
      for (Port p = 0; p < degree(v); ++p) take(link_cost(v, p));
    }
  } else {
    for (const auto& c : cost_) take(c);
  }
  return range;
}

std::optional<Rational> Subnetwork::uniform_cost() const {
  auto range = cost_range();
  return range.uniform ? std::optional<Rational>(std::move(range.least)) : std::nullopt;
}

Rational Subnetwork::min_cost() const { return cost_range().least; }

}  // namespace starnet::algorithms::generic
