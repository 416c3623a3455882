#include <starnet/algorithms/schedule/builtins.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

namespace starnet::algorithms::schedule {

using topology::StarGraph;

namespace {

constexpr std::uint32_t RESULT = 0;   // star-allreduce: the node's result
constexpr std::uint32_t FORWARD = 1;  // star-allreduce: the value it forwards (scratch)

}  // namespace

Schedule star_allreduce_schedule(const StarGraph& g) {
  const auto nodes = static_cast<std::uint32_t>(g.size());
  ScheduleBuilder b(ChunkRules(Collective::ALLREDUCE, nodes, 1, 0), /*scratch=*/1);
  const TransferItem first[] = {{RESULT, FORWARD, ItemOp::COPY}, {RESULT, RESULT, ItemOp::REDUCE}};
  const TransferItem later[] = {{FORWARD, RESULT, ItemOp::REDUCE}};
  for (std::uint32_t s = 0; s < star::allreduce_steps(g.n()); ++s) {
    const auto at = star::level_of_step(s);
    for (std::uint32_t v = 0; v < nodes; ++v) {
      const auto to = static_cast<std::uint32_t>(g.neighbor(v, StarGraph::port_of(at.link())));
      if (at.offset == 0) {
        b.add_transfer(s, v, to, first);
      } else {
        b.add_transfer(s, v, to, later);
      }
    }
  }
  return std::move(b).build();
}

Schedule star_broadcast_schedule(const StarGraph& g) {
  const auto nodes = static_cast<std::uint32_t>(g.size());
  ScheduleBuilder b(ChunkRules(Collective::ALLGATHER, nodes, nodes, 0), /*scratch=*/0);
  std::vector<TransferItem> items;
  for (std::uint32_t s = 0; s < star::allreduce_steps(g.n()); ++s) {
    const auto at = star::level_of_step(s);
    const auto block = StarGraph::factorial(at.level - 1);
    for (std::uint32_t v = 0; v < nodes; ++v) {
      const auto to = static_cast<std::uint32_t>(g.neighbor(v, StarGraph::port_of(at.link())));
      // First step of level m: the node's own S_{m−1}; then the one it received along link m.
      const auto owner = at.offset == 0 ? v : static_cast<std::uint32_t>(g.neighbor(v, StarGraph::port_of(at.level)));
      const auto first = g.substar_begin(owner, at.level - 1);
      items.clear();
      for (std::uint64_t c = first; c < first + block; ++c) {
        items.push_back({static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c), ItemOp::COPY});
      }
      b.add_transfer(s, v, to, items);
    }
  }
  return std::move(b).build();
}

namespace {

/// A what-if word plan as chunks: acc → chunk 0, slot 0 → chunk 1, slot 1 → chunk 2.
std::uint32_t chunk_of(generic::Operand o) {
  switch (o) {
    case generic::Operand::ACC: return 0;
    case generic::Operand::SLOT_0: return 1;
    case generic::Operand::SLOT_1: return 2;
    case generic::Operand::NONE:
    case generic::Operand::RELAY: break;
  }
  STARNET_ASSERT(false);
  return 0;
}

}  // namespace

Schedule word_plan_schedule(const generic::Schedule& plan, Collective collective, std::uint32_t root) {
  const auto nodes = static_cast<std::uint32_t>(plan.nodes());
  if (plan.has_relays()) {
    // A chunk schedule checks every node's chunk at the end; a relay holds none.
    throw ScheduleError("a word plan with relays (routers) is not a chunk schedule: every node of a chunk schedule "
                        "ends with the result, and a relay holds none");
  }
  ScheduleBuilder b(ChunkRules(collective, nodes, 1, root), /*scratch=*/2);
  for (std::uint32_t v = 0; v < nodes; ++v) {
    for (const auto& a : plan.actions(v)) {
      if (a.kind == generic::Action::Kind::SAVE) {
        const TransferItem save[] = {{0, chunk_of(a.operand), ItemOp::COPY}};
        b.add_transfer(a.step, v, v, save);
      }
    }
  }
  for (const auto& t : plan.transfers()) {
    const auto src = chunk_of(t.source);
    std::vector<TransferItem> items{{src, 0, t.merge == generic::Merge::COMBINE ? ItemOp::REDUCE : ItemOp::COPY}};
    if (t.keep != generic::Operand::NONE) items.push_back({src, chunk_of(t.keep), ItemOp::COPY});
    b.add_transfer(t.step, static_cast<std::uint32_t>(t.from), static_cast<std::uint32_t>(t.to), items);
  }
  return std::move(b).build();
}

}  // namespace starnet::algorithms::schedule
