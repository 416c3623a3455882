#pragma once
/// @file
/// Size, degrees and hop distances of a topology (`starnet topo info` / `topo compare`).
///
/// Problem: node and link counts, out-degree range, and the hop distance d(u, v) of every ordered
/// pair — along arcs when the platform is directed, link costs ignored — summarised as the
/// distance histogram h[d] = #{(u, v) : d(u, v) = d} (h[0] = number of nodes), the diameter
/// max d(u, v) and the average distance Σ_{u≠v} d(u, v) / #{(u, v) : u ≠ v, v reachable from u}.
///
/// Method: a vertex-transitive graph looks the same from every node, so one breadth-first search
/// from node 0 gives every node's distance distribution and h = V × that distribution
/// (DistanceMethod::ONE_BFS_VERTEX_TRANSITIVE, O(V + E)); any other platform gets one BFS per
/// node (ALL_PAIRS_BFS, O(V·(V + E)), refused above MAX_ALL_PAIRS_WORK). Star graphs are searched
/// on the implicit StarGraph with boost::breadth_first_search, a two-bit colour map and one byte
/// of distance per node (3 bits of memory per node in all, plus the BFS queue): S_10 in about
/// 0.6 s, S_11 (39,916,800 nodes) in well under 1 GiB (tests/topology/properties_benchmark.cpp).
/// The mesh-connected trees mct:D:L (families.hpp) are never built: a distance in a Cartesian
/// product is the sum of the distances in its coordinates, so h is the D-fold convolution of the
/// histogram of one tree T_L, itself from one BFS per level (the automorphisms of T_L map any node
/// to any other of its level), and sizes and degrees are sums and products of the tree's
/// (DistanceMethod::PRODUCT_OF_FACTORS, O(L·2^L + D²·L²)); this is how mct:6:3 (117,649 nodes,
/// beyond MAX_PLATFORM_NODES) is measured.
///
/// The pancake, bubble-sort, transposition, (n,k)-star and arrangement graphs (arrangement_graph.hpp)
/// are vertex-transitive too and searched the same way without a platform: one byte of distance
/// per node, a queue of 32-bit ranks, each node's label decoded once and its neighbours ranked
/// from the label (O(V·d·n) for degree d), up to MAX_ARRANGEMENT_BFS_NODES nodes
/// (pancake:10, bubblesort:10, nkstar:12:6). A fat-tree is not vertex-transitive, but its nodes
/// fall into four orbits (hosts, edge, aggregation, core switches: families.hpp, fattree_orbits()),
/// and one BFS per orbit, weighted by its size, gives every distance
/// (DistanceMethod::ONE_BFS_PER_ORBIT). Distances are over all ordered pairs of nodes, routers
/// included, as for every platform with routers (tiers:SEED); a fat-tree's hosts are 2, 4 or 6
/// links apart, and its diameter, 6, is a host-to-host distance.
///
/// IMPORTANT: the caller vouches for vertex-transitivity when it asks for ONE_BFS_VERTEX_TRANSITIVE
/// (families.hpp: is_vertex_transitive()) and for the orbits it passes; nothing checks them.

#include <starnet/core/rational.hpp>
#include <starnet/topology/arrangement_graph.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/platform.hpp>
#include <starnet/topology/star_graph.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::topology {

enum class DistanceMethod { ONE_BFS_VERTEX_TRANSITIVE, ALL_PAIRS_BFS, PRODUCT_OF_FACTORS, ONE_BFS_PER_ORBIT };
/// "one-bfs-vertex-transitive", "all-pairs-bfs", "product-of-factors" or "one-bfs-per-orbit".
[[nodiscard]] std::string to_string(DistanceMethod method);

/// Most BFS steps, V·(V + E), an all-pairs search may take: about 2.5·10^8 steps run per second
/// here (BM_AllPairsBfs), so the limit is about ten seconds (debruijn:14 fits, debruijn:15 not).
inline constexpr std::uint64_t MAX_ALL_PAIRS_WORK = std::uint64_t{1} << 31;
/// Largest star graph searched: S_11 takes about 12 s and 110 MiB; S_12 would take minutes and
/// more than 1 GiB (479,001,600 nodes), so it is refused.
inline constexpr int MAX_STAR_BFS_N = 11;

/// Largest graph of arrangements searched: 10! nodes (pancake:10 and bubblesort:10 in about a
/// second, transposition:10 in a few).
inline constexpr std::uint64_t MAX_ARRANGEMENT_BFS_NODES = 3'628'800;

struct TopologyProperties {
  std::string name;
  /// Computed on an implicit graph (StarGraph, ArrangementGraph) rather than on a Platform.
  bool implicit = false;
  /// What the implicit graph is, for people: "star graph", "pancake graph"; empty for a platform.
  std::string implicit_graph;
  bool directed = false;
  std::uint64_t nodes = 0;
  /// Undirected links, or arcs when directed.
  std::uint64_t links = 0;
  std::uint64_t processors = 0;
  /// Out-degree range (the degree of an undirected graph).
  std::uint32_t degree_min = 0;
  std::uint32_t degree_max = 0;
  /// h[d]: ordered pairs (u, v) at distance d; h[0] = nodes.
  std::vector<std::uint64_t> distance_histogram;
  /// Ordered pairs (u, v) with no path from u to v.
  std::uint64_t unreachable_pairs = 0;
  DistanceMethod method = DistanceMethod::ALL_PAIRS_BFS;

  /// Largest distance, or std::nullopt when a pair is unreachable (the diameter is infinite).
  [[nodiscard]] std::optional<std::uint32_t> diameter() const;
  /// Average distance over reachable ordered pairs u ≠ v, exactly; 0 when there is none.
  [[nodiscard]] Rational average_distance() const;
};

/// Properties of S_n from one BFS on the implicit graph. O(n!·n), 3 bits per node plus the queue.
/// @throws TopologyError naming star:n when n > MAX_STAR_BFS_N.
[[nodiscard]] TopologyProperties star_graph_properties(const StarGraph& g);

/// Properties of a pancake, bubble-sort, transposition, (n,k)-star or arrangement graph from one
/// BFS on the implicit graph. O(V·d·n), 5 bytes per node.
/// @throws TopologyError naming the graph when it has more than MAX_ARRANGEMENT_BFS_NODES nodes.
[[nodiscard]] TopologyProperties arrangement_graph_properties(const ArrangementGraph& g);

/// Properties of a platform from one BFS per orbit (ONE_BFS_PER_ORBIT): orbit i's representative
/// sees what each of its size nodes sees. O(#orbits·(V + E)).
/// @pre the orbits partition the nodes and are orbits of the platform's automorphisms (nothing
/// checks it; fattree_orbits() gives a fat-tree's).
[[nodiscard]] TopologyProperties orbit_properties(const Platform& platform, std::span<const NodeOrbit> orbits);

/// Properties of a platform. @param method ONE_BFS_VERTEX_TRANSITIVE only for a vertex-transitive
/// platform (see the file comment). @throws TopologyError naming the platform when
/// ALL_PAIRS_BFS would exceed MAX_ALL_PAIRS_WORK, or when @p method is PRODUCT_OF_FACTORS (a spec's
/// method: topology_properties()).
[[nodiscard]] TopologyProperties platform_properties(const Platform& platform, DistanceMethod method);

/// BFS work (nodes and arcs visited) of host_properties() on @p platform: hosts × (V + arcs).
[[nodiscard]] std::uint64_t host_distance_work(const Platform& platform);

/// Distances among the processors of a platform with routers, over paths whose inner nodes are
/// routers (the routes of topology/network.hpp: a host relays nothing): `nodes` and `processors`
/// are the hosts, the histogram counts ordered host pairs, links and degrees are 0 (no graph of
/// its own). std::nullopt without routers (the platform's own distances are the hosts').
/// O(hosts·(V + E)), V distances of 4 bytes.
/// @throws TopologyError naming the platform when host_distance_work() exceeds MAX_ALL_PAIRS_WORK.
[[nodiscard]] std::optional<TopologyProperties> host_properties(const Platform& platform);

/// Properties of the topology a spec names: star:N on the implicit StarGraph (N ≤ 12), the graphs
/// of arrangements on ArrangementGraph, mct:D:L from one tree (PRODUCT_OF_FACTORS, up to
/// MAX_MCT_NODES nodes), fattree:K by orbits (ONE_BFS_PER_ORBIT), any other spec on
/// make_platform(spec), with one BFS when is_vertex_transitive(spec).
/// @throws TopologyError as make_platform() and platform_properties().
///
/// @code
///   const auto p = topology_properties("star:5");  // 120 nodes, degree 4, diameter 6
///   p.average_distance();                          // 26/7, exactly
/// @endcode
[[nodiscard]] TopologyProperties topology_properties(std::string_view spec);

}  // namespace starnet::topology
