#include <starnet/algorithms/generic/ring.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace starnet::algorithms::generic {

std::string to_string(RingVariant v) {
  switch (v) {
    case RingVariant::UNIDIRECTIONAL: return "unidirectional";
    case RingVariant::BIDIRECTIONAL: return "bidirectional";
    case RingVariant::COLOURED: return "coloured";
  }
  return "?";
}

RingVariant ring_variant(const emulator::PortModel& ports) {
  // Transfers a node takes part in at once: unidirectional 1 send + 1 receive, bidirectional 2 + 2.
  if (!ports.half_duplex) return ports.ports >= 2 ? RingVariant::BIDIRECTIONAL : RingVariant::UNIDIRECTIONAL;
  if (ports.ports >= 4) return RingVariant::BIDIRECTIONAL;
  return ports.ports >= 2 ? RingVariant::UNIDIRECTIONAL : RingVariant::COLOURED;
}

namespace {

std::uint32_t colours(std::uint64_t length) { return length % 2 == 0 ? 2 : 3; }

/// Colour of position p on a ring of @p length: alternating, the last of an odd ring apart.
std::uint32_t colour(std::uint64_t p, std::uint64_t length) {
  if (length % 2 == 1 && p == length - 1) return 2;
  return static_cast<std::uint32_t>(p % 2);
}

Operand slot(std::uint64_t i) { return i % 2 == 0 ? Operand::SLOT_0 : Operand::SLOT_1; }

}  // namespace

std::uint32_t ring_steps(std::uint64_t length, RingVariant variant) {
  if (length <= 1) return 0;
  switch (variant) {
    case RingVariant::UNIDIRECTIONAL: return static_cast<std::uint32_t>(length - 1);
    case RingVariant::BIDIRECTIONAL: return static_cast<std::uint32_t>(length / 2);  // ⌈(L−1)/2⌉
    case RingVariant::COLOURED: return colours(length) * static_cast<std::uint32_t>(length - 1);
  }
  return 0;
}

std::vector<std::vector<std::vector<NodeId>>> spec_rings(std::string_view text) {
  const topology::Spec spec = topology::parse_spec(text);
  if (spec.family == "ring") return torus_rings(1, std::stoull(spec.argument));
  if (spec.family != "torus") {
    throw ScheduleError(fmt::format("{}: the ring all-reduce runs on ring:N and torus:AxBx…", text));
  }
  std::vector<std::uint64_t> sides;
  for (const int side : topology::grid_sides(spec)) sides.push_back(static_cast<std::uint64_t>(side));
  return grid_rings(sides);
}

std::vector<std::vector<std::vector<NodeId>>> torus_rings(std::uint64_t a, std::uint64_t b) {
  return grid_rings(std::vector<std::uint64_t>{a, b});
}

std::vector<std::vector<std::vector<NodeId>>> grid_rings(std::span<const std::uint64_t> sides) {
  std::uint64_t nodes = 1;
  for (const auto side : sides) nodes *= side;
  std::vector<std::vector<std::vector<NodeId>>> phases;
  // The last coordinate first (a torus's rows), as families.hpp numbers nodes in mixed radix.
  std::uint64_t stride = 1;
  for (auto k = sides.size(); k-- > 0;) {
    const std::uint64_t side = sides[k];
    auto& rings = phases.emplace_back();
    for (std::uint64_t v = 0; v < nodes; ++v) {
      if ((v / stride) % side != 0) continue;  // v starts the ring along coordinate k
      auto& ring = rings.emplace_back();
      for (std::uint64_t i = 0; i < side; ++i) ring.push_back(static_cast<NodeId>(v + i * stride));
    }
    stride *= side;
  }
  return phases;
}

Schedule ring_schedule(const topology::Topology& topology, const std::vector<std::vector<std::vector<NodeId>>>& phases,
                       const emulator::PortModel& ports) {
  const NodeId n = topology.num_nodes();
  const RingVariant variant = ring_variant(ports);
  std::vector<Transfer> transfers;
  std::vector<std::tuple<std::uint32_t, NodeId, Operand>> saves;
  std::uint32_t base = 0;
  for (std::size_t ph = 0; ph < phases.size(); ++ph) {
    std::vector<bool> covered(n, false);
    std::uint32_t phase_steps = 0;
    for (const auto& ring : phases[ph]) {
      const std::uint64_t length = ring.size();
      for (std::uint64_t p = 0; p < length; ++p) {
        const NodeId v = ring[p];
        if (v >= n || covered[v]) {
          throw ScheduleError(fmt::format("ring all-reduce on {}: phase {} names node {} twice or out of 0..{}",
                                          topology.name(), ph, v, n - 1));
        }
        covered[v] = true;
        if (length >= 2 && !topology.port_to(v, ring[(p + 1) % length])) {
          throw ScheduleError(fmt::format("ring all-reduce on {}: no link from {} to {}", topology.name(),
                                          topology.node_name(v), topology.node_name(ring[(p + 1) % length])));
        }
      }
      phase_steps = std::max(phase_steps, ring_steps(length, variant));
      if (length <= 1) continue;
      for (std::uint64_t p = 0; p < length; ++p) {
        const NodeId v = ring[p];
        const NodeId right = ring[(p + 1) % length];
        const NodeId left = ring[(p + length - 1) % length];
        saves.emplace_back(base, v, Operand::SLOT_0);
        if (variant == RingVariant::BIDIRECTIONAL) {
          saves.emplace_back(base, v, Operand::SLOT_1);
          for (std::uint64_t r = 0; r < length / 2; ++r) {
            transfers.push_back(
                {base + static_cast<std::uint32_t>(r), v, right, Operand::SLOT_0, Merge::COMBINE, Operand::SLOT_0});
          }
          for (std::uint64_t r = 0; r < (length - 1) / 2; ++r) {
            transfers.push_back(
                {base + static_cast<std::uint32_t>(r), v, left, Operand::SLOT_1, Merge::COMBINE, Operand::SLOT_1});
          }
          continue;
        }
        const bool coloured = variant == RingVariant::COLOURED;
        for (std::uint64_t r = 0; r + 1 < length; ++r) {
          const auto step = coloured ? base + static_cast<std::uint32_t>(r) * colours(length) + colour(p, length)
                                     : base + static_cast<std::uint32_t>(r);
          transfers.push_back({step, v, right, slot(r), Merge::COMBINE, slot(r + 1)});
        }
      }
    }
    if (std::find(covered.begin(), covered.end(), false) != covered.end()) {
      throw ScheduleError(fmt::format(
          "ring all-reduce on {}: phase {} leaves node {} out", topology.name(), ph,
          topology.node_name(static_cast<NodeId>(std::find(covered.begin(), covered.end(), false) - covered.begin()))));
    }
    base += phase_steps;
  }
  return Schedule(n, std::move(transfers), std::move(saves));
}

}  // namespace starnet::algorithms::generic
