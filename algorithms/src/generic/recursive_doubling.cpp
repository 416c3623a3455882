#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <bit>

namespace starnet::algorithms::generic {

Schedule recursive_doubling_schedule(const topology::Topology& cube, const emulator::PortModel& ports) {
  const NodeId n = cube.num_nodes();
  if (!std::has_single_bit(n)) {
    throw ScheduleError(
        fmt::format("recursive doubling on {}: {} nodes is not a power of two (expected a hypercube)", cube.name(), n));
  }
  const int d = std::countr_zero(n);
  // One step per round unless a node cannot send and receive at once.
  const bool split = ports.half_duplex && ports.ports < 2;
  std::vector<Transfer> transfers;
  transfers.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(d));
  for (int i = 0; i < d; ++i) {
    const NodeId bit = NodeId{1} << i;
    for (NodeId x = 0; x < n; ++x) {
      const NodeId y = x ^ bit;
      if (!cube.port_to(x, y)) {
        throw ScheduleError(fmt::format("recursive doubling on {}: no link between {} and {} (dimension {})",
                                        cube.name(), cube.node_name(x), cube.node_name(y), i + 1));
      }
      if (!split) {
        transfers.push_back({static_cast<std::uint32_t>(i), x, y, Operand::ACC, Merge::COMBINE, Operand::NONE});
      } else if ((x & bit) == 0) {
        const auto step = static_cast<std::uint32_t>(2 * i);
        transfers.push_back({step, x, y, Operand::ACC, Merge::COMBINE, Operand::NONE});
        transfers.push_back({step + 1, y, x, Operand::ACC, Merge::REPLACE, Operand::NONE});
      }
    }
  }
  return Schedule(n, std::move(transfers));
}

}  // namespace starnet::algorithms::generic
