#include <starnet/algorithms/schedule/gossip_allreduce.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <map>
#include <tuple>
#include <vector>

namespace starnet::algorithms::schedule {

Schedule gossip_as_allreduce(const Schedule& gossip) {
  const auto& rules = gossip.rules();
  const std::uint32_t n = gossip.nodes();
  if (rules.kind() != Collective::ALLGATHER || rules.chunks() != n || gossip.form() != Form::STEPPED) {
    throw ScheduleError(fmt::format("a{} {} with {} chunks on {} nodes is not a gossip (expected a stepped allgather "
                                    "with one chunk per node)",
                                    gossip.form() == Form::STEPPED ? "" : " programmed", to_string(rules.kind()),
                                    rules.chunks(), n));
  }
  ScheduleBuilder builder(ChunkRules(Collective::ALLREDUCE, n, 1, 0), n);
  builder.set_topology(gossip.topology());
  // The source slots of every send, by (step, sender, receiver).
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::span<const Item>> sent;
  for (std::uint32_t u = 0; u < n; ++u) {
    for (const auto& a : gossip.actions(u)) {
      if (a.kind == Action::Kind::SEND) sent[{a.key, u, a.peer}] = gossip.items(a.items);
    }
  }
  if (gossip.transfers() > 0) {
    for (std::uint32_t v = 0; v < n; ++v) {
      const TransferItem keep{0, 1 + v, ItemOp::COPY};
      builder.add_transfer(0, v, v, {&keep, 1}, fmt::format("node {} keeps its value", v));
    }
  }
  std::vector<TransferItem> items;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& a : gossip.actions(v)) {
      if (a.kind != Action::Kind::RECV) continue;
      const auto& message = sent.at({a.key, a.peer, v});
      items.clear();
      for (const auto& r : gossip.items(a.items)) {
        const std::uint32_t value = message[r.a].a;  // the gossip's chunk u is node u's value
        items.push_back({1 + value, 1 + r.b, ItemOp::COPY});
        items.push_back({1 + value, 0, ItemOp::REDUCE});
      }
      builder.add_transfer(a.key, a.peer, v, items, fmt::format("step {}: {} → {}", a.key, a.peer, v));
    }
  }
  return std::move(builder).build();
}

}  // namespace starnet::algorithms::schedule
