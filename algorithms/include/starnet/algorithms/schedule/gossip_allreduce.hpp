#pragma once
/// @file
/// A gossip (an all-gather with one chunk per node, as the optimal and uniform searches find it)
/// as an all-reduce whose messages may carry several values — the all-reduce those searches
/// answer for (docs/optimal.md).
///
/// Node v's value is chunk 0. At step 0 it copies it into scratch chunk 1 + v (a local operation,
/// no step of its own); every item u of the gossip then moves scratch chunk 1 + u and, as it
/// arrives, is also reduced into chunk 0. A gossip delivers every other value to every node once,
/// so each node ends with the reduction of all N values: same steps, same transfers, N scratch
/// chunks per node.
///
/// Complexity: O(transfers · items). IMPORTANT: a gossip that delivers a value twice becomes an
/// all-reduce that counts it twice; running the result (schedule_run.hpp) is what checks it.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>

namespace starnet::algorithms::schedule {

/// @throws ScheduleError naming what it is unless @p gossip is a stepped allgather with one chunk
/// per node.
[[nodiscard]] Schedule gossip_as_allreduce(const Schedule& gossip);

}  // namespace starnet::algorithms::schedule
