#pragma once
/// @file
/// Reduce, broadcast and all-reduce among the processors of a topology whose routers only
/// forward: a tree over the processors whose edges are routed paths, timed greedily under the
/// k-port model with every router hop a transfer of its own.
///
/// Problem: a platform's nodes are processors, which hold words and combine them, and routers
/// (topology::Role::ROUTER), which hold no word and forward each message they receive once,
/// unchanged, later (schedule.hpp, "Relays"): no ⊕ and no copy at a router. Plan the collective
/// among the processors (the root a processor) so that every step respects the port model at
/// every node, routers included.
///
/// Method: a processor tree — each processor but the root has a processor parent and a path to it
/// whose inner nodes are routers — from one of two rules:
///   - bfs: the BFS tree of the whole graph from the root (bfs_tree.hpp, FIRST), each processor's
///     parent its nearest processor ancestor, the path the tree's (on a fat-tree every host is
///     then a child of the root: the root's one link carries every message);
///   - binomial: the processors in that BFS order p_0 = root, p_1, …; p_i's parent p_j with j = i
///     less its highest bit (a binomial tree, ⌈log2 P⌉ levels), the path a shortest one (BFS from
///     the parent); not tried where a shortest path passes another processor.
/// Reduce: list scheduling of the messages hop by hop, soonest first (ties: message id): a hop
/// u → w takes the first step ≥ the message's arrival at u in which u has a send and w a receive
/// left (half duplex: sends and receives together at most k) and u sends nothing else to w; a
/// processor's message starts once its children's have all arrived, combined there. Broadcast:
/// the reduce run backwards (step R − 1 − s, every transfer reversed, the root's word replacing
/// acc), which is valid for the same port model since every node's sends and receives of a step
/// swap; all-reduce: the reduce, then that broadcast from step R. routed_tree_schedule keeps the
/// shorter of the two trees' schedules (ties: bfs).
///
/// Paper: the reduction-followed-by-broadcast all-reduce and the single-port model of Oh, Choi,
/// Primeaux 2005 (Section 1), list scheduling (Graham 1966); hosts compute, switches forward as in
/// Al-Fares et al. 2008 and Kim et al. 2008 (topology.md).
///
/// Complexity: O(P·(V + E)) at most for the binomial tree's paths (one BFS per parent, each stopped
/// once it has found the parent's children: far less on a fat-tree, where most children are
/// near), O(H·S) for the timing, H the router hops of all messages and S the steps scanned per
/// hop; memory O(V·steps).
/// IMPORTANT: neither tree is optimal for the processors-only collective; the lower bounds
/// (bounds.hpp, over the processors) say how far a row may be from optimal.

#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

#include <string>
#include <vector>

namespace starnet::algorithms::generic {

/// Which nodes of @p topology are routers (Role::ROUTER of a platform), one flag per node; empty
/// when it has none (every implicit family). O(V).
[[nodiscard]] std::vector<bool> router_flags(const topology::Topology& topology);

struct RoutedPlan {
  Schedule schedule;  ///< its relays are the routers
  std::string variant;  ///< "routed bfs tree", "routed binomial tree"
};

/// The collective among the processors on the processor tree that @p tree contracts to (the
/// "bfs" rule with any spanning tree, e.g. shortest_path_tree()).
/// @pre @p relays has one flag per node, the root is not a relay, every link has its reverse.
/// @throws ScheduleError naming the topology for a collective other than allreduce, reduce or
/// broadcast.
[[nodiscard]] RoutedPlan routed_tree_schedule(const topology::Topology& topology, const SpanningTree& tree,
                                              const std::vector<bool>& relays, Collective collective,
                                              const emulator::PortModel& ports);

/// The shorter of the bfs and binomial rules' schedules (file comment).
/// @pre as above, and every node reachable from @p root. @throws ScheduleError as above.
///
/// @code
///   const auto relays = router_flags(platform);
///   const auto plan = routed_tree_schedule(platform, /*root=*/0, relays, Collective::ALLREDUCE, {});
///   plan.schedule.steps();
/// @endcode
[[nodiscard]] RoutedPlan routed_tree_schedule(const topology::Topology& topology, NodeId root,
                                              const std::vector<bool>& relays, Collective collective,
                                              const emulator::PortModel& ports);

}  // namespace starnet::algorithms::generic
