#pragma once
/// @file
/// The bisection width of a topology: the fewest links whose loss splits its processors into two
/// halves (⌊P/2⌋ and ⌈P/2⌉; routers may sit on either side), what bounds any collective that must
/// move data across the middle (`starnet topo info`, docs/topology.md "Bisection").
///
/// Exact by formula where one is known, each with its argument or reference:
///   - hypercube:D: 2^(D−1) (Leighton, "Introduction to Parallel Algorithms and Architectures",
///     1992, §3.1: a cut along one dimension, and the cube's edge expansion);
///   - ring:N: 2 (N ≥ 3), 1 for N = 2; complete:N: ⌊N/2⌋·⌈N/2⌉ (every cross pair is a link);
///   - torus and mesh of equal even sides k, n dimensions: 2·k^(n−1) and k^(n−1) (Dally and Towles,
///     "Principles and Practices of Interconnection Networks", 2004, §3.3);
///   - fattree:K: K³/8, half the hosts (Al-Fares, Loukissas, Vahdat, SIGCOMM 2008: full bisection).
/// An upper bound, said to be one, from a cut named for the family elsewhere: tori and meshes of
/// other sides (a cut across the longest dimension), dragonflies (the global links between two
/// halves of the groups, and a split group's local links when their number is odd, in the absolute
/// and relative arrangements), star graphs
/// (the sub-stars by last symbol split in two halves: (n!/2)·⌊n/2⌋/(n − 1) links, rounded as the
/// symbols split). Other topologies: none here; partition.hpp bounds any topology from its graph
/// (a balanced partition by METIS), which `topo info` (api/topology.hpp) gives where this file
/// knows nothing.
///
/// Complexity: O(1) per formula.
/// IMPORTANT: a link counts once however many arcs it has (undirected families only).

#include <starnet/topology/spec.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::topology {

struct Bisection {
  std::uint64_t links = 0;
  /// True: the width itself; false: an upper bound (a cut that achieves it).
  bool exact = true;
  /// The formula and where it comes from, or the cut that gives the upper bound.
  std::string argument;
};

/// The bisection width of the topology @p spec names, where this file knows one (file comment).
/// @throws TopologyError as parse_spec() and the families' checks.
[[nodiscard]] std::optional<Bisection> bisection_width(std::string_view spec);

}  // namespace starnet::topology
