#pragma once
/// @file
/// The schedule-level built-ins: the star graph's collectives and the what-if word plans written
/// as chunk schedules, so that a user can read, modify and re-run them (`starnet schedule
/// export`). Which algorithm applies where is the catalogue's (collectives/catalogue.hpp).
///
/// - star-allreduce (Oh, Choi, Primeaux 2005, Figure 2): chunk 0 is the node's result, scratch
///   chunk 1 the value it forwards; at the first step of level m every node sends chunk 0 along
///   link m and the receiver keeps it in chunk 1 and reduces it into chunk 0; at the following
///   steps it sends chunk 1 along links m−1, …, 2 and the receiver reduces it into chunk 0.
///   n(n−1)/2 steps, n!·n(n−1)/2 transfers.
/// - star-broadcast (Section 3, NODUP): an allgather with one chunk per node; at the first step of
///   level m a node sends the chunks of its sub-star S_{m−1} along link m, then forwards that block
///   along links m−1, …, 2. Each node receives n! − 1 chunks, none twice.
/// - word plans (generic/: recursive doubling, ring, BFS trees): the accumulator becomes chunk 0
///   and the two slots scratch chunks 1, 2.
///
/// Complexity: O(transfers + items). A star-broadcast of S_n moves n!·(n!−1) chunks.
/// IMPORTANT: the export is checked by running it (the round-trip tests), not here.

#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/topology/star_graph.hpp>

namespace starnet::algorithms::schedule {

/// The star all-reduce as a schedule (one chunk, one scratch chunk).
[[nodiscard]] Schedule star_allreduce_schedule(const topology::StarGraph& g);
/// The star all-to-all broadcast (NODUP) as an all-gather with one chunk per node.
[[nodiscard]] Schedule star_broadcast_schedule(const topology::StarGraph& g);
/// A what-if word plan of @p collective (allreduce, reduce or broadcast) as a schedule.
/// @throws ScheduleError for a plan with relays (a chunk schedule checks every node).
[[nodiscard]] Schedule word_plan_schedule(const generic::Schedule& plan, Collective collective, std::uint32_t root);

}  // namespace starnet::algorithms::schedule
