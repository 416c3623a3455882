#pragma once
/// @file
/// Where to draw the nodes of a star graph S_n so that its recursive structure shows: the n
/// sub-stars S_{n−1} sit on a circle, each drawn the same way inside, down to the pairs S_2.
/// Shared by the animated pages (`starnet viz`) and `starnet topo draw` (Graphviz renders the
/// positions given).
///
/// Layout: the m blocks S_{m−1} of an S_m (contiguous rank ranges, topology/star_graph.hpp) are
/// centred on a circle of radius R_m at angles θ + 2πj/m, and block j is laid out turned by a
/// quarter turn more than its angle, so that the S_2 pairs of an S_3 form a hexagon. R_m is the
/// smallest radius that keeps neighbouring blocks (each of radius E_{m−1}) @p gap apart (the two
/// nodes of an S_2 @p pair_gap apart, room for two message labels):
/// R_m = (E_{m−1} + gap/2) / sin(π/m), E_m = R_m + E_{m−1}, E_1 = node_radius. Then each block,
/// largest first, is mirrored across its axis when that shortens the links in total (a greedy
/// pass, twice): in S_3 this gives the hexagon of the paper's Figure 1.
///
/// Complexity: O(B · n!·n) time for the B < n! blocks, O(n!) memory.
/// IMPORTANT: meant for n ≤ 5 (S_5 spans about 40 node widths); larger n is laid out but unreadable.

#include <starnet/topology/star_graph.hpp>

#include <cstdint>
#include <vector>

namespace starnet::tools {

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

struct StarLayout {
  std::vector<Point> nodes;              ///< node centres by rank, inside [0, width] × [0, height]
  std::vector<SubstarOutline> substars;  ///< every S_m copy with 2 ≤ m < n, larger m first
  double width = 0;
  double height = 0;
};

/// @param g the star graph.
/// @param node_radius radius of the disc a node's drawing fits in (pixels, or any unit).
/// @param gap least distance between the outlines of neighbouring blocks (same unit).
/// @param pair_gap least distance between the two nodes' discs of an S_2 (same unit).
/// @param margin empty border around the drawing (same unit).
/// @return the layout; deterministic.
[[nodiscard]] StarLayout star_layout(const topology::StarGraph& g, double node_radius, double gap, double pair_gap,
                                     double margin);

}  // namespace starnet::tools
