#pragma once
/// @file
/// Reduce, broadcast and all-reduce (reduce, then broadcast) over a breadth-first spanning tree
/// of any topology, scheduled greedily under the k-port model.
///
/// Problem: given a connected topology with symmetric links, a root r and k ports, plan a
/// collective (schedule.hpp) on a BFS tree T of r so that in every step each node receives at
/// most k messages and sends at most k: every step is a (k-)matching valid for the port model.
///
/// Method (plan computed centrally, then executed by the node programs of schedule.hpp):
///   - Tree: BFS from r; a node's parent is a neighbour one level up, chosen by a ParentRule:
///     FIRST (the first one the search reaches it from: on Q_d from 0 in port order, the binomial
///     tree) or EARLIEST_SLOT (level by level from the deepest, each node in order of readiness
///     joins the candidate that could receive its word earliest under k ports: the reduce greedy
///     below, run while the tree is chosen). bfs_tree_schedule() plans both and keeps the shorter
///     schedule (ties: FIRST).
///   - Reduce (bottom-up): a node is ready once all its children's words have arrived (a leaf at
///     step 0). A parent takes its children in order of readiness, each in the first step ≥ its
///     ready time with fewer than k transfers into the parent: list scheduling of unit jobs with
///     release times on k machines, optimal for the tree (the earliest-release-first exchange
///     argument). The root holds the total at R = its ready time.
///   - Broadcast (top-down, from step S = 0, or S = R after a reduce): b(v) = steps v's subtree
///     needs once v holds the word: children sorted by decreasing b, child i sent at offset ⌊i/k⌋,
///     b(v) = max_i ⌊i/k⌋ + 1 + b(c_i) (optimal for the tree: the longest subtrees first).
///   A node's send in the reduce follows all its receives, and in the broadcast its receive
///   precedes all its sends, so no node ever sends and receives in the same step: the schedules
///   are valid in half duplex as in full duplex, with k transfers per step in either.
///
/// Paper: the single-port model and "reduction followed by a broadcast" all-reduce of Oh, Choi,
/// Primeaux 2005 (Section 1, Section 5, the baseline of Table 2); BFS and list scheduling are
/// textbook (Cormen et al.; Graham 1966).
///
/// Complexity: O(V log V + E) per tree and schedule; V − 1 transfers for reduce or broadcast,
/// 2(V − 1) for all-reduce.
/// IMPORTANT: the greedy is optimal for the tree it is given, not over all spanning trees; the
/// lower bounds (bounds.hpp) say how far a row may be from optimal.

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::algorithms::generic {

enum class ParentRule : std::uint8_t { FIRST, EARLIEST_SLOT };
/// "first-parent", "earliest-slot".
[[nodiscard]] std::string to_string(ParentRule rule);

/// A rooted spanning tree: parent[root] = root.
struct SpanningTree {
  NodeId root = 0;
  std::vector<NodeId> parent;
  std::vector<std::uint32_t> depth;
  std::vector<NodeId> order;  ///< nodes in BFS order (root first)
};

/// The BFS tree of @p root under @p rule (EARLIEST_SLOT: for @p ports receives per step).
/// @pre every link of @p topology has its reverse (Subnetwork::symmetric(); a send along a missing
/// reverse would be a ModelViolation when the schedule runs).
/// @throws ScheduleError naming the topology and a node when some node is not reachable from the
/// root (build a Subnetwork first).
[[nodiscard]] SpanningTree bfs_tree(const topology::Topology& topology, NodeId root, ParentRule rule,
                                    unsigned ports = 1);

/// The greedy schedule of @p collective on @p tree with @p ports transfers per node and step.
/// @pre ports ≥ 1.
[[nodiscard]] Schedule tree_schedule(const SpanningTree& tree, Collective collective, unsigned ports);

struct TreeSchedule {
  Schedule schedule;
  ParentRule rule = ParentRule::FIRST;  ///< the tree it runs on
};

/// The shorter of the FIRST and EARLIEST_SLOT tree schedules (ties: FIRST).
/// @pre as bfs_tree(). @throws ScheduleError as bfs_tree().
///
/// @code
///   const Subnetwork net(base, faults, root, {});
///   const auto plan = bfs_tree_schedule(net, net.root(), Collective::ALLREDUCE, /*ports=*/1);
///   plan.schedule.steps();
/// @endcode
[[nodiscard]] TreeSchedule bfs_tree_schedule(const topology::Topology& topology, NodeId root, Collective collective,
                                             unsigned ports);

}  // namespace starnet::algorithms::generic
