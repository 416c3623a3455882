#pragma once
/// @file
/// Every built-in collective algorithm written as a chunk schedule (issue 18, `starnet schedule
/// export`), so that a user can read, modify and re-run it, and so that the round trip (export,
/// write, read, run) can be compared with the built-in run.
///
/// - star-allreduce (Oh, Choi, Primeaux 2005, Figure 2): chunk 0 is the node's result, scratch
///   chunk 1 the value it forwards; at the first step of level m every node sends chunk 0 along
///   link m and the receiver keeps it in chunk 1 and reduces it into chunk 0; at the following
///   steps it sends chunk 1 along links m−1, …, 2 and the receiver reduces it into chunk 0.
///   n(n−1)/2 steps, n!·n(n−1)/2 transfers.
/// - star-broadcast (Section 3, NODUP): an allgather with one chunk per node; at the first step of
///   level m a node sends the chunks of its sub-star S_{m−1} along link m, then forwards that block
///   along links m−1, …, 2. Each node receives n! − 1 chunks, none twice.
/// - recursive-doubling, ring, bfs-tree: the what-if planners (generic/), whose word plans become
///   chunk 0 (the accumulator) and scratch chunks 1, 2 (the two slots).
///
/// Complexity: O(transfers + items). A star-broadcast of S_n moves n!·(n!−1) chunks: it is written
/// for n ≤ MAX_STAR_BROADCAST_N.
/// IMPORTANT: the export is checked by running it (the round-trip tests), not here.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace starnet::algorithms::schedule {

enum class Builtin : std::uint8_t { STAR_ALLREDUCE, STAR_BROADCAST, RECURSIVE_DOUBLING, RING, BFS_TREE };
inline constexpr Builtin ALL_BUILTINS[] = {Builtin::STAR_ALLREDUCE, Builtin::STAR_BROADCAST,
                                           Builtin::RECURSIVE_DOUBLING, Builtin::RING, Builtin::BFS_TREE};
/// "star-allreduce", "star-broadcast", "recursive-doubling", "ring", "bfs-tree".
[[nodiscard]] std::string to_string(Builtin b);
[[nodiscard]] std::optional<Builtin> find_builtin(std::string_view text);

/// Largest n whose star-broadcast export is built (S_7: 25 million chunks moved).
inline constexpr int MAX_STAR_BROADCAST_N = 7;

/// @param topology the topology @p spec names; @param collective for bfs-tree (allreduce, reduce
/// or broadcast; the others take their own); @param root for reduce and broadcast.
/// @throws ScheduleError naming the algorithm and the spec when it does not apply (star-* off
/// S_n, recursive-doubling off a hypercube, ring off a ring or torus, a collective the algorithm
/// does not compute, S_n beyond MAX_STAR_BROADCAST_N for star-broadcast).
[[nodiscard]] Schedule export_builtin(Builtin algorithm, const topology::Topology& topology, std::string_view spec,
                                      Collective collective, std::uint32_t root, const emulator::PortModel& ports);

}  // namespace starnet::algorithms::schedule
