#include <starnet/algorithms/generic/recursive_doubling.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <bit>

namespace starnet::algorithms::generic {

namespace {

/// @param what the link's part in the plan, e.g. "dimension 2".
void check_link(const topology::Topology& t, NodeId x, NodeId y, const std::string& what) {
  if (!t.port_to(x, y)) {
    throw ScheduleError(fmt::format("recursive doubling on {}: no link between {} and {} ({})", t.name(),
                                    t.node_name(x), t.node_name(y), what));
  }
}

/// The exchanges among nodes 0..2^d − 1, from step @p first.
void core_rounds(const topology::Topology& t, NodeId cube, bool split, std::uint32_t first,
                 std::vector<Transfer>& transfers) {
  const int d = std::countr_zero(cube);
  for (int i = 0; i < d; ++i) {
    const NodeId bit = NodeId{1} << i;
    for (NodeId x = 0; x < cube; ++x) {
      const NodeId y = x ^ bit;
      check_link(t, x, y, fmt::format("dimension {}", i + 1));
      if (!split) {
        transfers.push_back({first + static_cast<std::uint32_t>(i), x, y, Operand::ACC, Merge::COMBINE, Operand::NONE});
      } else if ((x & bit) == 0) {
        const auto step = first + static_cast<std::uint32_t>(2 * i);
        transfers.push_back({step, x, y, Operand::ACC, Merge::COMBINE, Operand::NONE});
        transfers.push_back({step + 1, y, x, Operand::ACC, Merge::REPLACE, Operand::NONE});
      }
    }
  }
}

}  // namespace

Schedule recursive_doubling_schedule(const topology::Topology& cube, const emulator::PortModel& ports) {
  const NodeId n = cube.num_nodes();
  if (!std::has_single_bit(n)) {
    throw ScheduleError(
        fmt::format("recursive doubling on {}: {} nodes is not a power of two (expected a hypercube)", cube.name(), n));
  }
  // One step per round unless a node cannot send and receive at once.
  const bool split = ports.half_duplex && ports.ports < 2;
  std::vector<Transfer> transfers;
  transfers.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(std::countr_zero(n)));
  core_rounds(cube, n, split, 0, transfers);
  return Schedule(n, std::move(transfers));
}

Schedule recursive_doubling_folded_schedule(const topology::Topology& t, const emulator::PortModel& ports) {
  const NodeId n = t.num_nodes();
  if (n == 0 || std::has_single_bit(n)) return recursive_doubling_schedule(t, ports);
  const NodeId cube = std::bit_floor(n);
  const bool split = ports.half_duplex && ports.ports < 2;
  const int d = std::countr_zero(cube);
  const auto rounds = static_cast<std::uint32_t>(split ? 2 * d : d);
  std::vector<Transfer> transfers;
  for (NodeId v = cube; v < n; ++v) {
    check_link(t, v, v - cube, fmt::format("folding {} nodes onto {}", n, cube));
    transfers.push_back({0, v, v - cube, Operand::ACC, Merge::COMBINE, Operand::NONE});
    transfers.push_back({rounds + 1, v - cube, v, Operand::ACC, Merge::REPLACE, Operand::NONE});
  }
  core_rounds(t, cube, split, 1, transfers);
  return Schedule(n, std::move(transfers));
}

}  // namespace starnet::algorithms::generic
