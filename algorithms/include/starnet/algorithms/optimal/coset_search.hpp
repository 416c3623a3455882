#pragma once
/// @file
/// Coset schedules: a class of gossip schedules on S_n richer than the uniform ones
/// (docs/beyond.md, "Beyond uniform").
///
/// In a coset schedule the dimension a node π uses at step t depends on its last symbol π(n),
/// that is on its left coset π·S_{n−1}: a step is a map s ↦ g_t(s), s = 1..n. Along a dimension
/// k < n a node's partner π∘τ_k has the same last symbol, so classes that pick k < n exchange
/// inside their own coset; along n the partner's last symbol is π(1), any symbol but π(n). Single
/// port (every node receives one message) then leaves exactly two kinds of step: every class picks
/// a dimension in 2..n−1 independently ((n−2)^n steps), or every class picks n (the uniform step
/// along n). Uniform schedules are the coset schedules whose classes always agree.
///
/// Unlike a uniform schedule, what a node knows is no longer one set moved around the group: the
/// search keeps every node's knowledge as a bitset (n! × n! bits: 1.8 kB for S_5, 65 kB for S_6),
/// hence n ≤ MAX_COSET_N. Exhaustive breadth-first search (distinct states only) proves the
/// shortest coset schedule where it finishes; beam search keeps the W states that know most.

#include <starnet/algorithms/schedule/chunk_schedule.hpp>

#include <cstdint>
#include <vector>

namespace starnet::algorithms::optimal {

/// Largest n of the coset search (a state holds n!² bits).
inline constexpr int MAX_COSET_N = 6;
/// Most bytes of distinct states one depth of the exhaustive search may hold before it gives up.
inline constexpr std::size_t MAX_COSET_BYTES = std::size_t{2} << 30;

/// One step: the dimension of the nodes whose last symbol is s, at index s − 1.
using CosetStep = std::vector<int>;

struct CosetResult {
  std::vector<CosetStep> steps;  ///< the schedule found (empty: none)
  /// Exhaustive and finished: no coset schedule is shorter than the one found.
  bool proved_minimal = false;
  std::uint64_t explored = 0;  ///< states evaluated
  std::size_t widest = 0;      ///< most states kept at one depth
  double seconds = 0;
  bool timed_out = false;
  bool too_many_states = false;  ///< the exhaustive search passed MAX_COSET_BYTES
};

/// Shortest coset gossip on S_n found within @p max_steps: exhaustive when @p width is 0, beam
/// search of that width otherwise; @p seconds ≤ 0: no time limit.
/// @throws UsageError for n outside 3..MAX_COSET_N.
[[nodiscard]] CosetResult coset_search(int n, std::size_t width, int max_steps, double seconds);

/// The coset gossip @p steps as an allgather schedule on star:n, every message carrying what the
/// partner lacks (a node receives n! − 1 items, none twice).
/// @throws UsageError for n outside 3..MAX_COSET_N or a step that breaks the single-port rule.
[[nodiscard]] schedule::Schedule coset_schedule(int n, const std::vector<CosetStep>& steps);

}  // namespace starnet::algorithms::optimal
