#pragma once
/// @file
/// The blocked collectives (all-gather, reduce-scatter, gather, scatter, all-to-all) written as
/// chunk schedules with one chunk per block (schedule/collective.hpp: C = N, k = 1), by the classic
/// algorithms of MPI libraries and by spanning trees of any topology (docs/collectives.md).
///
/// Problem: on N nodes under the single-port (k-port) model, node v holds block v (all-gather,
/// gather), or all N blocks (reduce-scatter, scatter's root, all-to-all), and the collective of
/// schedule/collective.hpp must hold at the end; a packet is one block, a message carries several.
///
/// Methods (N nodes, single port, full duplex unless said; "volume": blocks the busiest node sends):
///   - ring all-gather (ring:N, torus:AxB): in each ring of L nodes, L − 1 rounds in which every node
///     passes to its successor the group it received last (its own first); a torus runs its rows,
///     then its columns with whole rows as groups: A + B − 2 steps, volume N − 1. Bidirectional
///     (two ports, generic/ring.hpp's variant): each node also passes groups to its predecessor,
///     ⌈(L−1)/2⌉ rounds to the right and ⌊(L−1)/2⌋ to the left, ⌈(L−1)/2⌉ steps a ring (8 on
///     ring:16), volume N − 1 still, split between two links.
///   - recursive-doubling all-gather (2^d nodes, x linked to x ⊕ 2^i: Q_d, K_{2^d}): at step i node
///     x sends the 2^i blocks of its aligned group to x ⊕ 2^i: d steps, volume N − 1 (Thakur,
///     Rabenseifner, Gropp, IJHPCA 19(1), 2005, Section 4.1).
///   - tree (any connected topology with two-way links): the BFS tree and greedy timing of
///     generic/bfs_tree.hpp. Gather sends each subtree's blocks up along the reduce's transfers,
///     scatter sends them down along the broadcast's; all-gather sends subtree(v) up and the
///     complement of subtree(v) down along the all-reduce's transfers (no block received twice);
///     all-to-all sends up the packets (u, d) with u inside subtree(v) and d outside, and down the
///     packets with u outside subtree(c) and d inside (every node keeps packets in transit in
///     scratch chunks, its own moved there at step 0).
///   - routed tree (a platform whose routers only forward): the same blocks among the processors
///     alone, on generic/routed_tree.hpp's processor tree, each message copied hop by hop through
///     the routers into the same chunks (gather, scatter, all-gather); reduce-scatter is that
///     all-gather run backwards as reverse_allgather() does, a router copying each message into
///     scratch chunks of its own (one per message and block: two partial sums of one block may
///     pass a router at once) and sending it on unchanged; all-to-all is the tree's, on the
///     routed all-reduce's transfers, every node (routers too) keeping packets in transit in
///     scratch chunks, up to MAX_TREE_ALLTOALL_NODES processors.
///   - reverse_allgather(): an all-gather in which no node receives a block twice, run backwards
///     (step T − 1 − t, every transfer reversed, every copy a reduction) is a reduce-scatter: the
///     transfers carrying block c form a tree into node c whose edges go up in time, so that each
///     node's share of block c joins it exactly once. Recursive halving is recursive doubling so
///     reversed; the reduce-scatters of ring, Bruck, star and uniform schedules likewise.
///
/// Complexity: O(items) time and memory to build, items = Σ over transfers of the blocks carried:
/// N·volume at most for the rings and recursive doubling; O(N²·depth) for the trees (all-to-all:
/// up to N²/4 scratch chunks per node, built up to MAX_TREE_ALLTOALL_NODES nodes).
/// IMPORTANT: the builders check the links they use, not the port model; a run on the emulator in
/// strict mode certifies the schedule (the catalogue's tests run every one).

#include <starnet/algorithms/collective.hpp>
#include <starnet/algorithms/generic/bfs_tree.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starnet::algorithms::collectives {

using topology::NodeId;

/// Most nodes of a tree all-to-all: its nodes keep up to N²/4 packets in transit (1,024 MB of
/// chunk slots at 1,024 nodes, 37 MB here).
inline constexpr NodeId MAX_TREE_ALLTOALL_NODES = 128;

/// The ring all-gather over @p phases (generic::torus_rings / spec_rings: phase after phase, each
/// ring as node ids in ring order); @p bidirectional: groups travel both ways (two sends a node and
/// step: generic::RingVariant::BIDIRECTIONAL).
/// @throws ScheduleError naming the topology when two consecutive nodes of a ring are not linked or
/// a phase does not cover every node exactly once.
[[nodiscard]] schedule::Schedule ring_allgather(const topology::Topology& topology,
                                                const std::vector<std::vector<std::vector<NodeId>>>& phases,
                                                bool bidirectional = false);

/// The recursive-doubling all-gather on 2^d nodes.
/// @throws ScheduleError naming the topology when N is not a power of two or a link x — x ⊕ 2^i is
/// missing.
[[nodiscard]] schedule::Schedule recursive_doubling_allgather(const topology::Topology& topology);

/// The tree schedule of a gather, scatter, all-gather or all-to-all rooted at @p root, with @p ports
/// transfers per node and step (the file comment).
/// @pre every link has its reverse (Subnetwork::symmetric()).
/// @throws ScheduleError naming the topology for another collective, a node the root does not reach,
/// or an all-to-all on more than MAX_TREE_ALLTOALL_NODES nodes.
/// @param rule when given, set to the tree's parent rule (the shorter of the two, as the reduce plans choose).
[[nodiscard]] schedule::Schedule tree_collective(const topology::Topology& topology, NodeId root, Collective collective,
                                                 unsigned ports, generic::ParentRule* rule = nullptr);

/// The blocked collectives among the processors of a platform whose routers only forward
/// (@p relays: one flag per node; ChunkRules' relays): the transfers of the routed word plan
/// (generic/routed_tree.hpp, reduce, broadcast and all-reduce timing), each processor-tree edge's
/// message carrying the blocks the tree method above gives it (up: the sender's subtree of
/// processors; down: the receiver's, or for all-gather what its subtree lacks) hop by hop, a
/// router copying what it receives and sending it on unchanged (reduce-scatter and all-to-all as
/// the file comment says).
/// @pre as tree_collective(), the root not a relay.
/// @throws ScheduleError naming the topology for a word collective, or an all-to-all of more than
/// MAX_TREE_ALLTOALL_NODES processors.
/// @param variant when given, set to the word plan's variant.
[[nodiscard]] schedule::Schedule routed_tree_collective(const topology::Topology& topology, NodeId root,
                                                        Collective collective, const emulator::PortModel& ports,
                                                        const std::vector<bool>& relays,
                                                        std::string* variant = nullptr);

/// The reduce-scatter that runs @p allgather backwards (the file comment).
/// @throws ScheduleError when @p allgather is not a stepped all-gather whose transfers copy each
/// chunk into the same chunk, with no local operation.
[[nodiscard]] schedule::Schedule reverse_allgather(const schedule::Schedule& allgather);

}  // namespace starnet::algorithms::collectives
