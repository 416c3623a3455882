#pragma once
/// @file
/// `broadcast --all-to-all --schedule FILE` (docs/beyond.md): the paper's all-to-all broadcast on
/// S_n and a user's all-gather schedule (e.g. the uniform gossip `optimal --method uniform -o`
/// writes) on the same star graph, side by side, both verified.

#include <starnet/api/schedule.hpp>
#include <starnet/api/star.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace starnet::api {

struct BroadcastBeside {
  StarResult paper;
  ScheduleRunResult schedule;
  std::string file;
  std::uint64_t transfers = 0;
  std::uint64_t largest_message_items = 0;  ///< the largest message of the schedule, in items
  std::uint64_t items_received_per_node = 0;  ///< the most any node receives
  bool no_duplicates = false;  ///< every node receives every other node's item exactly once
  [[nodiscard]] bool verified() const { return paper.verified && schedule.verified; }
  /// The document of `starnet broadcast --all-to-all --schedule FILE --json`.
  [[nodiscard]] nlohmann::json to_json() const;
};

/// Runs @p paper (an all-to-all broadcast request, StarRequest::on(…, ALLGATHER)) and the schedule
/// in @p file on the same star graph. @throws UsageError about "schedule" when the file is not a
/// stepped all-gather; as load_schedule(), run_star() and run_schedule().
[[nodiscard]] BroadcastBeside broadcast_beside_schedule(const StarRequest& paper, const std::string& file);

}  // namespace starnet::api
