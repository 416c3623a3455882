#include "schedule_moves.hpp"

#include <unordered_map>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;

std::vector<Move> moves_of(const sch::Schedule& s) {
  const auto n = s.nodes();
  std::unordered_map<std::uint64_t, std::uint32_t> sent;  // (step, from, to) → item list
  const auto key = [n](std::uint32_t step, std::uint32_t from, std::uint32_t to) {
    return (std::uint64_t{step} * n + from) * n + to;
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& a : s.actions(v)) {
      if (a.kind == sch::Action::Kind::SEND) sent.emplace(key(a.key, v, a.peer), a.items);
    }
  }
  std::vector<Move> moves;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& a : s.actions(v)) {
      if (a.kind == sch::Action::Kind::SEND) continue;
      Move m{a.key, a.peer, v, {}};
      if (a.kind == sch::Action::Kind::LOCAL) {
        for (const auto& item : s.items(a.items)) m.items.push_back({item.a, item.b, item.op});
      } else {
        const auto chunks = s.items(sent.at(key(a.key, a.peer, v)));
        for (const auto& item : s.items(a.items)) m.items.push_back({chunks[item.a].a, item.b, item.op});
      }
      moves.push_back(std::move(m));
    }
  }
  return moves;
}

}  // namespace starnet::algorithms::collectives
