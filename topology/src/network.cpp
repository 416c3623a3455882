// A platform with routers seen from its hosts: ranks, routes and the links they share (network.hpp).
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/network.hpp>
#include <starnet/topology/spec.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>
#include <random>

namespace starnet::topology {
namespace {

/// SplitMix64's finaliser: a flow's hash, the same on every machine and engine.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

constexpr std::uint16_t UNREACHED = std::numeric_limits<std::uint16_t>::max();

bool is_router(const Platform& p, NodeId v) {
  return p.graph()[static_cast<Platform::vertex_descriptor>(v)].role == Role::ROUTER;
}

}  // namespace

std::string to_string(Routing routing) {
  switch (routing) {
    case Routing::MINIMAL: return "minimal";
    case Routing::ECMP: return "ecmp";
    case Routing::VALIANT: return "valiant";
  }
  return "minimal";
}

Routing parse_routing(std::string_view text, std::string_view setting) {
  if (text == "minimal") return Routing::MINIMAL;
  if (text == "ecmp") return Routing::ECMP;
  if (text == "valiant") return Routing::VALIANT;
  throw UsageError(Setting{std::string(setting), std::string(text)}, "expected minimal, ecmp or valiant");
}

std::string to_string(Forwarding forwarding) {
  return forwarding == Forwarding::CUT_THROUGH ? "cut-through" : "store-and-forward";
}

Forwarding parse_forwarding(std::string_view text, std::string_view setting) {
  if (text == "cut-through") return Forwarding::CUT_THROUGH;
  if (text == "store-and-forward") return Forwarding::STORE_AND_FORWARD;
  throw UsageError(Setting{std::string(setting), std::string(text)}, "expected cut-through or store-and-forward");
}

std::string Placement::to_string() const { return random ? fmt::format("random:{}", seed) : "linear"; }

Placement parse_placement(std::string_view text, std::string_view setting) {
  if (text == "linear") return {};
  constexpr std::string_view RANDOM = "random:";
  if (text.starts_with(RANDOM)) {
    const std::string digits(text.substr(RANDOM.size()));
    std::uint64_t seed = 0;
    const bool whole = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
                       digits.size() <= std::numeric_limits<std::uint64_t>::digits10;
    if (whole) {
      seed = std::stoull(digits);
      return {true, seed};
    }
  }
  throw UsageError(Setting{std::string(setting), std::string(text)},
                   "expected linear or random:SEED (SEED a whole number, e.g. random:7)");
}

HostNetwork::HostNetwork(std::shared_ptr<const Platform> platform, NetworkOptions options)
    : platform_(std::move(platform)), view_(platform_), options_(options) {
  const auto nodes = static_cast<NodeId>(platform_->num_nodes());
  offsets_.assign(nodes + 1, 0);
  host_index_.assign(nodes, ~NodeId{0});
  std::vector<NodeId> platform_hosts;
  for (NodeId v = 0; v < nodes; ++v) {
    offsets_[v + 1] = offsets_[v] + view_.degree(v);
    if (!is_router(*platform_, v)) {
      host_index_[v] = platform_hosts.size();
      platform_hosts.push_back(v);
    }
  }
  if (offsets_.back() >= std::numeric_limits<LinkId>::max()) {
    throw TopologyError(fmt::format("{}: {} links exceed the network model's 2^32 - 1", name(), offsets_.back()));
  }
  ranks_ = platform_hosts.size();
  if (ranks_ < 2) throw TopologyError(fmt::format("{}: {} processors (a network needs two at least)", name(), ranks_));
  hosts_ = platform_hosts;
  if (options_.placement.random) {
    std::mt19937_64 generator(options_.placement.seed);
    // Fisher–Yates with our own draws: std::shuffle's order is the library's, not ours.
    for (NodeId i = ranks_ - 1; i > 0; --i) std::swap(hosts_[i], hosts_[generator() % (i + 1)]);
  }
  rank_at_.assign(ranks_, 0);
  for (NodeId r = 0; r < ranks_; ++r) rank_at_[host_index_[hosts_[r]]] = r;
  std::string family = "other";
  try {
    family = parse_spec(platform_->name()).family;
  } catch (const TopologyError&) {
  }
  // The families' layouts (datacenter.cpp) are what their arithmetic routes assume: hosts first.
  if (family == "fattree") {
    family_ = Family::FATTREE;
    arity_ = static_cast<std::uint64_t>(fattree_arity(parse_spec(platform_->name()))) / 2;
  } else if (family == "dragonfly") {
    family_ = Family::DRAGONFLY;
    dragonfly_ = dragonfly_shape(parse_spec(platform_->name()));
    arity_ = static_cast<std::uint64_t>(dragonfly_.routers);
    per_router_ = static_cast<std::uint64_t>(dragonfly_.hosts);
    globals_ = static_cast<std::uint64_t>(dragonfly_.global);
  } else {
    if (options_.routing == Routing::VALIANT) {
      throw UsageError(Setting{"routing", "valiant"},
                       fmt::format("goes through a core switch of a fat-tree or a group of a dragonfly; {} is neither "
                                   "(expected minimal or ecmp)",
                                   name()));
    }
    build_tables(platform_hosts);
  }
}

void HostNetwork::build_tables(const std::vector<NodeId>& platform_hosts) {
  const auto nodes = static_cast<NodeId>(platform_->num_nodes());
  if (ranks_ * nodes > MAX_ROUTE_TABLE_ENTRIES) {
    throw TopologyError(fmt::format("{}: {} hosts × {} nodes exceed the {} entries of route tables the network "
                                    "model holds",
                                    name(), ranks_, nodes, MAX_ROUTE_TABLE_ENTRIES));
  }
  hops_.assign(ranks_ * nodes, UNREACHED);
  // Reverse arcs: hops from x to host h are hops along arcs x→y, so the search walks them backwards.
  std::vector<std::vector<NodeId>> into(nodes);
  for (NodeId v = 0; v < nodes; ++v) {
    for (Port p = 0; p < view_.degree(v); ++p) into[view_.neighbor(v, p)].push_back(v);
  }
  std::deque<NodeId> queue;
  for (NodeId h = 0; h < ranks_; ++h) {
    std::uint16_t* to_h = &hops_[h * nodes];
    const NodeId t = platform_hosts[h];
    to_h[t] = 0;
    queue.assign(1, t);
    while (!queue.empty()) {
      const NodeId y = queue.front();
      queue.pop_front();
      // Routes cross routers only: a host relays nothing, so only the target host is entered from a host.
      if (y != t && !is_router(*platform_, y)) continue;
      for (const NodeId x : into[y]) {
        if (to_h[x] != UNREACHED) continue;
        if (to_h[y] + 1 >= UNREACHED) throw TopologyError(fmt::format("{}: a route longer than {} hops", name(), UNREACHED - 1));
        to_h[x] = static_cast<std::uint16_t>(to_h[y] + 1);
        queue.push_back(x);
      }
    }
    for (NodeId v = 0; v < nodes; ++v) {
      if (host_index_[v] != ~NodeId{0} && to_h[v] == UNREACHED) {
        throw TopologyError(fmt::format("{}: processor {} reaches processor {} through no path of routers", name(),
                                        view_.node_name(v), view_.node_name(t)));
      }
    }
  }
}

std::vector<NodeId> HostNetwork::hierarchy() const {
  switch (family_) {
    case Family::FATTREE: return {2 * arity_, arity_, arity_};
    case Family::DRAGONFLY: return {arity_ * globals_ + 1, arity_, per_router_};
    case Family::OTHER: break;
  }
  return {};
}

std::vector<std::string_view> HostNetwork::hierarchy_names() const {
  switch (family_) {
    case Family::FATTREE: return {"pods", "edge switches", "hosts"};
    case Family::DRAGONFLY: return {"groups", "routers", "hosts"};
    case Family::OTHER: break;
  }
  return {};
}

std::uint64_t HostNetwork::flow_hash(NodeId from, NodeId to) const {
  return mix(mix(mix(options_.seed) ^ from) ^ to);
}

LinkId HostNetwork::arc_id(NodeId u, NodeId v) const {
  const Port p = view_.find_port(u, v);
  STARNET_ASSERT(p != NO_PORT);
  return static_cast<LinkId>(offsets_[u] + p);
}

void HostNetwork::fattree_path(NodeId s, NodeId d, std::uint64_t hash, std::vector<NodeId>& nodes) const {
  const std::uint64_t half = arity_;
  const std::uint64_t k = 2 * half;
  const NodeId hosts = k * half * half;
  const auto edge = [&](NodeId pod, NodeId e) { return hosts + pod * half + e; };
  const auto agg = [&](NodeId pod, NodeId j) { return hosts + k * half + pod * half + j; };
  const auto core = [&](NodeId c) { return hosts + 2 * k * half + c; };
  const NodeId ps = s / (half * half);
  const NodeId pd = d / (half * half);
  const NodeId es = s / half % half;
  const NodeId ed = d / half % half;
  // D-mod-K: the destination picks the up-links; ECMP and Valiant a hash of the flow.
  const bool minimal = options_.routing == Routing::MINIMAL;
  const NodeId j = minimal ? d % half : hash % half;
  const NodeId m = minimal ? d / half % half : (hash / half) % half;
  nodes.push_back(s);
  nodes.push_back(edge(ps, es));
  if (ps != pd || es != ed) {
    nodes.push_back(agg(ps, j));
    if (ps != pd) {
      nodes.push_back(core(j * half + m));
      nodes.push_back(agg(pd, j));
    }
    nodes.push_back(edge(pd, ed));
  }
  nodes.push_back(d);
}

void HostNetwork::dragonfly_path(NodeId s, NodeId d, std::uint64_t hash, std::vector<NodeId>& nodes) const {
  const std::uint64_t a = arity_;
  const std::uint64_t groups = a * globals_ + 1;
  const NodeId hosts = groups * a * per_router_;
  const auto router = [&](NodeId g, NodeId r) { return hosts + g * a + r; };
  // Group g's global link to group t: on the router of g's global port to t (the arrangement's, datacenter.cpp).
  const auto gateway = [&](NodeId g, NodeId t) { return router(g, dragonfly_.global_port(g, t) / globals_); };
  const auto hop = [&nodes](NodeId v) {
    if (nodes.back() != v) nodes.push_back(v);
  };
  const NodeId rs = s / per_router_;
  const NodeId rd = d / per_router_;
  nodes.push_back(s);
  nodes.push_back(hosts + rs);
  const auto to_group = [&](NodeId from_group, NodeId target) {
    hop(gateway(from_group, target));
    hop(gateway(target, from_group));
  };
  const NodeId gs = rs / a;
  const NodeId gd = rd / a;
  if (gs != gd) {
    if (options_.routing == Routing::VALIANT && groups > 2) {
      // An intermediate group other than both ends', drawn per flow.
      const NodeId others = groups - (gs == gd ? 1 : 2);
      NodeId gi = hash % others;
      for (const NodeId g : {std::min(gs, gd), std::max(gs, gd)}) gi += gi >= g ? 1 : 0;
      to_group(gs, gi);
      to_group(gi, gd);
    } else {
      to_group(gs, gd);
    }
  }
  hop(hosts + rd);
  nodes.push_back(d);
}

void HostNetwork::table_path(NodeId s, NodeId d, std::uint64_t hash, std::vector<NodeId>& nodes) const {
  const auto total = static_cast<NodeId>(platform_->num_nodes());
  const std::uint16_t* to_d = &hops_[host_index_[d] * total];
  NodeId x = s;
  nodes.push_back(x);
  while (x != d) {
    // The neighbours one hop nearer: the lowest port (minimal) or one drawn by the flow's hash (ecmp).
    Port chosen = NO_PORT;
    std::uint64_t candidates = 0;
    for (Port p = 0; p < view_.degree(x); ++p) {
      const NodeId y = view_.neighbor(x, p);
      if (to_d[y] + 1 != to_d[x] || (y != d && !is_router(*platform_, y))) continue;
      ++candidates;
      if (chosen == NO_PORT || (options_.routing == Routing::ECMP && mix(hash ^ x) % candidates == 0)) chosen = p;
    }
    STARNET_ASSERT(chosen != NO_PORT);
    x = view_.neighbor(x, chosen);
    nodes.push_back(x);
  }
}

std::vector<NodeId> HostNetwork::path(NodeId from, NodeId to) const {
  std::vector<NodeId> nodes;
  if (from == to) return nodes;
  const NodeId s = hosts_[from];
  const NodeId d = hosts_[to];
  const std::uint64_t hash = flow_hash(from, to);
  switch (family_) {
    case Family::FATTREE: fattree_path(s, d, hash, nodes); break;
    case Family::DRAGONFLY: dragonfly_path(s, d, hash, nodes); break;
    case Family::OTHER: table_path(s, d, hash, nodes); break;
  }
  return nodes;
}

void HostNetwork::route(NodeId from, NodeId to, std::vector<LinkId>& out) const {
  const auto nodes = path(from, to);
  for (std::size_t i = 0; i + 1 < nodes.size(); ++i) out.push_back(arc_id(nodes[i], nodes[i + 1]));
}

std::string HostNetwork::link_label(LinkId link) const {
  const auto after = std::upper_bound(offsets_.begin(), offsets_.end(), std::uint64_t{link});
  const auto v = static_cast<NodeId>(after - offsets_.begin() - 1);
  return view_.link_name(v, static_cast<Port>(link - offsets_[v]));
}

std::string HostNetwork::node_name(NodeId v) const { return view_.node_name(hosts_[v]); }

std::string HostNetwork::link_name(NodeId v, Port port) const {
  return node_name(v) + "=>" + node_name(neighbor(v, port));
}

Rational HostNetwork::link_cost(NodeId v, Port port) const {
  const auto nodes = path(v, neighbor(v, port));
  Rational most = 0;
  for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
    most = std::max(most, view_.link_cost(nodes[i], view_.find_port(nodes[i], nodes[i + 1])));
  }
  return most;
}

Rational HostNetwork::switching_time(NodeId from, NodeId to) const {
  if (options_.switch_latency == 0) return 0;
  const auto switches = static_cast<std::int64_t>(path(from, to).size()) - 2;
  return options_.switch_latency * switches;
}

Rational HostNetwork::link_latency(NodeId v, Port port) const {
  // The route once: its first link gives the sender's α, its inner nodes are the switches crossed.
  const auto nodes = path(v, neighbor(v, port));
  const auto switches = static_cast<std::int64_t>(nodes.size()) - 2;
  return view_.link_latency(nodes[0], view_.find_port(nodes[0], nodes[1])) + options_.switch_latency * switches;
}

Rational HostNetwork::speed(NodeId v) const { return view_.speed(hosts_[v]); }

}  // namespace starnet::topology
