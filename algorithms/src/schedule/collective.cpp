#include <starnet/algorithms/schedule/collective.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::schedule {

ChunkRules::ChunkRules(Collective kind, std::uint32_t nodes, std::uint32_t chunks, std::uint32_t root, Layout layout)
    : kind_(kind), nodes_(nodes), members_(nodes), chunks_(chunks), root_(root), layout_(layout) {
  check_and_size();
}

ChunkRules::ChunkRules(Collective kind, std::uint32_t nodes, std::uint32_t chunks, std::uint32_t root,
                       const std::vector<bool>& relays)
    : kind_(kind), nodes_(nodes), members_(0), chunks_(chunks), root_(root) {
  if (relays.size() != nodes) {
    throw ScheduleError(fmt::format("{}: {} relay flags for {} nodes", to_string(kind), relays.size(), nodes));
  }
  rank_.assign(nodes, NOT_MEMBER);
  for (std::uint32_t v = 0; v < nodes; ++v) {
    if (!relays[v]) rank_[v] = members_++, member_.push_back(v);
  }
  if (members_ == 0) throw ScheduleError(fmt::format("{} among no node: every node is a relay", to_string(kind)));
  if (root < nodes && relays[root]) {
    throw ScheduleError(fmt::format("{}: root {} is a relay (it holds no data)", to_string(kind), root));
  }
  check_and_size();
}

void ChunkRules::check_and_size() {
  if (nodes_ == 0) {
    throw ScheduleError(fmt::format("{} on no nodes: a schedule needs at least one node", to_string(kind_)));
  }
  if (chunks_ == 0) throw ScheduleError(fmt::format("{} with 0 chunks: expected at least one chunk", to_string(kind_)));
  if (root_ >= nodes_) {
    throw ScheduleError(fmt::format("{}: root {} is not a node (expected 0..{})", to_string(kind_), root_, nodes_ - 1));
  }
  const char* who = has_relays() ? "participants" : "nodes";
  if (is_blocked(kind_) && chunks_ % members_ != 0) {
    throw ScheduleError(fmt::format("{} with {} chunks on {} {}: the chunks must split into one block per node "
                                    "(a multiple of {})",
                                    to_string(kind_), chunks_, members_, who, members_));
  }
  block_ = is_blocked(kind_) ? chunks_ / members_ : chunks_;
  inputs_ = kind_ == Collective::ALLGATHER || kind_ == Collective::GATHER ? block_ : chunks_;
}

ChunkValues::ChunkValues(const ChunkRules& rules, Op op, star::Values values) : op_(op), values_(values) {
  if (!rules.reduces()) return;
  reduced_.resize(rules.inputs());
  for (std::uint32_t c = 0; c < rules.inputs(); ++c) {
    std::uint64_t acc = values_.of(rules.contribution(0, c));
    for (std::uint32_t u = 1; u < rules.members(); ++u) {
      acc = star::apply(op, acc, values_.of(rules.contribution(u, c)));
    }
    reduced_[c] = acc;
  }
}

}  // namespace starnet::algorithms::schedule
