// What each directed link of a network of switches carries in a run (link_loads.hpp).
#include <starnet/algorithms/collectives/link_loads.hpp>

#include <algorithm>
#include <numeric>
#include <tuple>

namespace starnet::algorithms::collectives {

LinkTally::LinkTally(const topology::Network& network)
    : network_(network),
      messages_(network.num_links(), 0),
      packets_(network.num_links(), Rational(0)),
      busy_(network.num_links(), Rational(0)) {}

void LinkTally::add(topology::NodeId from, topology::NodeId to, const Rational& packets, const Rational& busy) {
  route_.clear();
  network_.route(from, to, route_);
  for (const auto l : route_) {
    ++messages_[l];
    packets_[l] += packets;
    busy_[l] += busy;
  }
}

std::vector<LinkLoad> LinkTally::loads(std::size_t most) const {
  std::vector<topology::LinkId> used;
  for (topology::LinkId l = 0; l < messages_.size(); ++l) {
    if (messages_[l] != 0) used.push_back(l);
  }
  const auto busier = [&](topology::LinkId a, topology::LinkId b) {
    if (packets_[a] != packets_[b]) return packets_[b] < packets_[a];
    return std::tie(messages_[b], a) < std::tie(messages_[a], b);
  };
  const auto kept = std::min(most, used.size());
  std::partial_sort(used.begin(), used.begin() + static_cast<std::ptrdiff_t>(kept), used.end(), busier);
  std::vector<LinkLoad> out;
  out.reserve(kept);
  for (std::size_t i = 0; i < kept; ++i) {
    const auto l = used[i];
    out.push_back({network_.link_label(l), messages_[l], packets_[l], busy_[l]});
  }
  return out;
}

}  // namespace starnet::algorithms::collectives
