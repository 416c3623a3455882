#pragma once
/// @file
/// Dimension-ordered collectives on Cartesian products: the all-reduce and all-gather of a product
/// G_1 × … × G_m run as the factors' own best algorithms, one dimension after the other.
///
/// Problem: all-reduce (one word a node) or all-gather (one block a node) on a product whose node
/// (x_1, …, x_m) is linked to the nodes that differ from it in one coordinate by a link of that
/// factor (`product:S1*S2*…`, `mesh:AxBx…` as a product of paths; families.hpp numbers nodes in
/// mixed radix, the first factor most significant).
///
/// Method: phase k (the last factor first) runs, in every fibre along factor k at once (the
/// nodes that differ in coordinate k only), the factor's schedule with the fewest steps among the
/// catalogue's algorithms for it (catalogue.hpp; a BFS tree tried from every root of a factor of
/// at most MAX_FACTOR_TREE_ROOTS nodes). An all-reduce leaves in every node the reduction over
/// its fibre of what the phases before left, so after the last phase every node holds the whole
/// reduction; an all-gather's node stands in phase k for the blocks its fibres of the phases
/// before gathered, and passes them wherever the factor's schedule passes its own block. Steps:
/// the sum of the factors' (product:hypercube:3*hypercube:3: 3 + 3 = 6, as recursive doubling on
/// hypercube:6; product:ring:8*ring:8: 7 + 7 = 14, as the ring on torus:8x8). The classic
/// dimension-ordered exchanges of k-ary n-cubes and hypercubes (e.g. Johnsson, Ho, "Optimum
/// broadcasting and personalized communication in hypercubes", IEEE TC 38(9), 1989; tori: the
/// ring of generic/ring.hpp per dimension) generalised to any factors. The reduce-scatter is the
/// all-gather reversed (block_collectives.hpp).
///
/// Complexity: the factors' schedules (built once each) and O(N · Σ steps) transfers, N·(N−1)
/// blocks moved by the all-gather.
/// IMPORTANT: the phases run one after the other; with ports to spare a product could run several
/// dimensions at once, which this does not try. A factor's all-gather is used only when it copies
/// each block into the same chunk without scratch or local operations.

#include <starnet/algorithms/collectives/catalogue.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::collectives {

/// Largest factor on which a BFS tree is tried from every root (a path's centre halves its
/// all-reduce); beyond it, from the coordinate of the root only.
inline constexpr topology::NodeId MAX_FACTOR_TREE_ROOTS = 64;

/// The factors of @p spec in mixed-radix order: `product:S1*S2*…` → S1, S2, …; `mesh:AxB…` →
/// mesh:A, mesh:B, …; empty for any other spec and for a mesh of one side.
[[nodiscard]] std::vector<std::string> dimension_factors(std::string_view spec);

/// The dimension-ordered all-reduce or all-gather (file comment) of @p topology, named @p spec,
/// under @p ports; @p root's coordinates root the factors' trees. `variant` names each factor's
/// algorithm and steps, e.g. "recursive-doubling 3 + recursive-doubling 3".
/// @throws ScheduleError naming @p spec when it has no factors, when the factors' node counts do
/// not multiply to the topology's, for another collective, or when no factor algorithm applies.
[[nodiscard]] Built dimension_ordered(Collective collective, const topology::Topology& topology, std::string_view spec,
                                      topology::NodeId root, const emulator::PortModel& ports);

}  // namespace starnet::algorithms::collectives
