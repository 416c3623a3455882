#pragma once
// Platforms for the steady-state tests and benchmarks, built with the Platform API: the paper's
// examples, seeded random small platforms, and Tiers-like platforms in the spirit of Figure 9.

#include <starnet/topology/platform.hpp>
#include <starnet/core/rational.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state::testing {

using topology::LinkProperties;
using topology::NodeProperties;
using topology::Platform;
using topology::Role;

inline Platform::vertex_descriptor add_processor(Platform& p, const std::string& name, Rational speed = 1) {
  return p.add_node(NodeProperties{name, Role::PROCESSOR, speed, ""});
}

inline Platform::vertex_descriptor add_router(Platform& p, const std::string& name) {
  return p.add_node(NodeProperties{name, Role::ROUTER, 1, ""});
}

inline void link(Platform& p, const std::string& from, const std::string& to, Rational cost) {
  p.add_link(p.at(from, "test"), p.at(to, "test"), LinkProperties{cost, 0});
}

/// Figure 2(a) as read from Figures 2–3: Ps→Pa 1, Ps→Pb 1, Pa→P0 2/3, Pb→P0 4/3, Pa→P1 4/3.
inline Platform figure2_platform() {
  Platform p("figure2");
  for (const char* name : {"Ps", "Pa", "Pb", "P0", "P1"}) add_processor(p, name);
  link(p, "Ps", "Pa", 1);
  link(p, "Ps", "Pb", 1);
  link(p, "Pa", "P0", Rational(2, 3));
  link(p, "Pb", "P0", Rational(4, 3));
  link(p, "Pa", "P1", Rational(4, 3));
  return p;
}

/// Figure 6(a): P0, P1, P2 fully connected, every link cost 1; a task takes 1 on P1 and P2 and
/// 1/2 on P0 (speed 2).
inline Platform figure6_platform() {
  Platform p("figure6");
  add_processor(p, "P0", 2);
  add_processor(p, "P1", 1);
  add_processor(p, "P2", 1);
  for (const char* a : {"P0", "P1", "P2"}) {
    for (const char* b : {"P0", "P1", "P2"}) {
      if (std::string(a) != b) link(p, a, b, 1);
    }
  }
  return p;
}

/// A source "S" with one arc to each of `targets` targets "T0"…, costs drawn in {1/3, …, 7/2}.
inline Platform star_platform(std::uint64_t seed, int targets) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> num(1, 7);
  std::uniform_int_distribution<int> den(1, 3);
  Platform p(fmt::format("star-source:{}", seed));
  add_processor(p, "S");
  for (int t = 0; t < targets; ++t) {
    add_processor(p, fmt::format("T{}", t));
    link(p, "S", fmt::format("T{}", t), Rational(num(rng), den(rng)));
  }
  return p;
}

/// A random directed platform on `nodes` nodes "N0"… (N0 … N{processors-1} processors, the rest
/// routers), strongly connected by a random cycle, plus `extra` random arcs; rational costs and
/// speeds.
inline Platform random_platform(std::uint64_t seed, int nodes, int processors, int extra) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> num(1, 6);
  std::uniform_int_distribution<int> den(1, 3);
  std::uniform_int_distribution<int> pick(0, nodes - 1);
  Platform p(fmt::format("random:{}", seed));
  for (int v = 0; v < nodes; ++v) {
    if (v < processors) {
      add_processor(p, fmt::format("N{}", v), Rational(num(rng), den(rng)));
    } else {
      add_router(p, fmt::format("N{}", v));
    }
  }
  std::vector<int> order(static_cast<std::size_t>(nodes));
  for (int v = 0; v < nodes; ++v) order[static_cast<std::size_t>(v)] = v;
  std::shuffle(order.begin(), order.end(), rng);
  const auto add = [&](int a, int b) {
    if (a == b || boost::edge(static_cast<std::size_t>(a), static_cast<std::size_t>(b), p.graph()).second) return;
    p.add_link(static_cast<std::size_t>(a), static_cast<std::size_t>(b), LinkProperties{Rational(num(rng), den(rng)), 0});
  };
  for (int k = 0; k < nodes; ++k) add(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>((k + 1) % nodes)]);
  for (int k = 0; k < extra; ++k) add(pick(rng), pick(rng));
  return p;
}

/// A Tiers-like platform (Figure 9) with a chosen number of processors — tiers:SEED of
/// families.hpp has 6 to 10, too few for the 16- and 32-participant benchmarks: a ring of WAN routers, one MAN router per LAN hanging from a
/// WAN router (plus a few MAN–MAN shortcuts), LANs of two or three processors chained to their
/// MAN router. Undirected. Like Section 4.7, a link's cost is the time of one message of size 10
/// at bandwidth 100–300 (WAN/MAN) or 1000 (LAN), and a processor's speed is in 15–95 (a task of
/// work 10 then takes 10/speed). Processors are "P0"…; `processors` of them.
inline Platform tiers_like(std::uint64_t seed, int processors) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> bandwidth(100, 300);
  std::uniform_int_distribution<int> speed(15, 95);
  Platform p(fmt::format("tiers-like:{}:{}", seed, processors), /*directed=*/false);
  const int lans = (processors + 1) / 2;
  const int wans = std::max(2, (lans + 2) / 3);
  const auto slow = [&] { return Rational(10, bandwidth(rng)); };
  for (int w = 0; w < wans; ++w) add_router(p, fmt::format("W{}", w));
  for (int w = 0; w < wans && wans > 2; ++w) link(p, fmt::format("W{}", w), fmt::format("W{}", (w + 1) % wans), slow());
  if (wans == 2) link(p, "W0", "W1", slow());
  int next = 0;
  for (int l = 0; l < lans; ++l) {
    const std::string man = fmt::format("M{}", l);
    add_router(p, man);
    link(p, man, fmt::format("W{}", std::uniform_int_distribution<int>(0, wans - 1)(rng)), slow());
    if (l >= 2 && l % 2 == 0) link(p, man, fmt::format("M{}", std::uniform_int_distribution<int>(0, l - 1)(rng)), slow());
    std::string previous = man;
    const int size = std::min(processors - next, l + 1 == lans ? processors - next : 2);
    for (int k = 0; k < size; ++k, ++next) {
      const std::string name = fmt::format("P{}", next);
      add_processor(p, name, speed(rng));
      link(p, previous, name, Rational(10, 1000));
      previous = name;
    }
  }
  return p;
}

inline std::vector<std::string> names(const std::string& prefix, int first, int count) {
  std::vector<std::string> out;
  for (int k = 0; k < count; ++k) out.push_back(fmt::format("{}{}", prefix, first + k));
  return out;
}

}  // namespace starnet::algorithms::steady_state::testing
