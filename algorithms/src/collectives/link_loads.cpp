// What each directed link carries in a run (link_loads.hpp).
#include <starnet/algorithms/collectives/link_loads.hpp>

#include <starnet/core/error.hpp>

#include <algorithm>
#include <numeric>
#include <tuple>

namespace starnet::algorithms::collectives {
namespace {

/// The first link id of each node's ports on a direct topology; the last entry is the link count.
std::vector<std::uint64_t> port_offsets(const topology::Topology& t) {
  std::vector<std::uint64_t> first(t.num_nodes() + 1, 0);
  for (topology::NodeId v = 0; v < t.num_nodes(); ++v) first[v + 1] = first[v] + t.degree(v);
  return first;
}

}  // namespace

LinkTally::LinkTally(const topology::Topology& topology)
    : topology_(topology),
      network_(topology.network()),
      first_(network_ != nullptr ? std::vector<std::uint64_t>() : port_offsets(topology)) {
  const std::uint64_t links = network_ != nullptr ? network_->num_links() : first_.back();
  messages_.assign(links, 0);
  packets_.assign(links, Rational(0));
  busy_.assign(links, Rational(0));
}

void LinkTally::add(topology::NodeId from, topology::NodeId to, const Rational& packets, const Rational& busy) {
  route_.clear();
  if (network_ != nullptr) {
    network_->route(from, to, route_);
  } else {
    const auto port = topology_.find_port(from, to);
    STARNET_ASSERT(port != topology::Topology::NO_PORT);
    route_.push_back(static_cast<topology::LinkId>(first_[from] + port));
  }
  for (const auto l : route_) {
    ++messages_[l];
    packets_[l] += packets;
    busy_[l] += busy;
  }
}

std::string LinkTally::label(topology::LinkId link) const {
  if (network_ != nullptr) return network_->link_label(link);
  const auto v = static_cast<topology::NodeId>(std::upper_bound(first_.begin(), first_.end(), link) - first_.begin() - 1);
  const auto port = static_cast<topology::Port>(link - first_[v]);
  return topology_.node_name(v) + "->" + topology_.node_name(topology_.neighbor(v, port));
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
    out.push_back({label(l), messages_[l], packets_[l], busy_[l]});
  }
  return out;
}

}  // namespace starnet::algorithms::collectives
