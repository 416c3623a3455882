#pragma once
/// @file
/// A platform with routers seen from its hosts (docs/whatif.md, "The network model"): the
/// processors, each of which addresses any other, and the directed links their messages share.
///
/// Switches are non-blocking crossbars: a switch forwards on all its links at once and buffers
/// nothing, so a host-to-host message holds every directed link of its route for the whole
/// transfer (cut-through: the sender's α once, a switch latency per switch crossed, M/β once), and
/// two messages contend only where they want one directed link. The emulator's arbiter checks the
/// links as it checks ports (emulator/src/arbiter.hpp): a message whose route is not free waits at
/// its sender.
///
/// Routes (Routing), each a function of (source, destination, seed) alone — a flow keeps its path:
///   - MINIMAL: on a fat-tree, up/down with the up-link chosen D-mod-K: towards destination host d,
///     aggregation switch j = d mod (k/2) of the pod, core j·k/2 + ⌊d/(k/2)⌋ mod (k/2), so that a
///     shift of the linear placement (ring, recursive doubling) crosses every link once at most; on
///     a dragonfly, local–global–local through the one global link between the two groups; on any
///     other platform a shortest path in hops, each hop to the neighbour one hop nearer reached by
///     the lowest port.
///   - ECMP: a shortest path as well, the choice among equal-cost next hops made at every switch by
///     a hash of (source, destination, seed), as switches hash flows.
///   - VALIANT: through an intermediate drawn by the same hash — a core switch on a fat-tree, a
///     group other than both ends' on a dragonfly — minimal to it and minimal on.
///
/// Placement: rank i of the collective runs on host placement[i] (linear: host i; random: a seeded
/// permutation), since where ranks sit decides which of their messages meet on a link.
///
/// Complexity: a route is O(its length) on fat-trees and dragonflies, and O(length · degree)
/// elsewhere, from hop distances to every host computed once (O(H·(V + E)) time, H·V bytes·2).
/// IMPORTANT: routes never pass through a host; a platform whose hosts reach one another only
/// through other hosts is refused.

#include <starnet/core/rational.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::topology {

enum class Routing : std::uint8_t { MINIMAL, ECMP, VALIANT };
/// "minimal", "ecmp" or "valiant".
[[nodiscard]] std::string to_string(Routing routing);
/// @throws UsageError about @p setting for any other text.
[[nodiscard]] Routing parse_routing(std::string_view text, std::string_view setting = "routing");

/// How a switch passes a message on: CUT_THROUGH (the crossbar model above: the message holds its
/// whole route, α once, M/β once) or STORE_AND_FORWARD (every hop a transfer of its own: switches are
/// relays under the port model, the platform's routed trees).
enum class Forwarding : std::uint8_t { CUT_THROUGH, STORE_AND_FORWARD };
/// "cut-through" or "store-and-forward".
[[nodiscard]] std::string to_string(Forwarding forwarding);
/// @throws UsageError about @p setting for any other text.
[[nodiscard]] Forwarding parse_forwarding(std::string_view text, std::string_view setting = "forwarding");

/// The host a rank runs on. "linear" (rank i on host i) or "random:SEED" (a seeded permutation).
struct Placement {
  bool random = false;
  std::uint64_t seed = 0;
  [[nodiscard]] std::string to_string() const;
};
/// @throws UsageError about @p setting for anything but "linear" or "random:SEED".
[[nodiscard]] Placement parse_placement(std::string_view text, std::string_view setting = "placement");

/// How hosts reach one another through the switches.
struct NetworkOptions {
  Routing routing = Routing::MINIMAL;
  /// The hash of ECMP and Valiant's intermediates.
  std::uint64_t seed = 1;
  Placement placement;
  /// Time a message spends crossing one switch (cut-through), ≥ 0.
  Rational switch_latency = 0;
};

/// Most hosts × nodes the hop tables of a platform without a family's routing may hold.
inline constexpr std::uint64_t MAX_ROUTE_TABLE_ENTRIES = std::uint64_t{1} << 28;

class HostNetwork final : public Topology, public Network {
 public:
  /// @throws TopologyError when @p platform has fewer than two processors, when a processor cannot
  /// reach another through routers, or its route tables would exceed MAX_ROUTE_TABLE_ENTRIES;
  /// UsageError about "routing" for Valiant routing on a platform that is neither a fat-tree nor a
  /// dragonfly.
  HostNetwork(std::shared_ptr<const Platform> platform, NetworkOptions options);

  // Topology: the complete graph on the hosts (ranks), port p of rank i leading to rank p < i ? p : p + 1.
  [[nodiscard]] std::string name() const override { return platform_->name(); }
  [[nodiscard]] NodeId num_nodes() const override { return ranks_; }
  [[nodiscard]] Port degree(NodeId) const override { return static_cast<Port>(ranks_ - 1); }
  [[nodiscard]] NodeId neighbor(NodeId v, Port port) const override { return port < v ? port : port + NodeId{1}; }
  [[nodiscard]] Port find_port(NodeId v, NodeId u) const override {
    if (u == v || u >= ranks_) return NO_PORT;
    return static_cast<Port>(u < v ? u : u - 1);
  }
  [[nodiscard]] std::string node_name(NodeId v) const override;
  /// "h0_0_0=>h1_0_0": a route through the network, not one link.
  [[nodiscard]] std::string link_name(NodeId v, Port port) const override;
  /// Cut-through: the route's largest cost per unit (its bottleneck link).
  [[nodiscard]] Rational link_cost(NodeId v, Port port) const override;
  /// Cut-through: the first link's latency (the sender's α) and the switch latency per switch crossed.
  [[nodiscard]] Rational link_latency(NodeId v, Port port) const override;
  [[nodiscard]] Rational speed(NodeId v) const override;
  [[nodiscard]] const Network* network() const override { return this; }

  // Network: the platform's arcs, link id = the arc's position among all out-arcs in node order.
  [[nodiscard]] LinkId num_links() const override { return static_cast<LinkId>(offsets_.back()); }
  void route(NodeId from, NodeId to, std::vector<LinkId>& out) const override;
  [[nodiscard]] std::string link_label(LinkId link) const override;
  /// The switch latency per switch the route crosses.
  [[nodiscard]] Rational switching_time(NodeId from, NodeId to) const override;
  [[nodiscard]] bool switching_free() const override { return options_.switch_latency == 0; }

  /// The platform node of rank @p v.
  [[nodiscard]] NodeId host(NodeId v) const { return hosts_[v]; }
  [[nodiscard]] const Platform& platform() const { return *platform_; }
  [[nodiscard]] const NetworkOptions& options() const { return options_; }
  /// The platform nodes, in order, that a message from rank @p from to rank @p to crosses.
  [[nodiscard]] std::vector<NodeId> path(NodeId from, NodeId to) const;
  /// The levels of the network's hierarchy, outermost first, whose mixed radix numbers the hosts
  /// in platform order: a fat-tree's pods, edge switches of a pod and hosts of an edge switch; a
  /// dragonfly's groups, routers of a group and hosts of a router. Empty on other platforms.
  [[nodiscard]] std::vector<NodeId> hierarchy() const;
  /// What each level of hierarchy() is, in its order ("pods", "edge switches", "hosts" on a
  /// fat-tree; "groups", "routers", "hosts" on a dragonfly). Empty on other platforms.
  [[nodiscard]] std::vector<std::string_view> hierarchy_names() const;
  /// The rank that runs on the @p index-th host in platform order (the placement's inverse).
  [[nodiscard]] NodeId rank_at(NodeId index) const { return rank_at_[index]; }

 private:
  enum class Family : std::uint8_t { FATTREE, DRAGONFLY, OTHER };
  void fattree_path(NodeId s, NodeId d, std::uint64_t hash, std::vector<NodeId>& nodes) const;
  void dragonfly_path(NodeId s, NodeId d, std::uint64_t hash, std::vector<NodeId>& nodes) const;
  void table_path(NodeId s, NodeId d, std::uint64_t hash, std::vector<NodeId>& nodes) const;
  void build_tables(const std::vector<NodeId>& platform_hosts);
  [[nodiscard]] LinkId arc_id(NodeId u, NodeId v) const;
  [[nodiscard]] std::uint64_t flow_hash(NodeId from, NodeId to) const;

  std::shared_ptr<const Platform> platform_;
  PlatformTopology view_;
  NetworkOptions options_;
  Family family_ = Family::OTHER;
  std::uint64_t arity_ = 0;    // fat-tree: k/2; dragonfly: routers per group
  std::uint64_t per_router_ = 0;  // dragonfly: hosts per router
  std::uint64_t globals_ = 0;     // dragonfly: global links per router
  DragonflyShape dragonfly_;      // dragonfly: its shape and arrangement
  NodeId ranks_ = 0;
  std::vector<NodeId> hosts_;         // rank → platform node
  std::vector<NodeId> host_index_;    // platform node → index among the hosts (platform order)
  std::vector<NodeId> rank_at_;       // index among the hosts → rank
  std::vector<std::uint64_t> offsets_;  // first link id of each platform node's out-arcs; back(): all
  std::vector<std::uint16_t> hops_;   // OTHER: hops_[h·V + x], hops from x to host h (platform order)
};

}  // namespace starnet::topology
