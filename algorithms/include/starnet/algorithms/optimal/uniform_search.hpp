#pragma once
/// @file
/// Uniform all-to-all broadcasts (gossip) on the star graph S_n, found by search (issue 25;
/// docs/beyond.md).
///
/// In a *uniform* schedule every node uses the same link dimension g_t at step t: it exchanges
/// with its neighbour along g_t (full duplex, single port). S_n is the Cayley graph of the
/// transpositions τ_k = (1 k); a node with label π is linked along k to π∘τ_k. If node π knows
/// the items {π∘p : p ∈ P} before a step, its partner π∘τ knows {π∘τ∘p}, so afterwards it knows
/// π∘(P ∪ τ∘P): one set P_t ⊆ S_n describes what every node knows, P_0 = {id},
/// P_t = P_{t−1} ∪ τ_{g_t}∘P_{t−1}. (On labels, τ∘p swaps the symbols 1 and k of p.) A schedule of
/// T steps is a gossip when P_T = S_n. Each message need only carry what the partner lacks,
/// D_t = P_{t−1} \ τ∘P_{t−1} (relative to the sender): a node receives |P_T| − 1 = n! − 1 items in
/// all, none twice.
///
/// Search (exhaustive, depth first): a dimension used for the first time is the smallest unused
/// one (relabelling the symbols 2..n is an automorphism of S_n that permutes the τ_k); the same
/// dimension twice in a row adds nothing (τ is an involution); a step that adds nothing is never
/// taken; a branch whose |P_t|·2^(T−t) < n! cannot finish. Finishing without a schedule of T
/// steps proves that none exists among uniform schedules. Beam search keeps the W sets with most
/// elements at each depth (ties by the generator sequence), for the sizes where the exhaustive
/// search is too slow.
///
/// Memory: one table of n! words per dimension (n = 10: 9 × 3,628,800 × 4 bytes = 131 MB) and one
/// bitset of n! bits per search depth. IMPORTANT: uniform schedules are one class among all
/// schedules: their optimum bounds the true optimum from above only.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

/// Largest n of the uniform search (n! bits per set; tables of n! words per dimension).
inline constexpr int MAX_UNIFORM_N = 10;

/// The set algebra of S_n: elements are StarGraph ranks; P ∪ τ_k∘P as bitsets.
class StarCayley {
 public:
  /// @throws UsageError for n outside 2..MAX_UNIFORM_N.
  explicit StarCayley(int n);
  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] std::uint64_t order() const { return order_; }
  using Set = std::vector<std::uint64_t>;
  [[nodiscard]] Set identity_set() const;
  /// P ∪ τ_k∘P, k = 2..n.
  void step(const Set& p, int k, Set& out) const;
  /// |P|.
  [[nodiscard]] static std::uint64_t count(const Set& p);
  /// rank(τ_k∘p).
  [[nodiscard]] std::uint32_t left(int k, std::uint32_t rank) const { return table_[(k - 2) * order_ + rank]; }

 private:
  int n_;
  std::uint64_t order_;
  std::vector<std::uint32_t> table_;
};

struct UniformResult {
  std::vector<int> dimensions;  ///< g_1..g_T of the best schedule found (empty: none)
  std::vector<std::uint64_t> sizes;  ///< |P_t| for t = 0..T
  bool complete = false;  ///< the search space of T − 1 steps was exhausted without a gossip
  std::uint64_t explored = 0;  ///< search nodes visited
  double seconds = 0;
  bool timed_out = false;
};

/// Exhaustive search for the shortest uniform gossip, T from ⌈log₂ n!⌉ upwards.
/// @param max_steps stop after this T; @param seconds time limit (≤ 0: none).
[[nodiscard]] UniformResult uniform_exhaustive(const StarCayley& g, int max_steps, double seconds);

/// Beam search of width @p width: the best schedule it meets, no proof.
[[nodiscard]] UniformResult uniform_beam(const StarCayley& g, std::size_t width, int max_steps, double seconds);

/// |P_t| for t = 0..T along @p dimensions (each 2..n).
[[nodiscard]] std::vector<std::uint64_t> uniform_sizes(const StarCayley& g, const std::vector<int>& dimensions);

}  // namespace starnet::algorithms::optimal

#include <starnet/algorithms/schedule/chunk_schedule.hpp>

namespace starnet::algorithms::optimal {

/// Largest n whose uniform gossip is written as a chunk schedule (every node receives n! − 1
/// chunks: S_6 moves 517,680 chunks, S_7 25 million).
inline constexpr int MAX_UNIFORM_SCHEDULE_N = 6;

/// The uniform gossip along @p dimensions as an allgather schedule on star:n (chunk v is node v's
/// item): at step t node π sends π∘d for every d ∈ D_t = P_{t−1} \ τ∘P_{t−1} to π∘τ.
/// @throws UsageError for n > MAX_UNIFORM_SCHEDULE_N.
[[nodiscard]] schedule::Schedule uniform_schedule(const StarCayley& g, const std::vector<int>& dimensions);

}  // namespace starnet::algorithms::optimal

#include <starnet/emulator/program.hpp>
#include <starnet/topology/star_graph.hpp>

#include <memory>

namespace starnet::algorithms::optimal {

/// What the nodes of one partition saw in a run of uniform_gossip_program().
struct UniformReport {
  std::uint64_t nodes = 0;
  std::uint64_t complete = 0;   ///< nodes that received n! − 1 items from the right partners
  std::uint64_t wrong = 0;      ///< messages from a node that is not the step's partner
  [[nodiscard]] std::string serialize() const;
  static UniformReport parse(const std::string& text);
};

/// A uniform gossip as a node program with meta messages, for sizes too large to list every item
/// (S_10: 3,628,800 nodes, 1.3·10^13 items moved): at step t every node sends to its neighbour
/// along g_t one message of |D_t| unit sizes whose payload names the step; the receiver checks
/// that it came from that neighbour at that step and counts |D_t| new items. That the items are
/// new follows from the set algebra (D_t = P_{t−1} \ τ∘P_{t−1}, tested item by item against the
/// explicit graph for n ≤ 7); the run checks the step count, the port model (strict) and every
/// node's total, n! − 1.
/// @param items |D_t| for each step (from uniform_sizes()). The references must outlive the run.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> uniform_gossip_program(const topology::StarGraph& g,
                                                                           const std::vector<int>& dimensions,
                                                                           const std::vector<std::uint64_t>& items,
                                                                           emulator::NodeRange range);

}  // namespace starnet::algorithms::optimal
