#pragma once
// Loading a schedule file (starnet JSON or MSCCL XML) and its topology, shared by `schedule run`
// and `broadcast --schedule` (docs/schedules.md).
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/topology/topology.hpp>

#include <memory>
#include <optional>
#include <string>

namespace starnet::tools {

struct LoadedSchedule {
  std::unique_ptr<topology::Topology> topology;
  std::string spec;
  std::optional<algorithms::schedule::Schedule> schedule;
  std::string format;  // "starnet" or "msccl"
};

/// Reads @p file (a regular file, or - for standard input) on @p topology, or on the topology the
/// file names when @p topology is empty. @throws UsageError / ScheduleError naming the file.
LoadedSchedule load_schedule(const std::string& file, const std::string& topology);

}  // namespace starnet::tools
