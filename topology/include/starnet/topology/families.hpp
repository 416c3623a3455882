#pragma once
/// @file
/// Topology families for what-if studies, and the two entry points that turn a spec
/// (spec.hpp, docs/topology.md) into a model: make_platform() and make_topology().
///
/// | spec                | nodes (names)                             | links                              |
/// |---------------------|-------------------------------------------|------------------------------------|
/// | star:N   (N ≤ 8)    | N! permutation labels "2134", label set   | swap of symbols 1 and k, dim = k   |
/// | pancake:N (N ≤ 8)   | N! permutation labels, label set          | reversal of the first i symbols    |
/// | bubblesort:N (N ≤ 8)| N! permutation labels, label set          | swap of adjacent positions         |
/// | transposition:N     | N! permutation labels, label set (N ≤ 8)  | swap of any two positions          |
/// | nkstar:N:K          | N!/(N−K)! arrangements "153" (K of N)     | swap of positions 1 and i; new 1st |
/// | arrangement:N:K     | N!/(N−K)! arrangements "153"              | one position changed               |
/// | hypercube:D         | 2^D bit strings "0110" (bit 0 rightmost)  | flip of bit i, dimension = i + 1   |
/// | debruijn:D          | 2^D bit strings                           | x — (2x + b) mod 2^D, b ∈ {0, 1}   |
/// | complete:N          | "0".."N-1"                                | every pair                         |
/// | ring:N              | "0".."N-1"                                | i — (i + 1) mod N                  |
/// | torus:AxBx…         | "(i,j,k)" (one side: "0".."A-1")          | product of ring:A, ring:B, …       |
/// | mesh:AxBx…          | "(i,j,k)" (one side: "0".."A-1")          | product of paths of A, B, … nodes  |
/// | mct:D:L             | "(1,3,2)": heap index of each tree's node | product of D trees of L levels     |
/// | product:S1*S2[*S3…] | "(a,b)" from the factors' names           | one factor's link, others fixed    |
/// | fattree:K           | hosts "h0_1_0", routers "e0_1" "a0_1" "c3"| k-ary fat-tree (below)             |
/// | dragonfly:A:P:H     | hosts "h2_1_0", routers "r2_1"            | groups of A routers (below)        |
/// | tiers:SEED          | "p0".. procs, "wan0".., "man0".. routers  | random WAN/MAN/LAN tree            |
///
/// The five families of permutations and arrangements are defined, with their sources, in
/// arrangement_graph.hpp; their properties are computed without a platform (properties.hpp).
///
/// Fat-tree (Al-Fares, Loukissas, Vahdat, "A scalable, commodity data center network
/// architecture", SIGCOMM 2008, Section 3): built from switches of K ports, K even. K pods, each of
/// K/2 edge and K/2 aggregation switches; (K/2)² core switches; K³/4 hosts. Host h of edge switch e
/// of pod p is "hp_e_h" (a processor), linked to edge switch "ep_e" (a router); each edge switch is
/// linked to the K/2 aggregation switches "ap_j" of its pod; aggregation switch j of every pod is
/// linked to core switches "c(j·K/2)" … "c(j·K/2 + K/2 − 1)", the core's group j. Hosts, edge,
/// aggregation and core switches come in that order. Two hosts are 2, 4 or 6 links apart (same
/// edge switch, same pod, other pod).
///
/// Dragonfly (Kim, Dally, Scott, Abts, "Technology-driven, highly-scalable dragonfly topology",
/// ISCA 2008, Section 3): G = A·H + 1 groups of A routers, the routers of a group linked each to
/// each; P hosts on each router; H global links per router, so that each group has A·H global
/// links, exactly one to every other group. Host i of router r of group g is "hg_r_i" (a
/// processor), the router "rg_r" (a router); hosts first, then routers. Which router of a group
/// carries which global link is the arrangement (Hastings et al., "Comparing global link
/// arrangements for Dragonfly networks", IEEE Cluster 2015, name them; GlobalArrangement below):
/// by default the *absolute* one, where the global ports t = r·H + j of group g (router r, its
/// j-th global link) lead, in this order, to the other groups in increasing order, skipping g:
/// port t to group t if t < g, to group t + 1 otherwise; dragonfly:A:P:H:relative and
/// dragonfly:A:P:H:circulant name the others.
/// Minimal routes take at most one global link: routers are at most 3 links apart (local,
/// global, local; 1 when A = 1) and hosts at most 5.
///
///
/// Families are undirected simple graphs with unit costs and speeds (tiers: random exact costs and
/// speeds) and all nodes processors (tiers: WAN/MAN routers). Where a family's rule produces a
/// self-loop or the same link twice (debruijn at 0…0, 1…1 and 0101…; ring:1, ring:2; torus with
/// a side of 2), the self-loop is dropped and the duplicates merged into one link: the binary
/// de Bruijn graph D_n therefore has degrees 2..4, the "degree 4" of Oh–Choi–Primeaux Table 1
/// being its maximum.
///
/// Node order (the NodeId of PlatformTopology) is the order of the table: star by permutation rank
/// (as StarGraph), bit strings by value, products in mixed radix with the first factor most
/// significant. Star and hypercube links are added dimension by dimension, so port p of a node
/// is link k = p + 2 (star, as in StarGraph) or dimension p + 1 (hypercube).
///
/// Mesh-connected trees (Efe, Fernández, "Computational properties of mesh connected trees:
/// versatile architecture for parallel computation", ICPP 1994, the [5] of Oh–Choi–Primeaux 2005;
/// "Mesh-connected trees: a bridge between grids and meshes of trees", IEEE TPDS 7(12), 1996):
/// MCT is the Cartesian product of two complete binary trees; mct:D:L is the D-dimensional product
/// of D copies of the complete binary tree T_L with L levels (2^L − 1 nodes, height L − 1), so that
/// mct:4:3 and mct:6:3 are the MCT_4(3) and MCT_6(3) of Table 1. Node i of T_L (heap order,
/// 1..2^L−1) has children 2i and 2i + 1; mct:1:L is T_L itself, nodes "1".."2^L−1". For L ≥ 3
/// degrees run from D (every coordinate a leaf) to 3D (every coordinate inner and not the root;
/// 2D for L = 2), and the diameter is 2D(L − 1) (leftmost to rightmost leaf in every tree). The
/// definition is the one the literature cites these papers for; we could not read them. Table 1's degree 12 and 18 are
/// the maximum 3D and its diameters 16 and 24 are 2D(L − 1); its sizes 81 and 729 are 3^D, not
/// the (2^3 − 1)^D = 2,401 and 117,649 nodes of the product (docs/topology.md).
///
/// Tiers (Calvert, Doar, Zegura, "Modeling Internet topology", IEEE Comm. Magazine 1997) is the
/// generator behind Figure 9 of Legrand, Marchal, Robert 2004 (15 nodes, 8 LAN processors); see
/// tiers_platform().
///
/// Complexity: O(V + E) per family (arrangement graphs: O(V·(n + E/V·n))). A Platform is limited to MAX_PLATFORM_NODES nodes and
/// MAX_PLATFORM_LINKS links; star graphs beyond star:8 are served by the implicit StarGraph.
///
/// IMPORTANT: is_vertex_transitive() and fattree_orbits() trust the family's mathematics; they never
/// inspect a platform (is_vertex_transitive() says false for files, tiers, fat-trees and dragonflies).

#include <starnet/topology/platform.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::topology {

/// Most nodes and links a Platform built by make_platform() may have.
inline constexpr std::uint64_t MAX_PLATFORM_NODES = 65'536;
inline constexpr std::uint64_t MAX_PLATFORM_LINKS = 1'048'576;
/// Largest star graph materialised as a Platform (S_8: 40,320 nodes; S_9 has 362,880).
inline constexpr int MAX_STAR_PLATFORM_N = 8;
/// Largest D of hypercube:D and debruijn:D (2^16 = MAX_PLATFORM_NODES nodes).
inline constexpr int MAX_CUBE_D = 16;
/// Largest N of complete:N (1448·1447/2 links ≤ MAX_PLATFORM_LINKS).
inline constexpr int MAX_COMPLETE_N = 1448;
/// Largest D and L of mct:D:L. L = 16 is the largest tree a platform holds (65,535 nodes).
inline constexpr int MAX_MCT_TREES = 16;
inline constexpr int MAX_MCT_LEVELS = 16;
/// Most nodes of an mct:D:L spec. topology_properties() computes its properties from one tree
/// without building it (properties.hpp), so it may exceed MAX_PLATFORM_NODES (mct:6:3 has
/// 117,649 nodes); 2^28 nodes keep the count of ordered pairs at each distance, and their sum
/// weighted by distances up to 2D(L − 1) ≤ 56, below 2^63.
inline constexpr std::uint64_t MAX_MCT_NODES = std::uint64_t{1} << 28;

/// Most sides of torus:AxBx… and mesh:AxBx… (2^16 = MAX_PLATFORM_NODES with sides of 2).
inline constexpr int MAX_GRID_DIMENSIONS = 16;
/// Largest K of fattree:K: fattree:62 has 59,582 hosts and 4,805 switches; fattree:64 would have
/// 70,656 nodes.
inline constexpr int MAX_FATTREE_K = 62;

/// D and L of mct:D:L: the product of D complete binary trees of L levels.
struct MctShape {
  int trees = 1;
  int levels = 1;
  /// (2^L − 1)^D.
  [[nodiscard]] std::uint64_t nodes() const;
};

/// S_n materialised. @throws TopologyError unless 1 ≤ n ≤ MAX_STAR_PLATFORM_N; for n ≤ 12 the
/// message points to the implicit StarGraph.
[[nodiscard]] Platform star_platform(int n);
/// The D-cube Q_D. @throws TopologyError unless 1 ≤ d ≤ MAX_CUBE_D.
[[nodiscard]] Platform hypercube_platform(int d);
/// The undirected binary de Bruijn graph D_d (self-loops dropped, parallel links merged).
/// @throws TopologyError unless 1 ≤ d ≤ MAX_CUBE_D.
[[nodiscard]] Platform debruijn_platform(int d);
/// K_n. @throws TopologyError unless 1 ≤ n ≤ MAX_COMPLETE_N.
[[nodiscard]] Platform complete_platform(int n);
/// C_n (ring:1 is one node, ring:2 one link). @throws TopologyError unless 1 ≤ n ≤ MAX_PLATFORM_NODES.
[[nodiscard]] Platform ring_platform(int n);
/// ring:A × ring:B × …, named torus:AxBx…; one side is ring:A, renamed.
/// @throws TopologyError unless there are 1..MAX_GRID_DIMENSIONS sides, each ≥ 1, and their product
/// is at most MAX_PLATFORM_NODES.
[[nodiscard]] Platform torus_platform(std::span<const int> sides);
/// path of A nodes × path of B nodes × …, named mesh:AxBx…. @throws TopologyError as torus_platform().
[[nodiscard]] Platform mesh_platform(std::span<const int> sides);
/// torus:AxB. @throws TopologyError unless a, b ≥ 1 and a·b ≤ MAX_PLATFORM_NODES.
[[nodiscard]] Platform torus_platform(int a, int b);
/// mesh:AxB. @throws TopologyError unless a, b ≥ 1 and a·b ≤ MAX_PLATFORM_NODES.
[[nodiscard]] Platform mesh_platform(int a, int b);
/// The sides of a torus:AxBx… or mesh:AxBx… spec ("4x4x2" → {4, 4, 2}).
/// @throws TopologyError naming the spec and the expected form when a side is missing, not an
/// integer ≥ 1, or the grid exceeds MAX_GRID_DIMENSIONS sides or MAX_PLATFORM_NODES nodes.
[[nodiscard]] std::vector<int> grid_sides(const Spec& spec);
/// The mesh-connected trees MCT_D(L), mct:D:L (file comment): the Cartesian product of D complete
/// binary trees of L levels; for D = 1 the tree itself.
/// @throws TopologyError unless 1 ≤ trees ≤ MAX_MCT_TREES and 1 ≤ levels ≤ MAX_MCT_LEVELS, or when
/// the product exceeds MAX_PLATFORM_NODES / MAX_PLATFORM_LINKS (mct:7:3 and mct:6:3 do).
[[nodiscard]] Platform mct_platform(int trees, int levels);
/// D and L of an mct:D:L spec ("4:3" → {4, 3}).
/// @throws TopologyError naming the spec unless it is mct:D:L with 1 ≤ D ≤ MAX_MCT_TREES,
/// 1 ≤ L ≤ MAX_MCT_LEVELS and at most MAX_MCT_NODES nodes.
[[nodiscard]] MctShape mct_shape(const Spec& spec);
/// Cartesian product of two or more platforms: node (x_1, …, x_m) is linked to every node that
/// differs in one coordinate i by a link x_i → y_i of factor i, with that link's cost (dimension 0).
/// A product node is a router if one of its coordinates is, and its speed is the smallest of its
/// coordinates' speeds. The product is directed if a factor is. Its name is "product:A*B*…".
/// @throws TopologyError when fewer than two factors are given or the product exceeds the limits.
[[nodiscard]] Platform product_platform(std::span<const Platform> factors);

/// The k-ary fat-tree fattree:K (file comment): K³/4 hosts (processors), 5K²/4 switches (routers).
/// @throws TopologyError unless k is even and 2 ≤ k ≤ MAX_FATTREE_K.
[[nodiscard]] Platform fattree_platform(int k);
/// K of a fattree:K spec. @throws TopologyError naming the spec unless K is an even integer in
/// 2..MAX_FATTREE_K.
[[nodiscard]] int fattree_arity(const Spec& spec);

/// Nodes [representative, representative + size) of a platform that all see the same distance
/// distribution (an orbit of its automorphism group), as properties.hpp uses them.
struct NodeOrbit {
  Platform::vertex_descriptor representative;
  std::uint64_t size;
};
/// The orbits of fattree:K in its node order: hosts, edge, aggregation and core switches. Each is
/// one orbit because permuting pods, the hosts of an edge switch, the edge switches of a pod, the
/// core switches of a group, and the index j of aggregation switches together with core group j
/// map links to links. @throws TopologyError as fattree_platform().
[[nodiscard]] std::vector<NodeOrbit> fattree_orbits(int k);

/// Which global port of a group leads to which other group, the three arrangements Hastings et al.
/// (IEEE Cluster 2015) compare; the G − 1 = A·H global ports t of group g (router ⌊t/H⌋) lead to:
///   - ABSOLUTE: the other groups in increasing order — group t if t < g, t + 1 otherwise;
///   - RELATIVE: the groups that follow g — group (g + t + 1) mod G;
///   - CIRCULANT: the groups at ±1, ±2, … in turn — (g + t/2 + 1) mod G for even t, (g − t/2 − 1)
///     mod G for odd t (with G even, the last port reaches the group G/2 away, on both sides).
/// Each joins every pair of groups exactly once; what differs is which routers carry the links to
/// nearby groups, so which traffic meets on a router (Hastings et al.; Camarero, Vallejo and
/// Beivide, ACM TACO 2014, for the circulant one).
enum class GlobalArrangement : std::uint8_t { ABSOLUTE, RELATIVE, CIRCULANT };
/// "absolute", "relative" or "circulant", as the spec's fourth part spells it.
[[nodiscard]] std::string_view arrangement_name(GlobalArrangement arrangement);

/// A, P, H and the arrangement of dragonfly:A:P:H[:ARRANGEMENT].
struct DragonflyShape {
  /// A: routers per group.
  int routers = 1;
  /// P: hosts per router.
  int hosts = 1;
  /// H: global links per router.
  int global = 1;
  GlobalArrangement arrangement = GlobalArrangement::ABSOLUTE;
  /// G = A·H + 1 groups.
  [[nodiscard]] std::uint64_t groups() const;
  /// The group that global port @p port (0 ≤ port < A·H, on router ⌊port/H⌋) of @p group leads to.
  [[nodiscard]] std::uint64_t global_peer(std::uint64_t group, std::uint64_t port) const;
  /// The global port of @p group that leads to group @p other ≠ @p group: global_peer's inverse.
  [[nodiscard]] std::uint64_t global_port(std::uint64_t group, std::uint64_t other) const;
  /// The spec: dragonfly:A:P:H for the absolute arrangement, dragonfly:A:P:H:NAME otherwise.
  [[nodiscard]] std::string spec() const;
};
/// The dragonfly (file comment): A·H + 1 groups of A routers with P hosts each, global links in
/// the shape's arrangement. @throws TopologyError unless A, P, H ≥ 1 and the platform is within
/// MAX_PLATFORM_NODES and MAX_PLATFORM_LINKS.
[[nodiscard]] Platform dragonfly_platform(const DragonflyShape& shape);
/// The shape of a dragonfly:A:P:H[:ARRANGEMENT] spec (absolute when the fourth part is left out).
/// @throws TopologyError naming the spec and the expected form unless it has three integers ≥ 1
/// and, if a fourth part, an arrangement's name, and a platform of that shape is within the limits.
[[nodiscard]] DragonflyShape dragonfly_shape(const Spec& spec);
/// What a network of @p spec offers its hosts, in sentences for `topo info`: a dragonfly's global
/// links against its hosts (oversubscribed when P > H) and Kim et al.'s balance a = 2p = 2h; a
/// fat-tree's full bisection. Empty for other specs. @throws TopologyError as dragonfly_shape().
[[nodiscard]] std::vector<std::string> network_notes(const Spec& spec);

/// A Tiers-like random WAN/MAN/LAN platform; the same seed gives the same platform on every
/// machine (std::mt19937_64, whose output the C++ standard fixes, with our own unbiased mapping
/// of its 64-bit words to ranges, SeededDraw in families.cpp, which also fixes the order of draws):
///   - W ∈ [2, 3] WAN routers "wan0".. joined by a random tree (wan_i to a random wan_j, j < i),
///     plus, when W = 3, the link that closes the WAN triangle with probability 1/2 (redundancy);
///   - M ∈ [3, 5] MAN routers "man0".., each linked to a random WAN router;
///   - P ∈ [6, 10] LAN processors "p0".., processor i < M on man_i, the others on a random MAN
///     router (so every MAN has a LAN);
///   - costs k/10 (time per unit message): WAN k ∈ [10, 30], MAN k ∈ [5, 15], LAN k ∈ [1, 4];
///     processor speeds k/2, k ∈ [2, 20]; routers speed 1 (they do not compute).
/// Node order: processors, WAN routers, MAN routers (processors first, like fattree and dragonfly
/// hosts, so that node 0 computes). Undirected, 11 to 18 nodes.
[[nodiscard]] Platform tiers_platform(std::uint64_t seed);

/// Builds the platform a spec names, files included (files.hpp); its name is the spec text.
/// @throws TopologyError naming the spec and the expected form for an unknown family, a
/// malformed or out-of-range argument (star:0, star:13, star:x, hypercube:-1, hypercube:40, …),
/// star:N with N > MAX_STAR_PLATFORM_N (the implicit model serves N ≤ 12), a platform beyond
/// MAX_PLATFORM_NODES / MAX_PLATFORM_LINKS, or a bad file.
///
/// @code
///   const Platform p = make_platform("torus:4x4");   // 16 nodes "(0,0)".."(3,3)", 32 links
/// @endcode
[[nodiscard]] Platform make_platform(std::string_view spec);

/// The model the emulator runs: star:N (1 ≤ N ≤ 12) is the implicit StarGraph, anything else a
/// PlatformTopology that owns the platform make_platform() builds.
/// @throws TopologyError as make_platform(), and for star:N outside 1..12.
[[nodiscard]] std::unique_ptr<Topology> make_topology(std::string_view spec);

/// True when the spec's family is vertex-transitive (star, pancake, bubblesort, transposition,
/// nkstar, arrangement, hypercube, complete, ring, torus, and products of those), so that one
/// breadth-first search gives every distance distribution.
/// @throws TopologyError when the spec does not parse.
[[nodiscard]] bool is_vertex_transitive(std::string_view spec);

}  // namespace starnet::topology
