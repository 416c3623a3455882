#pragma once
/// @file
/// A spanning tree that weighs link costs: the shortest-path tree of the root (Dijkstra, "A note on
/// two problems in connexion with graphs", Numerische Mathematik 1, 1959), on which the word
/// collectives run as on the BFS tree (bfs_tree.hpp: tree_schedule()).
///
/// Problem: in a timed run a link takes latency + size·cost (emulator/costs.hpp); a BFS tree
/// counts hops, so on a platform whose few-hop paths are slow it routes every word through them.
/// Here each node hangs below the neighbour on one of its cheapest paths from the root, a path's
/// cost being the sum of latency + cost of its links (a one-unit message), so that the root's
/// weighted eccentricity in the tree is its weighted eccentricity in the topology: a reduce or a
/// broadcast waits for no path longer than it must.
///
/// Complexity: O((V + E) log V) with exact rational weights.
/// IMPORTANT: it minimises path costs from the root, not the makespan: a node with many children
/// still takes them one port at a time (the greedy timing of tree_schedule() orders them).

#include <starnet/algorithms/generic/bfs_tree.hpp>

namespace starnet::algorithms::generic {

/// The shortest-path tree of @p root (file comment); ties go to the lower parent id. `order` lists
/// the nodes by depth in hops, then by cost from the root, so that parents come before children.
/// @pre every link of @p topology has its reverse; every cost and latency ≥ 0.
/// @throws ScheduleError naming the topology and a node when some node is not reachable from @p root.
[[nodiscard]] SpanningTree shortest_path_tree(const topology::Topology& topology, NodeId root);

}  // namespace starnet::algorithms::generic
