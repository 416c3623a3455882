// Data-centre networks with routers: the k-ary fat-tree and the dragonfly (families.hpp).
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include "family_bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace starnet::topology {
namespace {

using detail::Bound;

const Bound FATTREE_K{"K of fattree:K", 2, MAX_FATTREE_K,
                      "K even; fattree:64 would exceed the 65,536-node limit of a platform"};
const Bound DRAGONFLY_A{"routers per group A of dragonfly:A:P:H", 1, static_cast<long>(MAX_PLATFORM_NODES),
                        "e.g. dragonfly:4:2:2"};
const Bound DRAGONFLY_P{"hosts per router P of dragonfly:A:P:H", 1, static_cast<long>(MAX_PLATFORM_NODES),
                        "e.g. dragonfly:4:2:2"};
const Bound DRAGONFLY_H{"global links per router H of dragonfly:A:P:H", 1, static_cast<long>(MAX_PLATFORM_NODES),
                        "e.g. dragonfly:4:2:2"};

void check_fattree(int k, std::string_view spec_text) {
  detail::check_bound(k, FATTREE_K, spec_text);
  if (k % 2 != 0) {
    throw TopologyError(fmt::format("topology \"{}\": K of fattree:K \"{}\" is odd (expected an even integer {}..{}: "
                                    "each switch has K/2 ports down and K/2 up, e.g. fattree:4)",
                                    spec_text, k, FATTREE_K.lo, FATTREE_K.hi));
  }
}

/// Node counts of a dragonfly in 64 bits, each bounded before the next is formed.
struct DragonflySize {
  std::uint64_t groups;
  std::uint64_t routers;
  std::uint64_t hosts;
  std::uint64_t links;
};

DragonflySize dragonfly_size(const DragonflyShape& s, std::string_view spec_text) {
  detail::check_bound(s.routers, DRAGONFLY_A, spec_text);
  detail::check_bound(s.hosts, DRAGONFLY_P, spec_text);
  detail::check_bound(s.global, DRAGONFLY_H, spec_text);
  const auto a = static_cast<std::uint64_t>(s.routers);
  const std::uint64_t groups = a * static_cast<std::uint64_t>(s.global) + 1;
  detail::check_size(spec_text, groups * a, 0);
  const std::uint64_t hosts = groups * a * static_cast<std::uint64_t>(s.hosts);
  detail::check_size(spec_text, hosts + groups * a, 0);
  const std::uint64_t links = hosts + groups * (a * (a - 1) / 2) + groups * (groups - 1) / 2;
  detail::check_size(spec_text, hosts + groups * a, links);
  return {groups, groups * a, hosts, links};
}

constexpr std::array<std::pair<GlobalArrangement, std::string_view>, 3> ARRANGEMENTS{
    {{GlobalArrangement::ABSOLUTE, "absolute"}, {GlobalArrangement::RELATIVE, "relative"}, {GlobalArrangement::CIRCULANT, "circulant"}}};
constexpr std::string_view DRAGONFLY_FORM =
    "dragonfly:A:P:H[:ARRANGEMENT]: A routers per group, P hosts per router, H global links per router, the global "
    "links' arrangement absolute (the default), relative or circulant, e.g. dragonfly:4:2:2 or dragonfly:4:2:2:relative";
/// Where each arrangement's ports lead, for network_notes (GlobalArrangement's order).
constexpr std::array<std::string_view, 3> ARRANGEMENT_ORDER{
    "the other groups in increasing order", "the groups that follow, in order, wrapping around",
    "the groups one, two, … away on either side in turn"};

}  // namespace

Platform fattree_platform(int k) {
  const std::string name = fmt::format("fattree:{}", k);
  check_fattree(k, name);
  const int half = k / 2;
  Platform p(name, /*directed=*/false);
  // Node order: hosts, edge, aggregation, core switches (the NodeOrbit ranges of fattree_orbits).
  for (int pod = 0; pod < k; ++pod) {
    for (int e = 0; e < half; ++e) {
      for (int h = 0; h < half; ++h) p.add_node({fmt::format("h{}_{}_{}", pod, e, h), Role::PROCESSOR});
    }
  }
  const auto hosts = static_cast<Platform::vertex_descriptor>(p.num_nodes());
  for (int pod = 0; pod < k; ++pod) {
    for (int e = 0; e < half; ++e) p.add_node({fmt::format("e{}_{}", pod, e), Role::ROUTER});
  }
  for (int pod = 0; pod < k; ++pod) {
    for (int j = 0; j < half; ++j) p.add_node({fmt::format("a{}_{}", pod, j), Role::ROUTER});
  }
  for (int c = 0; c < half * half; ++c) p.add_node({fmt::format("c{}", c), Role::ROUTER});
  const auto uhalf = static_cast<Platform::vertex_descriptor>(half);
  const auto uk = static_cast<Platform::vertex_descriptor>(k);
  const auto edge = [&](Platform::vertex_descriptor pod, Platform::vertex_descriptor e) { return hosts + pod * uhalf + e; };
  const auto agg = [&](Platform::vertex_descriptor pod, Platform::vertex_descriptor j) {
    return hosts + uk * uhalf + pod * uhalf + j;
  };
  const auto core = [&](Platform::vertex_descriptor c) { return hosts + 2 * uk * uhalf + c; };
  for (Platform::vertex_descriptor h = 0; h < hosts; ++h) p.add_link(h, edge(h / (uhalf * uhalf), h / uhalf % uhalf));
  for (Platform::vertex_descriptor pod = 0; pod < uk; ++pod) {
    for (Platform::vertex_descriptor e = 0; e < uhalf; ++e) {
      for (Platform::vertex_descriptor j = 0; j < uhalf; ++j) p.add_link(edge(pod, e), agg(pod, j));
    }
    // Aggregation switch j reaches core group j: switches j·k/2 … j·k/2 + k/2 − 1.
    for (Platform::vertex_descriptor j = 0; j < uhalf; ++j) {
      for (Platform::vertex_descriptor m = 0; m < uhalf; ++m) p.add_link(agg(pod, j), core(j * uhalf + m));
    }
  }
  return p;
}

int fattree_arity(const Spec& spec) {
  const int k = detail::bounded(spec.argument, FATTREE_K, spec.text);
  check_fattree(k, spec.text);
  return k;
}

std::vector<NodeOrbit> fattree_orbits(int k) {
  check_fattree(k, fmt::format("fattree:{}", k));
  const auto half = static_cast<std::uint64_t>(k / 2);
  const std::uint64_t hosts = 2 * half * half * half;
  const std::uint64_t edges = 2 * half * half;  // k pods of k/2, as the aggregation switches
  return {{0, hosts}, {hosts, edges}, {hosts + edges, edges}, {hosts + 2 * edges, half * half}};
}

std::string_view arrangement_name(GlobalArrangement arrangement) {
  for (const auto& [a, name] : ARRANGEMENTS) {
    if (a == arrangement) return name;
  }
  return "absolute";
}

std::uint64_t DragonflyShape::groups() const {
  return static_cast<std::uint64_t>(routers) * static_cast<std::uint64_t>(global) + 1;
}

std::uint64_t DragonflyShape::global_peer(std::uint64_t group, std::uint64_t port) const {
  const std::uint64_t g = groups();
  switch (arrangement) {
    case GlobalArrangement::ABSOLUTE: return port < group ? port : port + 1;
    case GlobalArrangement::RELATIVE: return (group + port + 1) % g;
    case GlobalArrangement::CIRCULANT: {
      const std::uint64_t offset = port / 2 + 1;
      return port % 2 == 0 ? (group + offset) % g : (group + g - offset) % g;
    }
  }
  return group;
}

std::uint64_t DragonflyShape::global_port(std::uint64_t group, std::uint64_t other) const {
  const std::uint64_t g = groups();
  switch (arrangement) {
    case GlobalArrangement::ABSOLUTE: return other < group ? other : other - 1;
    case GlobalArrangement::RELATIVE: return (other + g - group - 1) % g;
    case GlobalArrangement::CIRCULANT: {
      const std::uint64_t ahead = (other + g - group) % g;
      // G even: the group G/2 away is reached forward, by the last (even) port, from both sides.
      if (2 * ahead == g) return g - 2;
      return ahead <= (g - 1) / 2 ? 2 * (ahead - 1) : 2 * (g - ahead - 1) + 1;
    }
  }
  return 0;
}

std::string DragonflyShape::spec() const {
  const std::string base = fmt::format("dragonfly:{}:{}:{}", routers, hosts, global);
  return arrangement == GlobalArrangement::ABSOLUTE ? base : fmt::format("{}:{}", base, arrangement_name(arrangement));
}

DragonflyShape dragonfly_shape(const Spec& spec) {
  const auto parts = detail::split_argument(spec, ':', 0, DRAGONFLY_FORM);
  if (parts.size() != 3 && parts.size() != 4) {
    throw TopologyError(fmt::format("topology \"{}\": \"{}\" is not valid (expected {})", spec.text, spec.argument,
                                    DRAGONFLY_FORM));
  }
  DragonflyShape s{detail::bounded(parts[0], DRAGONFLY_A, spec.text), detail::bounded(parts[1], DRAGONFLY_P, spec.text),
                   detail::bounded(parts[2], DRAGONFLY_H, spec.text)};
  if (parts.size() == 4) {
    const auto known = std::find_if(ARRANGEMENTS.begin(), ARRANGEMENTS.end(), [&](const auto& a) { return a.second == parts[3]; });
    if (known == ARRANGEMENTS.end()) {
      throw TopologyError(fmt::format("topology \"{}\": arrangement \"{}\" is not one (expected absolute, relative or "
                                      "circulant, e.g. dragonfly:4:2:2:relative)",
                                      spec.text, parts[3]));
    }
    s.arrangement = known->first;
  }
  (void)dragonfly_size(s, spec.text);
  return s;
}

std::vector<std::string> network_notes(const Spec& spec) {
  if (spec.family == "fattree") {
    return {"fat-tree: every switch has as many links up as down, so any half of the hosts can send to the other half "
            "at full rate (full bisection, Al-Fares et al. 2008); a collective contends only where routes meet"};
  }
  if (spec.family != "dragonfly") return {};
  const DragonflyShape s = dragonfly_shape(spec);
  std::vector<std::string> out;
  out.push_back(s.hosts > s.global
                    ? fmt::format("global links oversubscribed {}:{}: a router's {} hosts share its {} global links, so "
                                  "traffic across groups waits for them",
                                  s.hosts, s.global, s.hosts, s.global)
                    : fmt::format("global links not oversubscribed: a router has {} global links for its {} hosts",
                                  s.global, s.hosts));
  const bool balanced = s.routers == 2 * s.hosts && s.hosts == s.global;
  out.push_back(fmt::format("{} as Kim, Dally, Scott and Abts (ISCA 2008) balance a dragonfly, a = 2p = 2h (here a = {}, "
                            "p = {}, h = {}){}",
                            balanced ? "balanced" : "not balanced", s.routers, s.hosts, s.global,
                            balanced ? "" : fmt::format("; dragonfly:{}:{}:{} is", 2 * s.global, s.global, s.global)));
  out.push_back(fmt::format("global links in the {} arrangement: a group's global ports, router by router, lead to {} "
                            "(docs/topology.md)",
                            arrangement_name(s.arrangement), ARRANGEMENT_ORDER.at(static_cast<std::size_t>(s.arrangement))));
  return out;
}

Platform dragonfly_platform(const DragonflyShape& s) {
  const std::string name = s.spec();
  const DragonflySize size = dragonfly_size(s, name);
  const auto a = static_cast<Platform::vertex_descriptor>(s.routers);
  const auto per_router = static_cast<Platform::vertex_descriptor>(s.hosts);
  const auto h = static_cast<Platform::vertex_descriptor>(s.global);
  const auto groups = static_cast<Platform::vertex_descriptor>(size.groups);
  Platform p(name, /*directed=*/false);
  // Node order: hosts (group, router, host), then routers (group, router).
  for (Platform::vertex_descriptor g = 0; g < groups; ++g) {
    for (Platform::vertex_descriptor r = 0; r < a; ++r) {
      for (Platform::vertex_descriptor i = 0; i < per_router; ++i) p.add_node({fmt::format("h{}_{}_{}", g, r, i), Role::PROCESSOR});
    }
  }
  const auto hosts = static_cast<Platform::vertex_descriptor>(size.hosts);
  for (Platform::vertex_descriptor g = 0; g < groups; ++g) {
    for (Platform::vertex_descriptor r = 0; r < a; ++r) p.add_node({fmt::format("r{}_{}", g, r), Role::ROUTER});
  }
  const auto router = [&](Platform::vertex_descriptor g, Platform::vertex_descriptor r) { return hosts + g * a + r; };
  for (Platform::vertex_descriptor x = 0; x < hosts; ++x) p.add_link(x, hosts + x / per_router);
  for (Platform::vertex_descriptor g = 0; g < groups; ++g) {
    for (Platform::vertex_descriptor r = 0; r < a; ++r) {
      for (Platform::vertex_descriptor q = r + 1; q < a; ++q) p.add_link(router(g, r), router(g, q));
    }
  }
  // Each link once, from its lower group, in port order (so the absolute arrangement adds them as
  // it always has: ports and link names unchanged); the far end is the port that leads back.
  for (Platform::vertex_descriptor g = 0; g < groups; ++g) {
    for (Platform::vertex_descriptor t = 0; t + 1 < groups; ++t) {
      const auto peer = static_cast<Platform::vertex_descriptor>(s.global_peer(g, t));
      if (peer > g) p.add_link(router(g, t / h), router(peer, s.global_port(peer, g) / h));
    }
  }
  return p;
}

}  // namespace starnet::topology
