#include "schedule_moves.hpp"

#include <starnet/algorithms/collectives/dimension_ordered.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;
using sch::ItemOp;
using sch::TransferItem;
using topology::NodeId;

std::vector<std::string> dimension_factors(std::string_view text) {
  topology::Spec spec;
  try {
    spec = topology::parse_spec(text);
  } catch (const TopologyError&) {
    return {};
  }
  std::vector<std::string> out;
  if (spec.family == "product") {
    for (std::size_t begin = 0;;) {
      const auto star = spec.argument.find('*', begin);
      out.push_back(spec.argument.substr(begin, star - begin));
      if (star == std::string::npos) break;
      begin = star + 1;
    }
  } else if (spec.family == "mesh") {
    for (const int side : topology::grid_sides(spec)) out.push_back(fmt::format("mesh:{}", side));
  }
  return out.size() >= 2 ? out : std::vector<std::string>{};
}

namespace {

/// One factor's schedule as transfers.
struct FactorPlan {
  std::string algorithm;
  std::uint32_t steps = 0;
  std::uint32_t scratch = 0;
  std::vector<Move> moves;
};

FactorPlan plan_of(const sch::Schedule& s, std::string algorithm) {
  return {std::move(algorithm), s.steps(), s.scratch(), moves_of(s)};
}

/// Whether an all-gather passes blocks on as they are (the file comment's IMPORTANT line).
bool plain_allgather(const FactorPlan& p) {
  return p.scratch == 0 && std::all_of(p.moves.begin(), p.moves.end(), [](const Move& m) {
           return m.from != m.to && std::all_of(m.items.begin(), m.items.end(), [](const TransferItem& i) {
                    return i.op == ItemOp::COPY && i.src == i.dst;
                  });
         });
}

/// The factor's schedule of @p c with the fewest steps (the file comment).
FactorPlan best_factor_plan(Collective c, const std::string& spec, NodeId root, const emulator::PortModel& ports) {
  const auto t = topology::make_topology(spec);
  const Shape shape = shape_of(*t, spec);
  std::optional<FactorPlan> best;
  const auto consider = [&](Algorithm a, NodeId r) {
    try {
      auto p = plan_of(build(a, c, *t, spec, r, ports).schedule, to_string(a));
      if (c == Collective::ALLGATHER && !plain_allgather(p)) return;
      if (!best || p.steps < best->steps) best = std::move(p);
    } catch (const ScheduleError&) {
      // Beyond this algorithm's limits on the factor: the others remain.
    }
  };
  for (const Algorithm a : algorithms_for(c, shape)) {
    if (a == Algorithm::DIMENSION_ORDERED) continue;
    if (a != Algorithm::BFS_TREE || t->num_nodes() > MAX_FACTOR_TREE_ROOTS) {
      consider(a, std::min(root, t->num_nodes() - 1));
      continue;
    }
    for (NodeId r = 0; r < t->num_nodes(); ++r) consider(a, r);
  }
  if (!best) throw ScheduleError(fmt::format("dimension-ordered {}: no algorithm for the factor {}", to_string(c), spec));
  return std::move(*best);
}

}  // namespace

Built dimension_ordered(Collective c, const topology::Topology& t, std::string_view spec, NodeId root,
                        const emulator::PortModel& ports) {
  if (c != Collective::ALLREDUCE && c != Collective::ALLGATHER) {
    throw ScheduleError(fmt::format("dimension-ordered computes allreduce and allgather, not {}", to_string(c)));
  }
  const auto factors = dimension_factors(spec);
  if (factors.empty()) {
    throw ScheduleError(fmt::format("dimension-ordered runs on products and meshes, not on {}", spec));
  }
  const auto n = static_cast<std::uint32_t>(t.num_nodes());
  std::vector<std::uint32_t> sizes;
  std::uint64_t product = 1;
  for (const auto& f : factors) {
    sizes.push_back(static_cast<std::uint32_t>(topology::make_topology(f)->num_nodes()));
    product *= sizes.back();
  }
  if (product != n) {
    throw ScheduleError(fmt::format("dimension-ordered on {}: the factors have {} nodes together, the topology {}",
                                    spec, product, n));
  }
  // Strides of the mixed radix, and the root's coordinates.
  std::vector<std::uint32_t> strides(factors.size(), 1);
  for (auto k = factors.size() - 1; k-- > 0;) strides[k] = strides[k + 1] * sizes[k + 1];
  std::vector<FactorPlan> plans;
  for (std::size_t k = 0; k < factors.size(); ++k) {
    plans.push_back(best_factor_plan(c, factors[k], (static_cast<std::uint32_t>(root) / strides[k]) % sizes[k], ports));
  }
  const bool gather = c == Collective::ALLGATHER;
  std::uint32_t scratch = 0;
  for (const auto& p : plans) scratch = std::max(scratch, p.scratch);
  sch::ScheduleBuilder b(sch::ChunkRules(c, n, gather ? n : 1, 0), gather ? 0 : scratch);
  // group[v]: the blocks v stands for (the all-gather), those of its fibres so far.
  std::vector<std::vector<std::uint32_t>> group(n);
  for (std::uint32_t v = 0; v < n; ++v) group[v] = {v};
  std::uint32_t base = 0;
  std::string variant;
  std::vector<TransferItem> items;
  for (auto k = factors.size(); k-- > 0;) {
    const auto& p = plans[k];
    const auto stride = strides[k];
    const auto at = [&](std::uint32_t fibre, std::uint32_t x) { return fibre + x * stride; };
    for (std::uint32_t fibre = 0; fibre < n; ++fibre) {
      if ((fibre / stride) % sizes[k] != 0) continue;  // the fibre's node with coordinate k = 0
      for (const auto& m : p.moves) {
        if (!gather) {
          b.add_transfer(base + m.step, at(fibre, m.from), at(fibre, m.to), m.items);
          continue;
        }
        items.clear();
        for (const auto& i : m.items) {
          for (const auto block : group[at(fibre, i.src)]) items.push_back({block, block, ItemOp::COPY});
        }
        b.add_transfer(base + m.step, at(fibre, m.from), at(fibre, m.to), items);
      }
    }
    if (gather) {
      std::vector<std::vector<std::uint32_t>> next(n);
      for (std::uint32_t v = 0; v < n; ++v) {
        const std::uint32_t fibre = v - ((v / stride) % sizes[k]) * stride;
        for (std::uint32_t x = 0; x < sizes[k]; ++x) {
          const auto& g = group[at(fibre, x)];
          next[v].insert(next[v].end(), g.begin(), g.end());
        }
        std::sort(next[v].begin(), next[v].end());
      }
      group = std::move(next);
    }
    base += p.steps;
    variant += fmt::format("{}{} {}", variant.empty() ? "" : " + ", p.algorithm, p.steps);
  }
  return {std::move(b).build(), variant};
}

}  // namespace starnet::algorithms::collectives
