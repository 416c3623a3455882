#pragma once
// The brute-force oracle of the optimal search's tests (optimal_search_test.cpp,
// step_bounds_test.cpp): the fewest steps of gossip or broadcast, found without SAT; and the small
// directed graphs both run it on.

#include <starnet/algorithms/optimal/step_bounds.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/platform.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace starnet::algorithms::optimal {

/// The fewest steps by breadth-first search over knowledge states, trying every set of transfers
/// the port model allows at each step (gossip: N ≤ 6; knowledge as N·N bits).
inline std::uint64_t brute_force_steps(const topology::Topology& t, Goal goal, topology::NodeId root,
                                       const emulator::PortModel& ports) {
  const topology::NodeId n = t.num_nodes();
  const topology::NodeId items = goal == Goal::GOSSIP ? n : 1;
  std::vector<std::pair<topology::NodeId, topology::NodeId>> arcs;
  for (topology::NodeId v = 0; v < n; ++v) {
    for (topology::Port p = 0; p < t.degree(v); ++p) arcs.emplace_back(v, t.neighbor(v, p));
  }
  using State = std::uint64_t;  // bit v·items + u: v knows u
  State start = 0;
  for (topology::NodeId v = 0; v < n; ++v) {
    if (goal == Goal::GOSSIP) start |= State{1} << (v * items + v);
  }
  if (goal == Goal::BROADCAST) start |= State{1} << root;
  const State full = (n * items == 64) ? ~State{0} : (State{1} << (n * items)) - 1;
  std::set<State> seen{start};
  std::vector<State> frontier{start};
  for (std::uint64_t steps = 0;; ++steps) {
    for (const State s : frontier) {
      if (s == full) return steps;
    }
    std::vector<State> next;
    for (const State s : frontier) {
      // Every subset of arcs within the port model, by recursion over arcs.
      std::vector<unsigned> sends(n, 0), receives(n, 0);
      std::vector<char> used(arcs.size(), 0);
      const std::function<void(std::size_t)> pick = [&](std::size_t i) {
        if (i == arcs.size()) {
          State after = s;
          for (std::size_t a = 0; a < arcs.size(); ++a) {
            if (!used[a]) continue;
            const auto [x, y] = arcs[a];
            for (topology::NodeId u = 0; u < items; ++u) {
              if (s >> (x * items + u) & 1) after |= State{1} << (y * items + u);
            }
          }
          if (seen.insert(after).second) next.push_back(after);
          return;
        }
        pick(i + 1);
        const auto [x, y] = arcs[i];
        const bool fits = ports.half_duplex ? sends[x] + receives[x] < ports.ports && sends[y] + receives[y] < ports.ports
                                            : sends[x] < ports.ports && receives[y] < ports.ports;
        if (!fits) return;
        used[i] = 1, ++sends[x], ++receives[y];
        pick(i + 1);
        used[i] = 0, --sends[x], --receives[y];
      };
      pick(0);
    }
    frontier = std::move(next);
  }
}

/// A platform of @p n processors named v0, v1, … with the given one-way arcs of cost 1.
inline std::shared_ptr<const topology::Topology> digraph(
    const std::string& name, topology::NodeId n, const std::vector<std::pair<topology::NodeId, topology::NodeId>>& arcs) {
  topology::Platform p(name, /*directed=*/true);
  for (topology::NodeId v = 0; v < n; ++v) p.add_node({"v" + std::to_string(v)});
  for (const auto& [u, v] : arcs) p.add_link(u, v);
  return std::make_shared<topology::PlatformTopology>(std::move(p));
}

inline std::shared_ptr<const topology::Topology> directed_cycle(topology::NodeId n) {
  std::vector<std::pair<topology::NodeId, topology::NodeId>> arcs;
  for (topology::NodeId v = 0; v < n; ++v) arcs.emplace_back(v, (v + 1) % n);
  return digraph("directed cycle " + std::to_string(n), n, arcs);
}

/// Directed graphs in which every node reaches every other: cycles, a cycle with one-way chords,
/// a bidirectional ring with one link made one-way, and a directed platform file.
inline std::vector<std::shared_ptr<const topology::Topology>> directed_family() {
  std::vector<std::shared_ptr<const topology::Topology>> out;
  for (topology::NodeId n = 3; n <= 6; ++n) out.push_back(directed_cycle(n));
  out.push_back(digraph("cycle with chords", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 2}, {0, 3}, {2, 4}}));
  out.push_back(digraph("ring with one one-way link", 5,
                        {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}, {3, 4}, {4, 3}, {4, 0}}));
  const auto file = std::filesystem::temp_directory_path() / ("starnet_c5_" + std::to_string(::getpid()) + ".dot");
  std::ofstream(file) << "digraph c5 { node [role=processor]; a; b; c; d; e; a -> b; b -> c; c -> d; d -> e; "
                         "e -> a; a -> c; }\n";
  out.push_back(topology::make_topology(file.string()));
  std::filesystem::remove(file);
  return out;
}

}  // namespace starnet::algorithms::optimal
