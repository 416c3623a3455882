#pragma once
/// @file
/// What-if platforms: a topology with failed links and nodes removed, restricted to what a root
/// still reaches, with the link costs of the study.
///
/// Problem: given a topology G = (V, E), failed links F_E and failed nodes F_V, and a root r ∉ F_V,
/// build G' = the connected component of r in (V ∖ F_V, E ∖ F_E, minus links touching F_V), as a
/// Topology the emulator runs: nodes renumbered 0..|V'|−1 in increasing original id, each node's
/// ports in the original port order with the removed ones skipped, names and link names taken
/// from G. A disconnected G'' (nodes alive but unreachable from r) is reported, not hidden:
/// alive_nodes() − num_nodes() of them are left out.
///
/// Faults are named as users name them (`--fail-links 3-17,(0,1)-(0,2)`, `--fail-nodes 2134`):
/// by node name or by index, names first. Random faults fail each undirected link {u, v}
/// independently with probability p, decided by a hash of (seed, u, v): one seed gives the same
/// faults on every machine, and the links failed at p are a subset of those failed at p' > p.
///
/// Random costs: link {u, v} costs k/4 with k = 2 + (hash(seed, u, v) mod 7), i.e. one of
/// 1/2, 3/4, …, 2, the same both ways.
///
/// Complexity: O(V + E) time and memory (E counted in arcs) to build, O(deg v) for port_to(v, ·).
/// A network of switches seen from its hosts without faults (Topology::network()) is read from
/// the base instead: O(V) memory, its own port_to and each link cost computed when asked.
/// IMPORTANT: a Subnetwork refers to its base topology, which must outlive it.

#include <starnet/algorithms/generic/cost_kind.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starnet::algorithms::generic {

using topology::NodeId;
using topology::Port;
using topology::Topology;

/// Most nodes a what-if topology may have (the generic algorithms keep a few words per node and
/// per arc).
inline constexpr NodeId MAX_SUBNETWORK_NODES = NodeId{1} << 20;

/// The time one message of a study takes on each link: 1, the topology's own α–β time
/// latency + message_size·cost, or seeded random (file comment). A Subnetwork's link_cost() is
/// this time and its latency 0, so that the collectives (which send unit messages) and the bounds
/// see the α–β model without knowing it.
///
/// A message of k packets (chunks) takes alpha() + k·per_unit(): unit costs count one step per
/// message whatever its size (alpha 1, per unit 0), the topology's α–β gives α and m/β, random
/// costs their k/4 per packet.
struct LinkCosts {
  CostKind kind = CostKind::UNIT;
  std::uint64_t seed = 0;
  /// Units per message, for CostKind::TOPOLOGY (the m of α + m/β).
  Rational message_size = 1;
  /// CostKind::TOPOLOGY: every link's α and β instead of the topology's own (none: its own).
  std::optional<Rational> latency;
  std::optional<Rational> bandwidth;
  /// The time of a one-packet message: alpha() + per_unit().
  [[nodiscard]] Rational of(const Topology& base, NodeId v, Port port) const;
  [[nodiscard]] Rational alpha(const Topology& base, NodeId v, Port port) const;
  [[nodiscard]] Rational per_unit(const Topology& base, NodeId v, Port port) const;
};

/// Checks the α–β model's latency and bandwidth given for every link.
/// @throws UsageError about Setting{"latency", …} unless α ≥ 0, Setting{"bandwidth", …} unless β > 0.
void check_alpha_beta(const std::optional<Rational>& latency, const std::optional<Rational>& bandwidth);

/// Failed links (as pairs of original node ids) and failed nodes.
struct Faults {
  std::vector<std::pair<NodeId, NodeId>> links;
  std::vector<NodeId> nodes;
  [[nodiscard]] bool empty() const { return links.empty() && nodes.empty(); }
};

/// Splits a comma-separated list, keeping commas inside parentheses: "(0,1)-(0,2), 3-4" gives
/// "(0,1)-(0,2)" and "3-4". Spaces around items and empty items are dropped.
[[nodiscard]] std::vector<std::string> split_list(std::string_view text);

/// The node named @p text (name first, then index 0..N−1), if any.
[[nodiscard]] std::optional<NodeId> find_node(const Topology& topology, std::string_view text);

/// Parses a list of failed nodes. @param what the setting's name, for messages (Setting).
/// @throws UsageError about Setting{what, text}, naming the item and the topology when an item is
/// no node.
[[nodiscard]] std::vector<NodeId> parse_failed_nodes(std::string_view text, const Topology& topology,
                                                     std::string_view what);
/// Parses a list of failed links, items "u-v" (a '-' outside parentheses that splits the item into
/// two nodes; names may contain '-' as long as only one split names two nodes).
/// @throws UsageError about Setting{what, text}, naming the item and the topology when an item is
/// not two nodes, is ambiguous, or when there is no link between the two nodes.
[[nodiscard]] std::vector<std::pair<NodeId, NodeId>> parse_failed_links(std::string_view text, const Topology& topology,
                                                                        std::string_view what);
/// The undirected links {u, v} (u < v) failed by random faults of probability @p p.
/// @pre 0 ≤ p ≤ 1. O(V + E).
[[nodiscard]] std::vector<std::pair<NodeId, NodeId>> random_failed_links(const Topology& topology, double p,
                                                                         std::uint64_t seed);

class Subnetwork final : public Topology {
 public:
  /// @param base the intact topology (must outlive this object).
  /// @param root original id of the root; the result holds what it reaches.
  /// @throws TopologyError naming the base when it has more than MAX_SUBNETWORK_NODES nodes.
  /// @throws UsageError naming the root when it is out of range or among the failed nodes.
  Subnetwork(const Topology& base, const Faults& faults, NodeId root, LinkCosts costs);

  [[nodiscard]] std::string name() const override { return base_.name(); }
  [[nodiscard]] NodeId num_nodes() const override { return nodes_; }
  [[nodiscard]] Port degree(NodeId v) const override {
    return implicit_ ? base_.degree(v) : static_cast<Port>(offsets_[v + 1] - offsets_[v]);
  }
  [[nodiscard]] NodeId neighbor(NodeId v, Port port) const override {
    return implicit_ ? base_.neighbor(v, port) : target_[offsets_[v] + port];
  }
  [[nodiscard]] Port find_port(NodeId v, NodeId u) const override;
  [[nodiscard]] std::string node_name(NodeId v) const override { return base_.node_name(original(v)); }
  [[nodiscard]] std::string link_name(NodeId v, Port port) const override {
    return base_.link_name(original(v), base_port(v, port));
  }
  [[nodiscard]] Rational link_cost(NodeId v, Port port) const override;
  [[nodiscard]] Rational speed(NodeId v) const override { return base_.speed(original(v)); }
  /// The base's network when nothing failed (the same ids); none otherwise: a network's routes do
  /// not avoid failed parts.
  [[nodiscard]] const topology::Network* network() const override { return whole_ ? base_.network() : nullptr; }

  [[nodiscard]] const Topology& base() const { return base_; }
  /// The root, renumbered (its original id is original(root())).
  [[nodiscard]] NodeId root() const { return root_; }
  [[nodiscard]] NodeId original(NodeId v) const { return implicit_ ? v : original_[v]; }
  /// The base topology's port of @p v's port @p port.
  [[nodiscard]] Port base_port(NodeId v, Port port) const {
    return implicit_ ? port : base_port_[offsets_[v] + port];
  }
  /// Nodes of the base that did not fail (reachable from the root or not).
  [[nodiscard]] NodeId alive_nodes() const { return alive_; }
  /// Every alive node is reachable from the root.
  [[nodiscard]] bool connected() const { return alive_ == num_nodes(); }
  /// Every arc u→v has its reverse v→u (as in the undirected families).
  [[nodiscard]] bool symmetric() const { return !asymmetric_arc_; }
  /// An arc without reverse (original ids), when !symmetric().
  [[nodiscard]] std::optional<std::pair<NodeId, NodeId>> asymmetric_arc() const { return asymmetric_arc_; }
  /// Links as users count them: arc pairs when symmetric, arcs otherwise.
  [[nodiscard]] std::uint64_t num_links() const { return symmetric() ? arcs_ / 2 : arcs_; }
  /// The cost every link has, if they all have the same (1 for unit costs and an empty network).
  [[nodiscard]] std::optional<Rational> uniform_cost() const;
  /// The smallest link cost (1 when there is no link).
  [[nodiscard]] Rational min_cost() const;
  /// Whether every link is known to cost alike without reading each: the intact routes of a network
  /// whose links share the study's α and β and whose switches take no time (then O(1) per question).
  [[nodiscard]] bool uniform_by_construction() const { return uniform_.has_value(); }

 private:
  /// The smallest link cost (1 when there is none) and whether every link has it: one walk.
  struct CostRange {
    Rational least;
    bool uniform;
  };
  [[nodiscard]] CostRange cost_range() const;
  [[nodiscard]] std::optional<std::pair<NodeId, NodeId>> find_asymmetric_arc() const;

  const Topology& base_;
  LinkCosts costs_;
  NodeId nodes_ = 0;
  std::uint64_t arcs_ = 0;
  // The intact routes of a network of switches (a complete graph of H² arcs) are read from the
  // base, not copied: fattree:28's 5,488 hosts would hold 30 million arcs (network.hpp).
  bool implicit_ = false;
  std::optional<Rational> uniform_;  // implicit_: every link's cost, when uniform_by_construction()
  std::vector<NodeId> original_;
  std::vector<std::uint64_t> offsets_;
  std::vector<NodeId> target_;
  std::vector<Port> base_port_;
  std::vector<Rational> cost_;  // empty for unit costs
  NodeId root_ = 0;
  NodeId alive_ = 0;
  std::optional<std::pair<NodeId, NodeId>> asymmetric_arc_;
  bool whole_ = false;
};

}  // namespace starnet::algorithms::generic
