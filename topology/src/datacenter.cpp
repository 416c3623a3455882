// Data-centre networks with routers: the k-ary fat-tree and the dragonfly (families.hpp).
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include "family_bounds.hpp"

#include <fmt/format.h>

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

DragonflyShape dragonfly_shape(const Spec& spec) {
  const auto parts = detail::split_argument(
      spec, ':', 3,
      "dragonfly:A:P:H: A routers per group, P hosts per router, H global links per router, e.g. dragonfly:4:2:2");
  const DragonflyShape s{detail::bounded(parts[0], DRAGONFLY_A, spec.text), detail::bounded(parts[1], DRAGONFLY_P, spec.text),
                         detail::bounded(parts[2], DRAGONFLY_H, spec.text)};
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
  out.push_back("global links in the absolute arrangement: a group's global ports, router by router, lead to the "
                "other groups in increasing order (docs/topology.md)");
  return out;
}

Platform dragonfly_platform(const DragonflyShape& s) {
  const std::string name = fmt::format("dragonfly:{}:{}:{}", s.routers, s.hosts, s.global);
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
  // The absolute arrangement: global port t = r·H + j of group G (router r, its j-th global link)
  // leads to the t-th other group, i.e. group t if t < G and t + 1 otherwise. Seen from group
  // T > G, G is its G-th other group: the link lands on router ⌊G/H⌋ of T.
  for (Platform::vertex_descriptor g = 0; g < groups; ++g) {
    for (Platform::vertex_descriptor t = g; t + 1 < groups; ++t) p.add_link(router(g, t / h), router(t + 1, g / h));
  }
  return p;
}

}  // namespace starnet::topology
