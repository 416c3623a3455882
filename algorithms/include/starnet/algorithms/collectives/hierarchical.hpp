#pragma once
/// @file
/// The hierarchical all-reduce among the hosts of a network of switches: one level of the network
/// after the other, as the network's links are arranged (docs/whatif.md, "The network model").
///
/// Problem: all-reduce among the H hosts of a fat-tree or a dragonfly, each host a rank placed on it
/// (topology/network.hpp), messages routed by the network; the levels, outermost first: a
/// fat-tree's pods, edge switches of a pod and hosts of an edge switch; a dragonfly's groups,
/// routers of a group and hosts of a router.
///
/// Method: the hosts as the Cartesian product of complete graphs, one a level, the innermost level
/// most significant; dimension_ordered.hpp's schedules on it. With a vector of H units at least,
/// the split form: the reduce-scatter the innermost level first, then the all-gather the outermost
/// level first, so that the blocks that cross the scarcest links (across pods, across groups) are
/// the smallest: each host sends 2(G − 1)/H of the vector across the outermost level of G members
/// and 2(H − 1)/H in all, as the flat split all-reduces (split_allreduce.hpp). Otherwise the word
/// form: each level's fewest-step all-reduce, one level after the other. Each host of the product
/// is then relabelled as the rank the placement put on it, so the phases follow the network under
/// any placement. Two-level versions are the classic topology-aware all-reduces (e.g. Sack, Gropp,
/// "Faster topology-aware collective algorithms through non-minimal communication", PPoPP 2012);
/// this one takes all of the network's levels.
///
/// Complexity: dimension_ordered.hpp's, on the product (H·Σ(L_k − 1)/2 links), then O(transfers)
/// for the relabelling.
/// IMPORTANT: an all-reduce only: every node holds every chunk of an all-reduce, so relabelling its
/// nodes keeps it one; an all-gather's blocks would need relabelling too.

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/topology/network.hpp>

namespace starnet::algorithms::collectives {

/// The hierarchical all-reduce (file comment) among the ranks of @p hosts under @p ports: the
/// split form when @p split (a chunk a rank), the word form otherwise. `variant` names the levels
/// and each level's algorithm, e.g. "4 hosts, 4 switches, 8 pods: recursive-halving 2 + …".
/// @throws ScheduleError when @p hosts has fewer than two levels of more than one member.
[[nodiscard]] Built hierarchical_allreduce(const topology::HostNetwork& hosts, bool split,
                                           const emulator::PortModel& ports);

}  // namespace starnet::algorithms::collectives
