#pragma once
/// @file
/// Platform: an arbitrary weighted, possibly asymmetric interconnect as a Boost.Graph
/// adjacency_list with bundled properties (docs/architecture.md, "topology/").
///
/// A node has a unique name, a role (a processor computes and takes part in collectives, a
/// router only forwards) and a speed (unit tasks per time unit; a task takes 1/speed). A link is
/// a directed arc with a cost and a latency: m units take latency + m·cost (α + m/β; latency 0
/// unless a file gives one). An undirected family
/// stores both arcs of every link and says so in `directed() == false`.
///
/// IMPORTANT: a Platform holds what it is given; validate() checks the invariants (unique
/// non-empty names, costs and speeds > 0, latencies ≥ 0, no self-loops, no parallel arcs, and in an undirected
/// platform every arc paired with its reverse of the same cost and dimension) and the file
/// readers and generators call it.

#include <starnet/core/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace starnet::topology {

enum class Role { PROCESSOR, ROUTER };
[[nodiscard]] std::string to_string(Role role);
/// @throws TopologyError naming @p what when @p text is not "processor" or "router".
[[nodiscard]] Role parse_role(std::string_view text, std::string_view what);

struct NodeProperties {
  std::string name;
  Role role = Role::PROCESSOR;
  Rational speed = 1;
  /// Permutation label when the platform is a materialised star graph, empty otherwise.
  std::string label;
};

struct LinkProperties {
  /// Time per unit of message: 1/β in the α–β (Hockney) model, so that m units take
  /// latency + m·cost.
  Rational cost = 1;
  /// Dimension of the link: k (2..n) in a star graph S_n, the flipped bit plus one (1..D) in a
  /// hypercube, 0 elsewhere.
  int dimension = 0;
  /// α, the time a transfer takes whatever its size (0: the linear model of the papers). Last, so
  /// that {cost, dimension} initialisers keep their meaning.
  Rational latency = 0;
};

using PlatformGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, NodeProperties,
                                            LinkProperties>;

class Platform {
 public:
  using vertex_descriptor = boost::graph_traits<PlatformGraph>::vertex_descriptor;
  using edge_descriptor = boost::graph_traits<PlatformGraph>::edge_descriptor;

  /// @param name the spec or file the platform comes from. @param directed whether the links are
  /// one-way arcs (true) or every link is stored as two arcs of one undirected link (false).
  explicit Platform(std::string name = "platform", bool directed = true);

  /// Adds a node. @throws TopologyError if the name is empty or already used.
  vertex_descriptor add_node(NodeProperties props);
  /// Adds the arc u→v, and v→u too when the platform is undirected.
  /// @throws TopologyError on a self-loop, a duplicate arc, or a cost ≤ 0.
  void add_link(vertex_descriptor u, vertex_descriptor v, LinkProperties props = {});
  /// Reorders every node's ports (its out-arcs, in the order ports number them) by @p rank of
  /// (node, neighbour), lower first, ties kept in order: a family whose ports mean something at
  /// every node (a ring's port 0 toward i + 1) sets them so. O(arcs log degree).
  void order_ports(const std::function<std::uint64_t(vertex_descriptor v, vertex_descriptor u)>& rank);
  /// The node called @p name, if any.
  [[nodiscard]] std::optional<vertex_descriptor> find(std::string_view name) const;
  /// The node called @p name. @throws TopologyError naming it and @p what otherwise.
  [[nodiscard]] vertex_descriptor at(std::string_view name, std::string_view what) const;

  /// Checks the invariants listed in the file comment. @throws TopologyError naming the culprit.
  void validate() const;

  [[nodiscard]] const PlatformGraph& graph() const { return graph_; }
  [[nodiscard]] PlatformGraph& graph() { return graph_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  [[nodiscard]] bool directed() const { return directed_; }
  [[nodiscard]] std::size_t num_nodes() const { return boost::num_vertices(graph_); }
  /// Links as the user counts them: arcs when directed, arc pairs when undirected.
  [[nodiscard]] std::size_t num_links() const;

 private:
  PlatformGraph graph_;
  std::string name_;
  bool directed_;
  std::unordered_map<std::string, vertex_descriptor> by_name_;
};

/// Compares two platforms by node name, whatever their node order (a DOT file read back lists
/// its nodes in another order than the platform it was written from).
/// @return std::nullopt when both have the same directedness, the same nodes (name, role, speed,
/// label) and the same arcs (end names, cost, latency, dimension); otherwise a sentence naming the first
/// difference found. O((V + E) log V).
[[nodiscard]] std::optional<std::string> difference(const Platform& a, const Platform& b);

/// The emulator's view of a Platform: port p of v is v's p-th out-arc in insertion order.
/// Shares ownership of the platform, which it never modifies and which must not change while
/// viewed: the arcs' targets are copied into one flat array when the view is made, so that
/// neighbor() and find_port(), asked once per message, read contiguous memory (4 bytes an arc)
/// rather than each node's Boost edge list.
class PlatformTopology final : public Topology {
 public:
  /// @pre @p platform is not null.
  explicit PlatformTopology(std::shared_ptr<const Platform> platform);
  explicit PlatformTopology(Platform platform);
  [[nodiscard]] std::string name() const override { return platform_->name(); }
  [[nodiscard]] NodeId num_nodes() const override { return platform_->num_nodes(); }
  [[nodiscard]] Port degree(NodeId v) const override;
  [[nodiscard]] NodeId neighbor(NodeId v, Port port) const override;
  [[nodiscard]] Port find_port(NodeId v, NodeId u) const override;
  [[nodiscard]] std::string node_name(NodeId v) const override;
  [[nodiscard]] std::string link_name(NodeId v, Port port) const override;
  [[nodiscard]] Rational link_cost(NodeId v, Port port) const override;
  [[nodiscard]] Rational link_latency(NodeId v, Port port) const override;
  [[nodiscard]] Rational speed(NodeId v) const override;
  [[nodiscard]] const Platform& platform() const { return *platform_; }

 private:
  [[nodiscard]] Platform::edge_descriptor arc(NodeId v, Port port) const;
  std::shared_ptr<const Platform> platform_;
  std::vector<std::uint64_t> first_arc_;  // v's out-arcs are targets_[first_arc_[v] .. first_arc_[v + 1])
  std::vector<NodeId> targets_;
};

}  // namespace starnet::topology
