#pragma once
/// @file
/// What a schedule's run found: a partition's report, merged, and the run itself. The chunk
/// program (chunk_program.hpp) writes the reports as it runs a schedule's chunks as node programs;
/// schedule_run.hpp runs a schedule on an engine and checks it.

#include <starnet/core/rational.hpp>
#include <starnet/emulator/run_result.hpp>

#include <cstdint>
#include <string>

namespace starnet::algorithms::schedule {

/// What one partition (or, merged, the whole run) found.
struct ChunkReport {
  std::uint64_t nodes_checked = 0;   ///< nodes whose output chunks were checked
  std::uint64_t chunks_checked = 0;  ///< their output chunks
  std::uint64_t chunks_correct = 0;  ///< of those, the chunks holding the value expected
  std::uint64_t errors = 0;  ///< sends of chunks not held, reductions into empty chunks, late sends
  std::uint64_t error_step = 0;
  std::int64_t error_node = -1;  ///< the first error by (step, node), −1 if none
  std::string error;
  std::uint64_t nodes_stuck = 0;  ///< nodes with actions left undone at the end (a deadlock)
  std::int64_t stuck_node = -1;
  std::string stuck;
  std::int64_t wrong_node = -1;  ///< the first node (then chunk) holding a wrong value, −1 if none
  std::string wrong;

  [[nodiscard]] bool ok() const { return errors == 0 && nodes_stuck == 0 && chunks_correct == chunks_checked; }
  [[nodiscard]] std::string serialize() const;
  /// @throws Error when @p text is not what serialize() writes.
  [[nodiscard]] static ChunkReport parse(const std::string& text);
  void merge(const ChunkReport& other);
  /// One line: what went wrong first (error, then deadlock, then wrong value), or "".
  [[nodiscard]] std::string first_problem() const;
};

struct ScheduleRun {
  emulator::RunResult<Rational> run;
  ChunkReport report;
  /// Every node's every output chunk right, no error, nothing left undone.
  bool verified = false;
};

}  // namespace starnet::algorithms::schedule
