#pragma once
/// @file
/// The view of an interconnect that the emulator and the algorithms use: nodes numbered
/// 0..num_nodes()-1, each with ports 0..degree(v)-1 leading to a neighbour. StarGraph answers it
/// implicitly (nothing stored per node or edge); PlatformTopology answers it from a Platform.
///
/// A shape kept for speed: implementations answer find_port() with a plain port (NO_PORT when not
/// linked) and callers get port_to()'s std::optional from the non-virtual wrapper. A virtual
/// returning the optional is stored in parts and read back whole, a store-forwarding stall on
/// every send of a Monte-Carlo run: built that way (GCC 12, -O3, three alternated rounds,
/// 2026-11-26) `starnet_benchmarks --benchmark_filter='TreeDynRun|MonteCarloPoint'` gave
/// 8.44–8.48 µs and 82.3–88.7 ms against 7.50–8.34 µs and 74.5–76.7 ms with this shape.

#include <starnet/core/rational.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starnet::topology {

using NodeId = std::uint64_t;
using Port = std::uint32_t;
/// A directed physical link of a network (network.hpp).
using LinkId = std::uint32_t;

/// The links that messages between a topology's nodes share when the topology is a view of a
/// network of switches (network.hpp, HostNetwork): a message from one node to another holds every
/// link of its route while it travels, and a link carries one message at a time.
class Network {
 public:
  virtual ~Network() = default;
  [[nodiscard]] virtual LinkId num_links() const = 0;
  /// Appends to @p out the links, in order, that a message from @p from to @p to crosses.
  virtual void route(NodeId from, NodeId to, std::vector<LinkId>& out) const = 0;
  /// "a->b", the link's ends.
  [[nodiscard]] virtual std::string link_label(LinkId link) const = 0;
  /// Time a message from @p from to @p to spends crossing switches, on top of its sender's α (the
  /// α–β model's latency, which every link is given alike with `--latency`).
  [[nodiscard]] virtual Rational switching_time(NodeId from, NodeId to) const = 0;
  /// Whether switching_time() is 0 for every pair (no switch latency): routes then cost alike
  /// wherever the links do, which the what-if study reads once instead of per route.
  [[nodiscard]] virtual bool switching_free() const = 0;
};

class Topology {
 public:
  virtual ~Topology() = default;
  /// The spec or file this topology came from, e.g. "star:5".
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual NodeId num_nodes() const = 0;
  /// Number of outgoing ports of @p v (its out-degree).
  [[nodiscard]] virtual Port degree(NodeId v) const = 0;
  /// The node reached from @p v through @p port. @pre port < degree(v).
  [[nodiscard]] virtual NodeId neighbor(NodeId v, Port port) const = 0;
  /// The port of @p v that leads to @p u, if they are linked.
  [[nodiscard]] std::optional<Port> port_to(NodeId v, NodeId u) const {
    const Port p = find_port(v, u);
    return p == NO_PORT ? std::nullopt : std::optional<Port>(p);
  }
  static constexpr Port NO_PORT = ~Port{0};
  /// port_to() as implementations answer it: NO_PORT when @p v and @p u are not linked (see the
  /// note at the top of this file).
  [[nodiscard]] virtual Port find_port(NodeId v, NodeId u) const = 0;
  /// The port of neighbor(@p v, @p port) that leads back to @p v: where a message sent through
  /// @p port comes in, the port to reply on; NO_PORT when the link is one-way. Star graphs answer
  /// in O(1) (a dimension is the same port at both ends), others by find_port().
  [[nodiscard]] virtual Port back_port(NodeId v, Port port) const { return find_port(neighbor(v, port), v); }
  /// A name for messages and traces: the permutation label on a star graph, the node name on a
  /// platform.
  [[nodiscard]] virtual std::string node_name(NodeId v) const = 0;
  /// A name for the link behind a port: "link 3" (dimension) on a star graph, "a->b" elsewhere.
  [[nodiscard]] virtual std::string link_name(NodeId v, Port port) const = 0;
  /// Time to send one unit-size message through @p port (1 unless the platform says otherwise).
  [[nodiscard]] virtual Rational link_cost(NodeId v, Port port) const = 0;
  /// α of the link behind @p port: a transfer of m units takes link_latency + m·link_cost.
  [[nodiscard]] virtual Rational link_latency(NodeId /*v*/, Port /*port*/) const { return 0; }
  /// Unit tasks per time unit computed by @p v (1 unless the platform says otherwise).
  [[nodiscard]] virtual Rational speed(NodeId v) const = 0;
  /// The links this topology's messages share, when it is a view of a network of switches (whose
  /// ports are routes, not links); null for a topology whose ports are its links.
  [[nodiscard]] virtual const Network* network() const { return nullptr; }
};

}  // namespace starnet::topology
