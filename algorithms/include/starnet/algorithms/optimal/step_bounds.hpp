#pragma once
/// @file
/// Named lower bounds on the steps of gossip (= all-gather = all-reduce with messages that carry
/// several values) and of broadcast from a root, in the emulator's port model (docs/optimal.md,
/// "Bounds"). Each is a proof that no schedule is shorter; `starnet optimal`
/// prints them beside the proven optimum, and the tests check that none exceeds it.
///
/// - distance: the diameter (gossip) or the root's eccentricity (broadcast): an item moves one
///   link per step.
/// - counting ⌈log_{k+1} N⌉, +1 for single-port half-duplex gossip (generic/bounds.hpp): the
///   informed (or depended-on) sets grow at most (k+1)-fold per step.
/// - degree-limited counting (Bermond, Hell, Liestman, Peters 1992): in a graph of maximum degree d,
///   a node sends at most k messages per step and, over the whole broadcast, at most d of them
///   (d − 1 for a node that was informed over one of its links, when every link goes both ways:
///   the arc back to its informer is of no use; on a directed graph, where the arc that brought
///   the item need not have a reverse, d out-arcs stay useful); the most nodes informed after t
///   steps, I(t), follows by counting, and T ≥ min{t : I(t) ≥ N}. Gossip includes a broadcast from
///   every node, so the bound holds for it too. d is the largest out-degree.
/// - Fibonacci ⌈log_φ N⌉ for single-port half-duplex gossip (Krumme, Cybenko, Venkataraman 1992).
///
/// Complexity: distance O(V + E) (one BFS, or all pairs when not vertex-transitive); the others
/// O(T·d). IMPORTANT: the caller vouches for vertex-transitivity when asking for the diameter.

#include <starnet/emulator/config.hpp>
#include <starnet/algorithms/optimal/optimal_result.hpp>
#include <starnet/topology/topology.hpp>

#include <starnet/algorithms/collective.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

enum class Goal : std::uint8_t { GOSSIP, BROADCAST };

/// The search a collective asks for when a message may carry several values: allgather and
/// allreduce are gossip; broadcast, and reduce (a broadcast reversed on links that go both ways),
/// are broadcast. @throws UsageError about setting "collective" for the others.
[[nodiscard]] Goal goal_of(Collective c);
/// The collective the built-in algorithms compute for @p g: allreduce (their word plans) or
/// broadcast.
[[nodiscard]] Collective builtin_collective(Goal g);

/// Every bound that applies. @param root used for broadcast.
/// @param vertex_transitive lets the diameter come from one BFS.
[[nodiscard]] std::vector<NamedBound> step_bounds(const topology::Topology& topology, Goal goal, topology::NodeId root,
                                                  const emulator::PortModel& ports, bool vertex_transitive);

/// Whether the arcs of a degree-limited count come in pairs: on a directed graph an informed node
/// may still send on all its out-arcs.
enum class ArcsBack : std::uint8_t {
  EVERY_ARC,  ///< every arc u→v has v→u: a node informed over a link has d − 1 useful sends left
  NOT_EVERY   ///< some arc lacks its reverse: every node has d
};

/// The most nodes a broadcast informs in @p steps when each node sends at most @p k messages per
/// step over at most @p degree out-arcs, the root d and every other node d − 1 or d as @p back
/// says (the degree-limited counting bound's I(t)); saturates at 2^62. O(steps·degree).
[[nodiscard]] std::uint64_t degree_limited_informed(std::uint64_t steps, unsigned k, std::uint64_t degree,
                                                    ArcsBack back);

/// EVERY_ARC when every arc of @p topology has its reverse. O(E) port look-ups.
[[nodiscard]] ArcsBack arcs_back(const topology::Topology& topology);

}  // namespace starnet::algorithms::optimal
