#include "schedule_moves.hpp"

#include <starnet/algorithms/collectives/split_allreduce.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;

Built split_allreduce(Algorithm a, const topology::Topology& t, std::string_view spec, const emulator::PortModel& ports) {
  if (a != Algorithm::RING_SPLIT && a != Algorithm::RABENSEIFNER) {
    throw ScheduleError(fmt::format("{} is not a split all-reduce", to_string(a)));
  }
  const bool ring = a == Algorithm::RING_SPLIT;
  const auto scatter = build(ring ? Algorithm::RING : Algorithm::RECURSIVE_HALVING, Collective::REDUCESCATTER, t, spec, 0, ports);
  const auto gather = build(ring ? Algorithm::RING : Algorithm::RECURSIVE_DOUBLING, Collective::ALLGATHER, t, spec, 0, ports);
  const auto n = static_cast<std::uint32_t>(t.num_nodes());
  // Chunk c is block c in all three schedules: the reduce-scatter leaves it reduced at node c.
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::ALLREDUCE, n, n, 0), /*scratch=*/0);
  for (const auto& m : moves_of(scatter.schedule)) b.add_transfer(m.step, m.from, m.to, m.items);
  const auto base = scatter.schedule.steps();
  for (const auto& m : moves_of(gather.schedule)) b.add_transfer(base + m.step, m.from, m.to, m.items);
  return {std::move(b).build(), fmt::format("{} blocks of M/{}: {} then {}", n, n, scatter.variant, gather.variant)};
}

}  // namespace starnet::algorithms::collectives
