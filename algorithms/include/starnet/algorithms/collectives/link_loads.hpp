#pragma once
/// @file
/// What each directed link carries in a run: every message added with the time it holds its
/// links. On a network of switches (topology/network.hpp) a message holds every link of its route,
/// as the emulator routes it, for its whole transfer (cut-through); on any other topology a message
/// travels between neighbours and holds the one link from its sender to its receiver. A link's
/// busy time is the sum of its messages' times, whatever order they took it in.
///
/// Complexity: O(route length) per message (O(1) on a direct topology, after an O(V) set-up);
/// memory O(links).

#include <starnet/algorithms/collectives/whatif_row.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace starnet::algorithms::collectives {

class LinkTally {
 public:
  /// The links of @p topology: its network's when it is a view of a network of switches, its own
  /// arcs (a link per node and port) otherwise. @p topology must outlive the tally.
  explicit LinkTally(const topology::Topology& topology);
  /// A message of @p packets from @p from to @p to that holds its route for @p busy.
  /// @pre on a direct topology, @p to is a neighbour of @p from.
  void add(topology::NodeId from, topology::NodeId to, const Rational& packets, const Rational& busy);
  /// The links that carried something, the busiest first (most packets, then most messages, then
  /// link id); the first @p most of them. A link is named "a->b" by its ends' node names.
  [[nodiscard]] std::vector<LinkLoad> loads(std::size_t most) const;

 private:
  [[nodiscard]] std::string label(topology::LinkId link) const;

  const topology::Topology& topology_;
  const topology::Network* network_;
  /// Direct topologies: the first link id of each node's ports (link = first_[v] + port).
  std::vector<std::uint64_t> first_;
  std::vector<std::uint64_t> messages_;
  std::vector<Rational> packets_;
  std::vector<Rational> busy_;
  std::vector<topology::LinkId> route_;
};

}  // namespace starnet::algorithms::collectives
