#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/emulator/zmq_engine.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <limits>

namespace starnet::algorithms::schedule {

ScheduleRun run_schedule(const Schedule& schedule, const topology::Topology& topology,
                         const ScheduleRunSettings& settings) {
  if (schedule.nodes() != topology.num_nodes()) {
    throw ScheduleError(fmt::format("the schedule is for {} nodes, but {} has {}", schedule.nodes(), topology.name(),
                                    topology.num_nodes()));
  }
  const ChunkValues values(schedule.rules(), settings.op, settings.values);
  // The program's time mode is the run's: a stepped schedule waits for its steps in unit time
  // only (in timed runs a one-unit timer per step would add whole time units to the makespan).
  ChunkRunOptions chunks = settings.chunks;
  chunks.time = settings.config.time;
  const emulator::ProgramFactory factory = [&](emulator::NodeRange range) {
    return make_chunk_program(schedule, values, chunks, range);
  };
  const emulator::UnitCosts<Rational> unit;
  const auto& costs = settings.costs ? *settings.costs : static_cast<const emulator::CostModel<Rational>&>(unit);
  ScheduleRun out;
  std::unique_ptr<emulator::Engine<Rational>> engine;
  if (settings.zmq_workers == 0) {
    engine = std::make_unique<emulator::LocalEngine<Rational>>();
  } else {
    engine = std::make_unique<emulator::ZmqThreadsEngine<Rational>>(settings.zmq_workers,
                                                                    settings.zmq_timeout_seconds);
  }
  out.run = engine->run(topology, costs, factory, settings.config);
  for (const auto& text : out.run.reports) out.report.merge(ChunkReport::parse(text));
  out.verified = out.report.ok() && out.report.nodes_checked == schedule.nodes();
  return out;
}

std::uint64_t run_memory_bytes(const Schedule& schedule) {
  // ChunkProgram: a word and a held flag per node and slot; ChunkValues: a word per input chunk.
  constexpr std::uint64_t PER_SLOT = sizeof(std::uint64_t) + sizeof(std::uint8_t);
  constexpr std::uint64_t SATURATED = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t slots = 0;
  if (__builtin_mul_overflow(std::uint64_t{schedule.nodes()}, std::uint64_t{schedule.slots()}, &slots) ||
      slots > SATURATED / PER_SLOT) {
    return SATURATED;
  }
  return slots * PER_SLOT + std::uint64_t{schedule.rules().inputs()} * sizeof(std::uint64_t) + schedule.memory_bytes();
}

}  // namespace starnet::algorithms::schedule
