#pragma once
/// @file
/// Running a chunk schedule on a topology and checking it: the one entry point that
/// `starnet schedule run`, `whatif --schedule`, the round-trip tests and the benchmarks use.
///
/// @code
///   const auto topology = topology::make_topology("ring:4");
///   ScheduleRunSettings settings;                      // unit time, strict, local engine
///   const ScheduleRun r = run_schedule(schedule, *topology, settings);
///   if (!r.verified) std::cerr << r.report.first_problem();
/// @endcode
///
/// Complexity: one emulation, O(actions + items) on top of the engine's own work.
/// IMPORTANT: a violation of the port model in strict mode is thrown by the engine
/// (ModelViolation), not reported.

#include <starnet/algorithms/schedule/chunk_program.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/zmq_engine.hpp>

#include <cstdint>

namespace starnet::algorithms::schedule {

struct ScheduleRunSettings {
  emulator::RunConfig config;  ///< ports, checking, time mode, trace
  ChunkRunOptions chunks;
  Op op = Op::SUM;
  /// Chunk values: random words by default (a wrong reduction then shows with probability
  /// 1 − 2^-63), or id + 1.
  star::Values values{true, 1};
  /// 0: the local engine; K ≥ 1: the zmq engine with K worker threads.
  unsigned zmq_workers = 0;
  /// The zmq engine: seconds a worker waits at a step's barrier.
  double zmq_timeout_seconds = emulator::DEFAULT_RUN_TIMEOUT_SECONDS;
  /// Link costs for timed runs (config.time == TIMED); unit costs when null.
  const emulator::CostModel<Rational>* costs = nullptr;
};

/// @throws ScheduleError when the schedule's node count differs from the topology's;
/// ModelViolation (strict) as the engines throw; UsageError for more workers than nodes.
[[nodiscard]] ScheduleRun run_schedule(const Schedule& schedule, const topology::Topology& topology,
                                       const ScheduleRunSettings& settings);

/// Bytes run_schedule() holds for @p schedule on top of the engine's own (every node's chunk slots
/// and flags, the expected reductions, the schedule): for a memory check before the run.
/// O(1); saturates rather than overflows.
[[nodiscard]] std::uint64_t run_memory_bytes(const Schedule& schedule);

}  // namespace starnet::algorithms::schedule
