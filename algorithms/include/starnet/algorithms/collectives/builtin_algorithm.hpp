#pragma once
/// @file
/// The built-in collective algorithms by name (catalogue.hpp builds their schedules and says
/// where each applies), and the two rows a what-if study adds.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::algorithms::collectives {

/// The algorithms of the table, then the four rows a what-if study adds (the hierarchical
/// all-reduce among a network's hosts, the word collectives on a shortest-path tree in timed runs,
/// a user's schedule file, the proven optimum).
enum class Algorithm : std::uint8_t {
  STAR,
  RECURSIVE_DOUBLING,
  RECURSIVE_HALVING,
  RING,
  BRUCK,
  UNIFORM,
  ONE_PACKET,
  COMBINING,
  RING_SPLIT,
  RABENSEIFNER,
  DIMENSION_ORDERED,
  BFS_TREE,
  HIERARCHICAL,
  WEIGHTED_TREE,
  SCHEDULE,
  OPTIMAL
};
/// The built-in algorithms, in catalogue order.
inline constexpr Algorithm BUILTINS[] = {Algorithm::STAR,     Algorithm::RECURSIVE_DOUBLING, Algorithm::RECURSIVE_HALVING,
                                         Algorithm::RING,     Algorithm::BRUCK,              Algorithm::UNIFORM,
                                         Algorithm::ONE_PACKET, Algorithm::COMBINING,        Algorithm::RING_SPLIT,
                                         Algorithm::RABENSEIFNER, Algorithm::DIMENSION_ORDERED, Algorithm::BFS_TREE};
/// "star", "recursive-doubling", …, "bfs-tree", "schedule", "optimal".
[[nodiscard]] std::string to_string(Algorithm a);
/// A built-in by name; also "star-allreduce" and "star-broadcast" (the star algorithm's
/// all-reduce and all-gather, as `schedule export` first named them).
[[nodiscard]] std::optional<Algorithm> find_builtin(std::string_view text);
/// "star, recursive-doubling, …, bfs-tree".
[[nodiscard]] std::string builtin_choices();

}  // namespace starnet::algorithms::collectives
