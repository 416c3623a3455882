#include <starnet/algorithms/collective.hpp>

namespace starnet::algorithms {

std::string to_string(Collective c) {
  switch (c) {
    case Collective::ALLREDUCE: return "allreduce";
    case Collective::REDUCE: return "reduce";
    case Collective::BROADCAST: return "broadcast";
    case Collective::ALLGATHER: return "allgather";
    case Collective::GATHER: return "gather";
    case Collective::SCATTER: return "scatter";
    case Collective::REDUCESCATTER: return "reducescatter";
    case Collective::ALLTOALL: return "alltoall";
  }
  return "?";
}

std::optional<Collective> find_collective(std::string_view text) {
  if (text == "gossip") return Collective::ALLGATHER;
  for (const Collective c : ALL_COLLECTIVES) {
    if (text == to_string(c)) return c;
  }
  return std::nullopt;
}

std::string collective_choices() {
  std::string out;
  for (std::size_t i = 0; i < std::size(ALL_COLLECTIVES); ++i) {
    out += (i == 0 ? "" : i + 1 == std::size(ALL_COLLECTIVES) ? " or " : ", ") + to_string(ALL_COLLECTIVES[i]);
  }
  return out;
}

bool is_rooted(Collective c) {
  return c == Collective::REDUCE || c == Collective::BROADCAST || c == Collective::GATHER || c == Collective::SCATTER;
}

bool is_blocked(Collective c) {
  return c == Collective::ALLGATHER || c == Collective::GATHER || c == Collective::SCATTER ||
         c == Collective::REDUCESCATTER || c == Collective::ALLTOALL;
}

bool reduces(Collective c) {
  return c == Collective::ALLREDUCE || c == Collective::REDUCE || c == Collective::REDUCESCATTER;
}

}  // namespace starnet::algorithms
