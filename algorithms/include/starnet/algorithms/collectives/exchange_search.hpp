#pragma once
/// @file
/// The Pareto front of uniform combining total exchanges on a Cayley graph: for each step count T,
/// from the fewest (the uniform gossip's) up to where the volume reaches the status s, the least
/// volume V of a generator sequence of T steps (docs/collectives.md).
///
/// Problem: over sequences g_1..g_T of generators, minimise V(g) = Σ_h d_T(h), d_T(h) the length
/// of the shortest subsequence whose product is h (total_exchange.hpp: the combining exchange's
/// volume, every node's message at step t holding the packets whose route uses t), subject to
/// every offset having a route. V ≥ s, and the one-packet exchange (s steps) reaches it; often far
/// fewer steps do (Q_d: d steps; a ring: N − 1).
///
/// Search, breadth first over the states d_t (one 16-bit word per element): a step that changes
/// nothing is dropped; where every permutation of the generators comes from an automorphism (star,
/// hypercube, ring) a generator used for the first time is the smallest unused one, as in the
/// uniform gossip search; equal states at one depth are kept once. While a layer holds at most
/// max_states states the search is exhaustive, and the least volume it finds at depth T is the least
/// over all uniform sequences of T steps; above, a beam keeps the best beam_width states, half by
/// coverage (most offsets routed, then least volume), half by the volume they promise (routed
/// offsets at their route length, the others at their distance), ties by the sequence: the same
/// answer on every machine. A point is kept when its volume is below every shorter one's; the
/// search ends when the volume reaches s (no sequence does better), at max_steps, or at the time
/// limit.
///
/// Complexity: O(layer width · |S| · N) time per depth, O(width · N) memory.
/// IMPORTANT: uniform sequences only: a non-uniform schedule may do better at the same T. The
/// points are not verified here (check_exchange() in total_exchange.hpp runs them).

#include <starnet/algorithms/collectives/total_exchange.hpp>

#include <cstdint>
#include <vector>

namespace starnet::algorithms::collectives {

/// Most states of a layer searched exhaustively.
inline constexpr std::uint64_t PARETO_EXHAUSTIVE_STATES = 200'000;
/// The beam above it.
inline constexpr std::size_t PARETO_BEAM_WIDTH = 512;

struct ParetoOptions {
  double seconds = 0;                                   ///< time limit (≤ 0: none)
  std::uint64_t max_states = PARETO_EXHAUSTIVE_STATES;  ///< 0: beam from the start
  std::size_t beam_width = PARETO_BEAM_WIDTH;
  std::uint64_t max_steps = 0;  ///< deepest T searched (0: the status s)
};

struct ParetoPoint {
  std::vector<int> generators;
  std::uint64_t volume = 0;
  /// Found while every layer up to T was searched whole: no uniform sequence of T steps has a
  /// smaller volume (nor, for the first point, fewer steps).
  bool exhaustive = false;
  [[nodiscard]] std::uint64_t steps() const { return generators.size(); }
};

struct ParetoFront {
  std::vector<ParetoPoint> points;  ///< steps increasing, volume decreasing
  std::uint64_t status = 0;         ///< s: the volume no sequence goes below
  /// The last point's volume is s: the front is complete (every T beyond has volume s).
  bool reached_status = false;
  bool timed_out = false;
  std::uint64_t explored = 0;  ///< states computed
  double seconds = 0;
};

/// The front of @p g (file comment), up to T = max_steps (0: s) steps, and never beyond
/// INFINITE_HOPS − 1 (route lengths are 16-bit): a front cut there is not reached_status.
[[nodiscard]] ParetoFront exchange_pareto(const CayleyGroup& g, const ParetoOptions& options);

}  // namespace starnet::algorithms::collectives
