#include <starnet/core/error.hpp>
#include <starnet/topology/platform.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <vector>

namespace starnet::topology {

std::string to_string(Role role) { return role == Role::PROCESSOR ? "processor" : "router"; }

Role parse_role(std::string_view text, std::string_view what) {
  if (text == "processor") return Role::PROCESSOR;
  if (text == "router") return Role::ROUTER;
  throw TopologyError(fmt::format("{}: role \"{}\" is not known (expected processor or router)", what, text));
}

Platform::Platform(std::string name, bool directed) : name_(std::move(name)), directed_(directed) {}

Platform::vertex_descriptor Platform::add_node(NodeProperties props) {
  if (props.name.empty()) throw TopologyError(fmt::format("{}: a node has an empty name", name_));
  if (by_name_.contains(props.name)) {
    throw TopologyError(fmt::format("{}: node name \"{}\" is used twice (names must be unique)", name_, props.name));
  }
  if (!(props.speed > 0)) {
    throw TopologyError(fmt::format("{}: node \"{}\" has speed {} (must be > 0)", name_, props.name,
                                    props.speed.to_string()));
  }
  const std::string name = props.name;
  const auto v = boost::add_vertex(std::move(props), graph_);
  by_name_.emplace(name, v);
  return v;
}

void Platform::add_link(vertex_descriptor u, vertex_descriptor v, LinkProperties props) {
  const auto& nu = graph_[u].name;
  const auto& nv = graph_[v].name;
  if (u == v) throw TopologyError(fmt::format("{}: link {}->{} is a self-loop", name_, nu, nv));
  if (!(props.cost > 0)) {
    throw TopologyError(
        fmt::format("{}: link {}->{} has cost {} (must be > 0)", name_, nu, nv, props.cost.to_string()));
  }
  if (props.latency < 0) {
    throw TopologyError(
        fmt::format("{}: link {}->{} has latency {} (must be >= 0)", name_, nu, nv, props.latency.to_string()));
  }
  if (boost::edge(u, v, graph_).second) {
    throw TopologyError(fmt::format("{}: link {}->{} is given twice", name_, nu, nv));
  }
  boost::add_edge(u, v, props, graph_);
  if (!directed_) boost::add_edge(v, u, props, graph_);
}

void Platform::order_ports(const std::function<std::uint64_t(vertex_descriptor v, vertex_descriptor u)>& rank) {
  PlatformGraph ordered(boost::num_vertices(graph_));
  struct Arc {
    std::uint64_t rank;
    vertex_descriptor to;
    LinkProperties props;
  };
  std::vector<Arc> arcs;
  for (const auto v : boost::make_iterator_range(boost::vertices(graph_))) {
    ordered[v] = graph_[v];
    arcs.clear();
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, graph_))) {
      arcs.push_back({rank(v, boost::target(e, graph_)), boost::target(e, graph_), graph_[e]});
    }
    std::stable_sort(arcs.begin(), arcs.end(), [](const Arc& a, const Arc& b) { return a.rank < b.rank; });
    for (const auto& a : arcs) boost::add_edge(v, a.to, a.props, ordered);
  }
  graph_ = std::move(ordered);
}

std::optional<Platform::vertex_descriptor> Platform::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

Platform::vertex_descriptor Platform::at(std::string_view name, std::string_view what) const {
  if (const auto v = find(name)) return *v;
  throw TopologyError(fmt::format("{}: node \"{}\" does not exist in {}", what, name, name_));
}

void Platform::validate() const {
  if (boost::num_vertices(graph_) == 0) throw TopologyError(name_ + ": has no nodes (expected at least one node)");
  std::unordered_map<std::string, int> seen;
  for (const auto v : boost::make_iterator_range(boost::vertices(graph_))) {
    const auto& p = graph_[v];
    if (p.name.empty()) throw TopologyError(fmt::format("{}: node {} has an empty name", name_, v));
    // A control character would not survive a file round trip (XML turns CR into LF) nor print.
    if (std::any_of(p.name.begin(), p.name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; })) {
      throw TopologyError(fmt::format("{}: node name \"{}\" holds a control character (expected printable text)", name_,
                                      p.name));
    }
    if (++seen[p.name] > 1) throw TopologyError(fmt::format("{}: node name \"{}\" is used twice", name_, p.name));
    if (!(p.speed > 0)) {
      throw TopologyError(fmt::format("{}: node \"{}\" has speed {} (must be > 0)", name_, p.name, p.speed.to_string()));
    }
  }
  for (const auto e : boost::make_iterator_range(boost::edges(graph_))) {
    const auto u = boost::source(e, graph_);
    const auto v = boost::target(e, graph_);
    const auto& nu = graph_[u].name;
    const auto& nv = graph_[v].name;
    if (u == v) throw TopologyError(fmt::format("{}: link {}->{} is a self-loop", name_, nu, nv));
    if (!(graph_[e].cost > 0)) {
      throw TopologyError(
          fmt::format("{}: link {}->{} has cost {} (must be > 0)", name_, nu, nv, graph_[e].cost.to_string()));
    }
    if (graph_[e].latency < 0) {
      throw TopologyError(
          fmt::format("{}: link {}->{} has latency {} (must be >= 0)", name_, nu, nv, graph_[e].latency.to_string()));
    }
    if (!directed_) {
      const auto [back, found] = boost::edge(v, u, graph_);
      if (!found || graph_[back].cost != graph_[e].cost || graph_[back].latency != graph_[e].latency ||
          graph_[back].dimension != graph_[e].dimension) {
        throw TopologyError(fmt::format(
            "{}: link {}->{} has no reverse arc of the same cost, latency and dimension (the platform is undirected)",
            name_, nu, nv));
      }
    }
  }
  for (const auto v : boost::make_iterator_range(boost::vertices(graph_))) {
    std::vector<vertex_descriptor> targets;
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, graph_))) targets.push_back(boost::target(e, graph_));
    std::sort(targets.begin(), targets.end());
    if (const auto it = std::adjacent_find(targets.begin(), targets.end()); it != targets.end()) {
      throw TopologyError(fmt::format("{}: link {}->{} is given twice", name_, graph_[v].name, graph_[*it].name));
    }
  }
}

std::size_t Platform::num_links() const {
  const std::size_t arcs = boost::num_edges(graph_);
  return directed_ ? arcs : arcs / 2;
}

namespace {

using ArcKey = std::pair<std::string, std::string>;
/// cost, latency, dimension
using ArcValue = std::tuple<Rational, Rational, int>;

std::map<ArcKey, ArcValue> arcs_by_name(const Platform& p) {
  const auto& g = p.graph();
  std::map<ArcKey, ArcValue> out;
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    out.emplace(ArcKey{g[boost::source(e, g)].name, g[boost::target(e, g)].name},
                ArcValue{g[e].cost, g[e].latency, g[e].dimension});
  }
  return out;
}

}  // namespace

std::optional<std::string> difference(const Platform& a, const Platform& b) {
  if (a.directed() != b.directed()) {
    return fmt::format("{} is {} but {} is {}", a.name(), a.directed() ? "directed" : "undirected", b.name(),
                       b.directed() ? "directed" : "undirected");
  }
  for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    for (const auto v : boost::make_iterator_range(boost::vertices(x->graph()))) {
      const auto& p = x->graph()[v];
      const auto w = y->find(p.name);
      if (!w) return fmt::format("node \"{}\" of {} is missing from {}", p.name, x->name(), y->name());
      const auto& q = y->graph()[*w];
      if (std::tie(p.role, p.speed, p.label) != std::tie(q.role, q.speed, q.label)) {
        return fmt::format("node \"{}\" is {} speed {} label \"{}\" in {} but {} speed {} label \"{}\" in {}", p.name,
                           to_string(p.role), p.speed.to_string(), p.label, x->name(), to_string(q.role),
                           q.speed.to_string(), q.label, y->name());
      }
    }
  }
  const auto arcs_a = arcs_by_name(a);
  const auto arcs_b = arcs_by_name(b);
  for (const auto& [x, y, nx, ny] : {std::tuple{&arcs_a, &arcs_b, &a, &b}, std::tuple{&arcs_b, &arcs_a, &b, &a}}) {
    for (const auto& [key, value] : *x) {
      const auto it = y->find(key);
      if (it == y->end()) return fmt::format("link {}->{} of {} is missing from {}", key.first, key.second, nx->name(), ny->name());
      if (it->second != value) {
        const auto& [cost, latency, dimension] = value;
        const auto& [other_cost, other_latency, other_dimension] = it->second;
        return fmt::format("link {}->{} has cost {} latency {} dimension {} in {} but cost {} latency {} dimension {} "
                           "in {}",
                           key.first, key.second, cost.to_string(), latency.to_string(), dimension, nx->name(),
                           other_cost.to_string(), other_latency.to_string(), other_dimension, ny->name());
      }
    }
  }
  return std::nullopt;
}

PlatformTopology::PlatformTopology(std::shared_ptr<const Platform> platform) : platform_(std::move(platform)) {
  STARNET_ASSERT(platform_ != nullptr);
  const auto& g = platform_->graph();
  first_arc_.reserve(platform_->num_nodes() + 1);
  first_arc_.push_back(0);
  targets_.reserve(boost::num_edges(g));
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      targets_.push_back(static_cast<NodeId>(boost::target(e, g)));
    }
    first_arc_.push_back(targets_.size());
  }
}

PlatformTopology::PlatformTopology(Platform platform)
    : PlatformTopology(std::make_shared<const Platform>(std::move(platform))) {}

Port PlatformTopology::degree(NodeId v) const { return static_cast<Port>(first_arc_[v + 1] - first_arc_[v]); }

Platform::edge_descriptor PlatformTopology::arc(NodeId v, Port port) const {
  auto [it, end] = boost::out_edges(static_cast<Platform::vertex_descriptor>(v), platform_->graph());
  STARNET_ASSERT(port < static_cast<Port>(std::distance(it, end)));
  std::advance(it, port);
  return *it;
}

NodeId PlatformTopology::neighbor(NodeId v, Port port) const {
  STARNET_ASSERT(port < degree(v));
  return targets_[first_arc_[v] + port];
}

Port PlatformTopology::find_port(NodeId v, NodeId u) const {
  const auto begin = targets_.begin() + static_cast<std::ptrdiff_t>(first_arc_[v]);
  const auto end = targets_.begin() + static_cast<std::ptrdiff_t>(first_arc_[v + 1]);
  const auto it = std::find(begin, end, u);
  return it == end ? NO_PORT : static_cast<Port>(it - begin);
}

std::string PlatformTopology::node_name(NodeId v) const {
  return platform_->graph()[static_cast<Platform::vertex_descriptor>(v)].name;
}

std::string PlatformTopology::link_name(NodeId v, Port port) const {
  return node_name(v) + "->" + node_name(neighbor(v, port));
}

Rational PlatformTopology::link_cost(NodeId v, Port port) const { return platform_->graph()[arc(v, port)].cost; }
Rational PlatformTopology::link_latency(NodeId v, Port port) const {
  return platform_->graph()[arc(v, port)].latency;
}

Rational PlatformTopology::speed(NodeId v) const {
  return platform_->graph()[static_cast<Platform::vertex_descriptor>(v)].speed;
}

}  // namespace starnet::topology
