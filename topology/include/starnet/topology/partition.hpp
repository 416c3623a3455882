#pragma once
/// @file
/// An upper bound on the bisection width of any topology given as its graph (a file, a family
/// without a formula, a platform built in memory): a balanced partition of its processors, whose
/// crossing links are counted (`starnet topo info`, docs/topology.md "Bisection").
///
/// Problem: split the processors into halves of ⌊P/2⌋ and ⌈P/2⌉ (routers on either side) so that
/// few links cross. The minimum is the bisection width, NP-hard in general (Garey, Johnson,
/// Stockmeyer, 1976); any balanced split gives an upper bound, which is what this file computes.
///
/// Method: METIS's multilevel recursive bisection (Karypis and Kumar, "A Fast and High Quality
/// Multilevel Scheme for Partitioning Irregular Graphs", SIAM J. Sci. Comput. 20(1), 1998) into 2
/// parts, processors weighing 1 and routers 0, with a fixed seed (METIS draws from its own
/// generator: the same partition on every machine); then repaired to exact halves by moving the
/// processors of the larger side one at a time, each time the one whose move cuts fewest links
/// (ties: the lowest node id); then routers moved while a move cuts fewer links. The links that
/// cross are counted from that final partition, never taken from METIS's objective.
///
/// What is counted: an undirected platform's link once (its two arcs are one link); in a directed
/// platform every arc whose ends are on different sides, whichever way it points (u→v and v→u are
/// two links, as Platform::num_links() counts them). Either way the count is that of a balanced
/// split, so at least the width as counted the same way.
///
/// Complexity: METIS O(V + E) per level (about log V levels) and a few cuts (PARTITION_TRIES);
/// the repair O((moves + V) log V + E) with a heap of gains. Memory O(V + E).
/// IMPORTANT: an upper bound, not the width: nothing here proves it minimal.

#include <starnet/topology/bisection.hpp>
#include <starnet/topology/platform.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace starnet::topology {

/// Most nodes partitioned: that of the largest platform make_platform() builds (families.hpp);
/// `topo info` gives no bound above it. At this size the partition of hypercube:16 (524,288 links)
/// takes 0.86 s, torus:256x256's 0.09 s, and the process peaks at 193 MB and 94 MB, platform
/// included (tests/topology/partition_benchmark.cpp; docs/topology.md, "Bisection").
inline constexpr std::size_t MAX_PARTITION_NODES = 65'536;
/// Cuts METIS computes from different starts, keeping the smallest (METIS_OPTION_NCUTS).
inline constexpr int PARTITION_TRIES = 4;
/// METIS's seed (METIS_OPTION_SEED): fixed, so that every run gives the same partition.
inline constexpr int PARTITION_SEED = 1;

/// Two sides of a platform's nodes, the processors in halves.
struct BalancedPartition {
  /// side[v] is 0 or 1 for node v; the processors on side 0 number ⌊P/2⌋ or ⌈P/2⌉.
  std::vector<int> side;
  /// The links between the sides, as the file comment counts them (crossing_links()).
  std::uint64_t cut = 0;
};

/// The links of @p platform whose ends lie on different sides of @p side (file comment: once per
/// link when undirected, every arc when directed). @pre side.size() == platform.num_nodes().
/// Complexity: O(E).
[[nodiscard]] std::uint64_t crossing_links(const Platform& platform, std::span<const int> side);

/// A balanced partition of @p platform's processors with few crossing links (file comment).
/// Usage:
/// @code
///   const auto part = balanced_partition(make_platform("ring:8.dot"));
///   // part.cut == 2, part.side: four processors on each side
/// @endcode
/// @throws TopologyError naming the platform when it has more than MAX_PARTITION_NODES nodes.
/// @throws SolverError when METIS reports a failure (input it rejects, no memory).
[[nodiscard]] BalancedPartition balanced_partition(const Platform& platform);

/// The bisection width's upper bound from balanced_partition(), its argument naming METIS and the
/// links that cross; none above MAX_PARTITION_NODES. @throws SolverError as balanced_partition().
[[nodiscard]] std::optional<Bisection> partition_bisection(const Platform& platform);

}  // namespace starnet::topology
