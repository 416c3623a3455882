#pragma once
/// @file
/// The one catalogue of built-in collective algorithms: which algorithm computes which collective
/// on which family, and how to build its schedule. `whatif` takes
/// its rows from it, `schedule export` its algorithms, and the exact search (optimal_search.hpp)
/// its upper bound, so that an algorithm known to one is known to all (docs/collectives.md).
///
/// | algorithm          | collectives                                   | families                              |
/// |--------------------|-----------------------------------------------|---------------------------------------|
/// | star               | allreduce (Oh, Choi, Primeaux 2005), allgather (NODUP broadcast), reducescatter (it, reversed) | star:N (allgather, reducescatter: N ≤ 7) |
/// | recursive-doubling | allreduce, allgather                          | hypercube, complete of 2^k nodes (allreduce: any complete graph, folded) |
/// | recursive-halving  | reducescatter (recursive doubling reversed)   | hypercube, complete of 2^k nodes      |
/// | ring               | allreduce, allgather, reducescatter           | ring, torus (one phase per dimension) |
/// | bruck              | allgather, reducescatter, alltoall            | complete                              |
/// | uniform            | allgather, reducescatter (the uniform gossip of optimal/uniform_search.hpp, reversed) | Cayley graphs (star, pancake, bubblesort, transposition, hypercube, ring, torus, complete) |
/// | one-packet         | alltoall (total_exchange.hpp)                 | Cayley graphs                         |
/// | combining          | alltoall (along the uniform gossip)           | Cayley graphs                         |
/// | ring-split         | allreduce of N blocks of M/N (split_allreduce.hpp) | ring, torus                   |
/// | rabenseifner       | allreduce of N blocks of M/N (split_allreduce.hpp) | hypercube, complete of 2^k nodes |
/// | dimension-ordered  | allreduce, allgather, reducescatter (dimension_ordered.hpp) | products, meshes of two sides or more |
/// | bfs-tree           | every collective                              | every topology                        |
///
/// "complete" is a complete:N spec or any topology in which every two nodes are linked (a SimGrid
/// cluster, K_N in a file): its nodes are then the elements of Z_N in their own order. Bruck's
/// all-gather and all-to-all are the uniform gossip and the combining exchange along the doubling
/// offsets 1, 2, 4, … of Z_N (Bruck, Ho, Kipnis, Upfal, Weathersby, IEEE TPDS 8(11), 1997).
/// The word collectives (allreduce, reduce, broadcast) are one value per node; the others one
/// chunk per block, N blocks (schedule/collective.hpp).
///
/// Complexity: what each builder costs (their headers); the uniform gossip search is bounded by
/// UNIFORM_SEARCH_NODES search nodes (exhaustive), then a beam of UNIFORM_BEAM_WIDTH, both
/// deterministic, and remembered per group.
/// IMPORTANT: applicability is decided from the family and the node count; that a schedule fits a
/// port model is what running it in strict mode says (whatif, optimal, the tests run every one).

#include <starnet/algorithms/collective.hpp>
#include <starnet/algorithms/collectives/builtin_algorithm.hpp>
#include <starnet/algorithms/collectives/total_exchange.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::collectives {

/// Largest node count of the blocked collectives' schedules (N chunks per node; a gather of N²
/// chunks in all), but the star algorithm's (MAX_STAR_BLOCK_N).
inline constexpr topology::NodeId MAX_BLOCK_NODES = 1024;
/// Largest node count of the blocked recursive doubling and halving and so of Rabenseifner's
/// all-reduce: N log N messages, N² chunks moved (hypercube:12's Rabenseifner: 4,096 nodes, 33
/// million chunks in 49,152 messages, a few seconds), where the ring's N² messages stop at
/// MAX_BLOCK_NODES.
inline constexpr topology::NodeId MAX_HALVING_BLOCK_NODES = 8192;
/// Largest S_n whose star all-gather is built (S_7: 25 million chunks moved).
inline constexpr int MAX_STAR_BLOCK_N = 7;
/// The uniform gossip search of the catalogue: exhaustive up to this many search nodes …
inline constexpr std::uint64_t UNIFORM_SEARCH_NODES = 2'000'000;
/// … then a beam of this width.
inline constexpr std::size_t UNIFORM_BEAM_WIDTH = 2000;

/// What the catalogue needs to know of a topology.
struct Shape {
  std::string spec;
  std::string family;       ///< star, pancake, …, complete (also a file that is K_N), or another
  topology::NodeId nodes = 0;
  /// The spec of the Cayley group whose element ids are the topology's node ids (empty: none).
  std::string cayley;
};
/// @p topology's shape; @p spec names it. A topology built in memory (@p from_spec false) is
/// known by its structure alone, whatever its name spells. O(V + E), O(V²) to recognise a K_N.
[[nodiscard]] Shape shape_of(const topology::Topology& topology, std::string_view spec, bool from_spec = true);

/// The rings the ring algorithms follow on @p shape: one ring through every node in id order on a
/// complete graph (the hosts of a network of switches too), the dimensions' rings of ring:N and
/// torus:AxBx… (generic::spec_rings). @throws ScheduleError on other shapes.
[[nodiscard]] std::vector<std::vector<std::vector<topology::NodeId>>> shape_rings(const Shape& shape);

/// Why @p a does not compute @p c on @p shape, or nothing when it does.
[[nodiscard]] std::optional<std::string> why_not(Algorithm a, Collective c, const Shape& shape);
/// The built-ins that compute @p c on @p shape, in catalogue order (bfs-tree last: it applies everywhere).
[[nodiscard]] std::vector<Algorithm> algorithms_for(Collective c, const Shape& shape);

/// The shortest uniform gossip the catalogue finds on @p g (the file comment): generator ids.
/// @throws ScheduleError naming the group when none is found.
[[nodiscard]] std::vector<int> uniform_sequence(const CayleyGroup& g);

/// The total exchange of ONE_PACKET or COMBINING on @p g (combining: along uniform_sequence(), or
/// the doubling offsets for BRUCK on Z_N). @throws ScheduleError for another algorithm.
[[nodiscard]] ExchangePlan exchange_plan(Algorithm a, const CayleyGroup& g);

/// A built algorithm: its schedule and what distinguishes it (shown as `variant`).
struct Built {
  schedule::Schedule schedule;
  std::string variant;
};

/// @p a's schedule of @p c on @p topology (named @p spec), rooted at @p root for reduce, broadcast,
/// gather, scatter (and the trees), for @p ports.
///
/// @code
///   const auto t = topology::make_topology("complete:8");
///   const Built b = build(Algorithm::RECURSIVE_DOUBLING, Collective::ALLREDUCE, *t, "complete:8", 0, {});
///   b.schedule.steps();  // 3
/// @endcode
/// @throws ScheduleError naming the algorithm, the collective and the spec when it does not apply
/// (why_not()), or when the schedule would exceed the limits above.
[[nodiscard]] Built build(Algorithm a, Collective c, const topology::Topology& topology, std::string_view spec,
                          topology::NodeId root, const emulator::PortModel& ports);

/// The built-ins that compute (or imply) @p goal on @p topology, built, for the exact search's
/// upper bound (optimal::OptimalSearch::builtins()): gossip from the one-word all-reduces and the
/// all-gathers (the uniform one aside: the search runs its own), broadcast from the broadcasts.
/// An algorithm that does not apply, or whose schedule cannot be built, is left out.
[[nodiscard]] std::vector<optimal::Candidate> optimal_candidates(const topology::Topology& topology,
                                                                 const std::string& spec, optimal::Goal goal,
                                                                 topology::NodeId root,
                                                                 const emulator::PortModel& ports);

}  // namespace starnet::algorithms::collectives
