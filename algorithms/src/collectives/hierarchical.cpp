// The hierarchical all-reduce among the hosts of a fat-tree or a dragonfly (hierarchical.hpp).
#include "schedule_moves.hpp"

#include <starnet/algorithms/collectives/block_collectives.hpp>
#include <starnet/algorithms/collectives/dimension_ordered.hpp>
#include <starnet/algorithms/collectives/hierarchical.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;
using topology::NodeId;

namespace {

/// The names of a family's levels, outermost first (HostNetwork::hierarchy()).
/// The levels of more than one member, innermost first, with their names.
struct Levels {
  std::vector<NodeId> sizes;
  std::vector<std::string_view> names;
};

Levels levels_of(const topology::HostNetwork& hosts) {
  const auto all = hosts.hierarchy();
  const auto names = hosts.hierarchy_names();
  Levels out;
  for (std::size_t k = all.size(); k-- > 0;) {
    if (all[k] < 2) continue;
    out.sizes.push_back(all[k]);
    out.names.push_back(names[k]);
  }
  return out;
}

/// The rank at each node of the product whose first factor is the innermost level: its digits,
/// read outermost first, are the host's index in platform order.
std::vector<std::uint32_t> ranks_of_product(const topology::HostNetwork& hosts, const std::vector<NodeId>& inner_first) {
  const NodeId n = hosts.num_nodes();
  std::vector<std::uint32_t> out(n);
  std::vector<NodeId> digits(inner_first.size());
  for (NodeId v = 0; v < n; ++v) {
    NodeId rest = v;
    for (std::size_t k = inner_first.size(); k-- > 0;) {  // the last factor is the least significant
      digits[k] = rest % inner_first[k];
      rest /= inner_first[k];
    }
    NodeId index = 0;
    for (std::size_t k = inner_first.size(); k-- > 0;) index = index * inner_first[k] + digits[k];
    out[v] = static_cast<std::uint32_t>(hosts.rank_at(index));
  }
  return out;
}

}  // namespace

Built hierarchical_allreduce(const topology::HostNetwork& hosts, bool split, const emulator::PortModel& ports) {
  const Levels levels = levels_of(hosts);
  if (levels.sizes.size() < 2) {
    throw ScheduleError(fmt::format("hierarchical runs among the hosts of a fat-tree or a dragonfly with two levels of "
                                    "more than one member at least, not on {}",
                                    hosts.name()));
  }
  std::string spec = "product:";
  std::string names;
  for (std::size_t k = 0; k < levels.sizes.size(); ++k) {
    spec += fmt::format("{}complete:{}", k == 0 ? "" : "*", levels.sizes[k]);
    names += fmt::format("{}{} {}", k == 0 ? "" : ", ", levels.sizes[k], levels.names[k]);
  }
  const auto product = topology::make_topology(spec);
  const auto rank = ranks_of_product(hosts, levels.sizes);
  const auto n = static_cast<std::uint32_t>(hosts.num_nodes());
  std::vector<Built> phases;
  if (split) {
    // The all-gather once, and reversed for the reduce-scatter (as build() would give them), past
    // build()'s MAX_BLOCK_NODES: the caller bounds the hosts (whatif.hpp, MAX_HIERARCHICAL_SPLIT_HOSTS).
    auto gather = dimension_ordered(Collective::ALLGATHER, *product, spec, 0, ports);
    phases.push_back({reverse_allgather(gather.schedule), gather.variant + ", reversed"});
    phases.push_back(std::move(gather));
  } else {
    phases.push_back(dimension_ordered(Collective::ALLREDUCE, *product, spec, 0, ports));
  }
  const sch::ChunkRules rules = split ? sch::ChunkRules(Collective::ALLREDUCE, n, n, 0) : phases[0].schedule.rules();
  sch::ScheduleBuilder b(rules, split ? 0 : phases[0].schedule.scratch());
  std::uint32_t base = 0;
  std::string variant = names + ": ";
  for (const auto& phase : phases) {
    // Chunk c is block c in every phase; relabelling nodes keeps an all-reduce one (file comment).
    for (const auto& m : moves_of(phase.schedule)) b.add_transfer(base + m.step, rank[m.from], rank[m.to], m.items);
    base += phase.schedule.steps();
    variant += (&phase == phases.data() ? "" : " then ") + phase.variant;
  }
  if (split) variant = fmt::format("{} blocks of M/{}, {}", n, n, variant);
  return {std::move(b).build(), variant};
}

}  // namespace starnet::algorithms::collectives
