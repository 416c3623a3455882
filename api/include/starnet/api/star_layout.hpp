#pragma once
/// @file
/// Where to draw the nodes and links of a star graph S_n so that its recursive structure shows:
/// the n sub-stars S_{n−1} sit on a circle, each drawn the same way inside, down to the pairs S_2.
/// Shared by the animated pages (`starnet viz`) and `starnet topo draw` (Graphviz renders the
/// positions and bent links given).
///
/// Nodes: the m blocks S_{m−1} of an S_m (contiguous rank ranges, topology/star_graph.hpp) are
/// centred on a circle of radius R_m at angles θ + 2πj/m, and block j is laid out turned by a
/// quarter turn more than its angle, so that the S_2 pairs of an S_3 form a hexagon. R_m is the
/// smallest radius that keeps neighbouring blocks (each of radius E_{m−1}) `gap` apart (the two
/// nodes of an S_2 `pair_gap` apart, room for two message labels):
/// R_m = (E_{m−1} + gap/2) / sin(π/m), E_m = R_m + E_{m−1}, E_1 = node_radius. Then two greedy
/// passes (each twice over the blocks): every block is mirrored across its axis where that
/// shortens the links in total (in S_3 this gives the hexagon of the paper's Figure 1); then every
/// block S_m with m ≥ 3 is moved rigidly about its centre — its outline stays, its inside keeps its
/// shape — into whichever of its 2m positions (turned by a multiple of 2π/m, mirrored or not)
/// leaves the fewest (straight link, node) pairs closer than `clearance`, then the shortest links.
///
/// Links — the guarantee: no point of a drawn link comes within `clearance` of the centre of a
/// node the link does not join. A link is the straight segment between its nodes' centres where
/// that holds; otherwise a polyline around those nodes: the shortest path (A*) on a grid of cells
/// clearance/ROUTE_CELLS wide whose centres keep clearance + one cell from them, pulled tight
/// (a shortcut is taken only where it keeps clear). Every segment drawn is checked exactly, so
/// the guarantee holds by construction; tests/tools/viz_geometry_test.cpp checks it again on the
/// output of both drawings for n = 3..5.
///
/// Complexity: O(B·m·(n!)²·n) time for the B < n! blocks (bounding boxes prune most of it), plus
/// O(C·log C) per bent link on the C grid cells; O(n!·n + C) memory. S_5 takes about 0.1 s.
/// IMPORTANT: meant for n ≤ 5 (S_5 spans about 40 node widths; both drawings stop there). Larger
/// n is laid out but unreadable; a link for which the grid has no path (none up to S_5) stays
/// straight.

#include <starnet/topology/star_graph.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace starnet::api {

/// Colours of the links by dimension on both drawings, the lowest dimension first: star link k is
/// LINK_PALETTE[k − 2] (2 blue, 3 orange, 4 green, 5 pink, 6 vermilion). Okabe–Ito, colour-blind safe.
inline constexpr std::array<const char*, 7> LINK_PALETTE = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                                            "#D55E00", "#56B4E9", "#8C6D00"};

/// The legend's line for star link @p k: "link k: swaps symbols 1 and k".
[[nodiscard]] std::string star_link_legend(int k);

struct Point {
  double x = 0;
  double y = 0;
};

/// One copy of a sub-star S_m, as the circle that encloses its drawing.
struct SubstarOutline {
  int m = 0;
  std::uint32_t begin = 0;  ///< its nodes are the ranks [begin, begin + m!)
  Point center;
  double radius = 0;
};

/// One link as drawn (see the file comment): the polyline u, bends..., v.
struct LinkPath {
  topology::StarGraph::vertex_descriptor u = 0;  ///< u < v
  topology::StarGraph::vertex_descriptor v = 0;
  int dimension = 0;         ///< star link k: swaps symbols 1 and k
  std::vector<Point> bends;  ///< the corners between u and v, in that order; none: a straight segment
};

struct StarLayout {
  std::vector<Point> nodes;              ///< node centres by rank, inside [0, width] × [0, height]
  std::vector<SubstarOutline> substars;  ///< every S_m copy with 2 ≤ m < n, larger m first
  std::vector<LinkPath> links;           ///< every link once, by u then dimension
  double width = 0;
  double height = 0;
};

/// Sizes of a star layout, all in one unit (pixels, points).
struct StarLayoutSizes {
  double node_radius = 0;  ///< radius of the disc a node's drawing fits in
  double gap = 0;          ///< least distance between the outlines of neighbouring blocks
  double pair_gap = 0;     ///< least distance between the two nodes' discs of an S_2
  double margin = 0;       ///< empty border around the drawing
  double clearance = 0;    ///< least distance from a link to the centre of a node it does not join
};

/// @param g the star graph.
/// @param sizes the sizes of the drawing (one unit).
/// @return the layout; deterministic.
[[nodiscard]] StarLayout star_layout(const topology::StarGraph& g, const StarLayoutSizes& sizes);
/// As above, for S_@p n.
[[nodiscard]] StarLayout star_layout(int n, const StarLayoutSizes& sizes);

}  // namespace starnet::api
