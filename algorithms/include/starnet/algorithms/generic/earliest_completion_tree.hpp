#pragma once
/// @file
/// A spanning tree that weighs link costs together with the port model: grown from the root by
/// the earliest-completing link first (the ECEF heuristic of Bhat, Raghavendra and Prasanna,
/// "Efficient collective communication in distributed heterogeneous systems", ICDCS 1999), on
/// which the word collectives run as on the BFS tree (bfs_tree.hpp: tree_schedule()).
///
/// Problem: the shortest-path tree (shortest_path_tree.hpp) hangs every node on a cheapest path
/// from the root, however many children that gives a node; with k ports a node serves its
/// children k at a time, so a root with many cheap direct links makes them wait, where a child it
/// has already served could relay at once. Here the broadcast is timed while the tree is grown:
/// each node holds the word from a time and has k ports, each busy until the end of its last
/// send; the next node to join is the one whose link from a holder would finish first (a holder's
/// earliest free port + latency + cost of the link, a one-unit message as for the shortest-path
/// tree), and that port is busy until then. A reduce runs the same tree, its times mirrored.
///
/// Complexity: O(E log E) with exact rational weights (each holder's links sorted once, one heap
/// entry per holder, stale entries skipped); O(E + V log V) time and O(V) memory on equal links.
/// IMPORTANT: a greedy, not an optimum (a minimum-time broadcast is NP-hard); whatif runs it beside
/// the shortest-path tree and keeps the faster run (docs/whatif.md).

#include <starnet/algorithms/generic/bfs_tree.hpp>

namespace starnet::algorithms::generic {

/// The earliest-completion tree of @p root with @p ports sends per node at once (file comment);
/// ties go to the lower holder id, then the lower node id (with @p equal_links, the lower port).
/// `order` lists the nodes by depth, parents before children.
/// @pre every link of @p topology has its reverse, of the same cost; every cost and latency ≥ 0;
/// ports ≥ 1. @p equal_links: the caller knows every link to cost the same (a network's routes,
/// Subnetwork::uniform_by_construction()), so port order is the order of weight and no node's
/// links are sorted or held (fattree:28's hosts: 30 million routes).
/// @throws ScheduleError naming the topology and a node when some node is not reachable from @p root.
[[nodiscard]] SpanningTree earliest_completion_tree(const topology::Topology& topology, NodeId root, unsigned ports,
                                                    bool equal_links = false);

}  // namespace starnet::algorithms::generic
