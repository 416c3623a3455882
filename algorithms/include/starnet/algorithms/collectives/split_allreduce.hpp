#pragma once
/// @file
/// The bandwidth-optimal all-reduce of an M-unit vector: split into N blocks of M/N, a
/// reduce-scatter leaves block c reduced at node c, an all-gather brings every block to every node.
///
/// Problem: all-reduce of a vector of M units at each of N nodes under the α–β model, where a
/// message of b blocks takes α + b·(M/N)/β on a link.
///
/// Methods (the chunk schedule has N chunks a node, each a block of M/N: schedule/collective.hpp):
///   - ring (`ring-split`; ring:N, torus:AxBx…): the ring reduce-scatter then the ring all-gather
///     (block_collectives.hpp), 2(N − 1) steps of one block on a ring, 2(N−1)/N·M units sent by
///     each node — the bandwidth term of the bound (Patarasuk, Yuan, "Bandwidth optimal all-reduce
///     algorithms for clusters of workstations", JPDC 69(2), 2009);
///   - recursive halving then doubling (`rabenseifner`; 2^d nodes: hypercube:D, complete graphs):
///     2d steps, messages of N/2, N/4, …, 1 blocks then back, 2(N−1)/N·M units sent (Thakur,
///     Rabenseifner, Gropp, "Optimization of collective communication operations in MPICH",
///     IJHPCA 19(1), 2005, Section 4.4).
/// Both take more steps than the word algorithms (ring:16: 30 against 15; hypercube:4: 8 against
/// 4) and win when M/β outweighs α·steps.
///
/// Complexity: O(N²) items (2(N − 1) blocks per node).
/// IMPORTANT: the halves come from the catalogue's reduce-scatter and all-gather; that the
/// composition fits the port model is what a strict run checks.

#include <starnet/algorithms/collectives/catalogue.hpp>

namespace starnet::algorithms::collectives {

/// The split all-reduce of @p a (RING_SPLIT or RABENSEIFNER) on @p topology named @p spec, under
/// @p ports: an ALLREDUCE schedule of N chunks.
/// @throws ScheduleError naming @p spec when the halves do not apply (catalogue why_not()) or for
/// another algorithm.
[[nodiscard]] Built split_allreduce(Algorithm a, const topology::Topology& topology, std::string_view spec,
                                    const emulator::PortModel& ports);

}  // namespace starnet::algorithms::collectives
