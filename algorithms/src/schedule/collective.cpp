#include <starnet/algorithms/schedule/collective.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::schedule {

ChunkRules::ChunkRules(Collective kind, std::uint32_t nodes, std::uint32_t chunks, std::uint32_t root, Layout layout)
    : kind_(kind), nodes_(nodes), chunks_(chunks), root_(root), layout_(layout) {
  if (nodes == 0) throw ScheduleError(fmt::format("{} on no nodes: a schedule needs at least one node", to_string(kind)));
  if (chunks == 0) throw ScheduleError(fmt::format("{} with 0 chunks: expected at least one chunk", to_string(kind)));
  if (root >= nodes) {
    throw ScheduleError(fmt::format("{}: root {} is not a node (expected 0..{})", to_string(kind), root, nodes - 1));
  }
  if (is_blocked(kind) && chunks % nodes != 0) {
    throw ScheduleError(fmt::format("{} with {} chunks on {} nodes: the chunks must split into one block per node "
                                    "(a multiple of {})",
                                    to_string(kind), chunks, nodes, nodes));
  }
  block_ = is_blocked(kind) ? chunks / nodes : chunks;
  inputs_ = kind == Collective::ALLGATHER || kind == Collective::GATHER ? block_ : chunks;
}

ChunkValues::ChunkValues(const ChunkRules& rules, Op op, star::Values values) : op_(op), values_(values) {
  if (!rules.reduces()) return;
  reduced_.resize(rules.inputs());
  for (std::uint32_t c = 0; c < rules.inputs(); ++c) {
    std::uint64_t acc = values_.of(rules.contribution(0, c));
    for (std::uint32_t u = 1; u < rules.nodes(); ++u) acc = star::apply(op, acc, values_.of(rules.contribution(u, c)));
    reduced_[c] = acc;
  }
}

}  // namespace starnet::algorithms::schedule
