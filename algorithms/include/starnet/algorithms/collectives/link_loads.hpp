#pragma once
/// @file
/// What each directed link of a network of switches carries in a run (topology/network.hpp): every
/// message of the run routed as the emulator routes it, its packets and the time it holds each
/// link of its route added up. A message holds its route for its whole transfer (cut-through), so a
/// link's busy time is the sum of its messages' times, whatever order they took it in.
///
/// Complexity: O(route length) per message; memory O(links).

#include <starnet/algorithms/collectives/whatif_row.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <cstddef>
#include <vector>

namespace starnet::algorithms::collectives {

class LinkTally {
 public:
  explicit LinkTally(const topology::Network& network);
  /// A message of @p packets from @p from to @p to that holds its route for @p busy.
  void add(topology::NodeId from, topology::NodeId to, const Rational& packets, const Rational& busy);
  /// The links that carried something, the busiest first (most packets, then most messages, then
  /// link id); the first @p most of them.
  [[nodiscard]] std::vector<LinkLoad> loads(std::size_t most) const;

 private:
  const topology::Network& network_;
  std::vector<std::uint64_t> messages_;
  std::vector<Rational> packets_;
  std::vector<Rational> busy_;
  std::vector<topology::LinkId> route_;
};

}  // namespace starnet::algorithms::collectives
