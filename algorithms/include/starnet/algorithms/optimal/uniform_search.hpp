#pragma once
/// @file
/// Uniform all-to-all broadcasts (gossip) on Cayley graphs, star graphs S_n first, found by search
/// (docs/beyond.md).
///
/// A Cayley graph Cay(G, S) has the elements of a group G as nodes and links v — v·g for the
/// generators g ∈ S (S closed under inverses). In a *uniform* schedule every node uses the same
/// generator g_t at step t: it sends to v·g_t and receives from v·g_t⁻¹ (full duplex, single
/// port; when g_t is an involution, as the transpositions of S_n are, the two are one exchange).
/// If node v knows the items {v·p : p ∈ P} before a step, it learns those of v·g⁻¹, so afterwards
/// it knows v·(P ∪ g⁻¹·P): one set P_t ⊆ G describes what every node knows, P_0 = {e},
/// P_t = P_{t−1} ∪ g_t⁻¹·P_{t−1}. A schedule of T steps is a gossip when P_T = G. Each message
/// need only carry what the partner lacks, D_t = P_{t−1} \ g_t·P_{t−1} (relative to the sender):
/// a node receives |G| − 1 items in all, none twice. The one-to-all broadcast from r along the
/// same generators informs r·I_t with I_t = I_{t−1} ∪ I_{t−1}·g_t; I_t is the set of inverses of
/// P_t's elements, so |I_t| = |P_t|: a uniform broadcast ends exactly when the uniform gossip does.
///
/// The families (node ids are the topology's, so that schedules run on make_topology(spec)):
///   star:N       S_N, generators τ_k = (1 k), ids k = 2..N (the star link's dimension); on labels
///                τ_k∘p swaps the symbols 1 and k of p.
///   pancake:N    S_N, generators the prefix reversals r_i, ids i = 2..N: v·r_i reverses v's first
///                i positions.
///   bubblesort:N S_N, generators the adjacent transpositions (i i+1) of positions, ids i = 1..N−1.
///   transposition:N  S_N, generators every transposition (i j) of positions, i < j, ids 1..N(N−1)/2
///                in the order (1 2), (1 3), …, (1 N), (2 3), ….
///                The four families of S_N number elements by StarGraph's rank of their label, as
///                their topologies number nodes (arrangement_graph.hpp), and link v to v·g, g acting
///                on positions; the generators are involutions, listed in the topology's port order.
///   hypercube:D  Z_2^D, generators the unit vectors, ids 1..D (the hypercube link's dimension).
///   ring:N       Z_N, generators +1 (id 1) and −1 (id 2; absent for N ≤ 2).
///   torus:AxB    Z_A × Z_B (node i·B + j), generators ±(1,0), ±(0,1), ids 1.. in that order,
///                those equal to an earlier one left out (A or B ≤ 2).
///   complete:N   Z_N, generators j = 1..N−1 (id j).
///
/// Search (exhaustive, depth first): where any permutation of the generators is induced by a group
/// automorphism (star: relabel the symbols 2..N; hypercube: permute coordinates; ring: negate; any
/// Cayley graph of S_2 or S_3), a
/// generator used for the first time is the smallest unused one; an involution twice in a row adds
/// nothing; a step that adds nothing is never taken; a branch whose |P_t|·2^(T−t) < |G| cannot
/// finish. Finishing without a schedule of T steps proves that none exists among uniform
/// schedules. Beam search keeps the W sets with most elements at each depth (ties by the generator
/// sequence), for the sizes where the exhaustive search is too slow.
///
/// Memory: one table of |G| words per generator (S_10: 9 × 3,628,800 × 4 bytes = 131 MB; at most
/// MAX_UNIFORM_TABLE entries, which refuses transposition:10's 45 generators) and one
/// bitset of |G| bits per search depth. IMPORTANT: uniform schedules are one class among all
/// schedules: their optimum bounds the true optimum from above only.

#include <starnet/topology/star_graph.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace starnet::algorithms::optimal {

/// Largest n of the uniform search on star:n and the other Cayley graphs of S_n (n! bits per set;
/// tables of n! words per generator).
inline constexpr int MAX_UNIFORM_N = 10;
/// Largest group of the uniform search (S_10).
inline constexpr std::uint64_t MAX_UNIFORM_ORDER = 3'628'800;
/// Largest number of table entries (generators × order) of one group: complete:N has N − 1.
inline constexpr std::uint64_t MAX_UNIFORM_TABLE = 40'000'000;

/// When a search given @p seconds from @p from must stop: none for seconds ≤ 0 (no limit).
[[nodiscard]] inline std::optional<std::chrono::steady_clock::time_point> deadline_after(
    double seconds, std::chrono::steady_clock::time_point from = std::chrono::steady_clock::now()) {
  if (seconds <= 0) return std::nullopt;
  return from + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

/// A Cayley graph's group as tables, and the set algebra P ∪ g⁻¹·P on bitsets of its elements.
class CayleyGroup {
 public:
  /// S_n with the star's generators. @throws UsageError for n outside 2..MAX_UNIFORM_N.
  static CayleyGroup star(int n);
  /// The group of a topology spec (the families above).
  /// @throws UsageError naming the spec and why when it is not one of them (a file, mesh,
  /// debruijn, tiers or a product: not given as a Cayley graph) or is too large.
  static CayleyGroup of(const std::string& spec);

  [[nodiscard]] const std::string& spec() const { return spec_; }
  [[nodiscard]] const std::string& family() const { return family_; }
  /// N of the groups S_N (star, pancake, bubblesort, transposition; 0 for the other families).
  [[nodiscard]] int n() const { return star_n_; }
  [[nodiscard]] std::uint64_t order() const { return order_; }
  /// Generator ids are first()..last().
  [[nodiscard]] int first() const { return first_; }
  [[nodiscard]] int last() const { return first_ + static_cast<int>(generators_.size()) - 1; }
  [[nodiscard]] std::string generator_name(int k) const;
  [[nodiscard]] bool involution(int k) const { return inverse_[k - first_] == k; }
  /// The id of g_k⁻¹.
  [[nodiscard]] int inverse(int k) const { return inverse_[k - first_]; }
  /// Whether every permutation of the generators is induced by an automorphism of the group.
  [[nodiscard]] bool interchangeable() const { return interchangeable_; }

  using Set = std::vector<std::uint64_t>;
  [[nodiscard]] Set identity_set() const;
  /// P ∪ g_k⁻¹·P.
  void step(const Set& p, int k, Set& out) const;
  /// |P|.
  [[nodiscard]] static std::uint64_t count(const Set& p);
  [[nodiscard]] static bool contains(const Set& p, std::uint32_t x) { return (p[x >> 6] >> (x & 63) & 1) != 0; }
  /// g_k⁻¹·x.
  [[nodiscard]] std::uint32_t inverse_times(int k, std::uint32_t x) const {
    return table_[static_cast<std::size_t>(k - first_) * order_ + x];
  }
  /// x·y.
  [[nodiscard]] std::uint32_t times(std::uint32_t x, std::uint32_t y) const;
  /// v·g_k: the node v sends to along generator k.
  [[nodiscard]] std::uint32_t neighbor(std::uint32_t v, int k) const { return times(v, generators_[k - first_]); }
  /// x·g_k⁻¹, the node x receives from along generator k: O(1) in the abelian groups (where it is
  /// g_k⁻¹·x), O(n) on the star (τ_k is an involution: x's neighbour along dimension k), O(n²) on
  /// the other groups S_n (a label decoded and ranked).
  [[nodiscard]] std::uint32_t times_inverse(int k, std::uint32_t x) const;
  /// The element of generator id @p k.
  [[nodiscard]] std::uint32_t element(int k) const { return generators_[k - first_]; }

 private:
  CayleyGroup() = default;
  /// S_n with the generators of @p family (star, pancake, bubblesort, transposition).
  /// @throws UsageError for n outside 2..MAX_UNIFORM_N or tables beyond MAX_UNIFORM_TABLE.
  static CayleyGroup symmetric(const std::string& family, int n);
  void build_tables();
  std::string spec_;
  std::string family_;
  int star_n_ = 0;  ///< n of S_n
  std::shared_ptr<const topology::StarGraph> star_;  ///< the groups S_n: labels and ranks
  std::vector<topology::StarGraph::Label> labels_;    ///< S_n: each generator's permutation of positions
  bool star_ports_ = false;  ///< the star: x·τ_k is x's neighbour along dimension k (StarGraph, O(n))
  std::vector<std::uint32_t> moduli_;  ///< abelian groups: Z_m1 × Z_m2 × …, first most significant
  std::uint64_t order_ = 0;
  int first_ = 1;
  std::vector<std::uint32_t> generators_;  ///< element of each generator id
  std::vector<int> inverse_;               ///< id of each generator's inverse
  std::vector<std::string> names_;
  bool interchangeable_ = false;
  std::vector<std::uint32_t> table_;  ///< g_k⁻¹·x, one row of order_ per generator
};

struct UniformResult {
  std::vector<int> dimensions;  ///< g_1..g_T of the best schedule found (empty: none)
  std::vector<std::uint64_t> sizes;  ///< |P_t| for t = 0..T
  bool complete = false;  ///< the search space of T − 1 steps was exhausted without a gossip
  std::uint64_t explored = 0;  ///< search nodes visited
  double seconds = 0;
  bool timed_out = false;
};

/// Exhaustive search for the shortest uniform gossip, T from ⌈log₂ |G|⌉ upwards.
/// @param max_steps stop after this T; @param seconds time limit (≤ 0: none); @param max_explored
/// stop (timed_out) after visiting this many search nodes (0: no limit), a limit that, unlike
/// time, gives the same answer on every machine.
[[nodiscard]] UniformResult uniform_exhaustive(const CayleyGroup& g, int max_steps, double seconds,
                                               std::uint64_t max_explored = 0);

/// Beam search of width @p width: the best schedule it meets, no proof.
[[nodiscard]] UniformResult uniform_beam(const CayleyGroup& g, std::size_t width, int max_steps, double seconds);

/// Anytime search: beam searches of width 1, 2, 4, … up to @p max_width, each for a schedule
/// shorter than the best so far, until @p seconds have passed (> 0); the best found, no proof.
/// @p on_better is called with each improvement.
[[nodiscard]] UniformResult uniform_anytime(const CayleyGroup& g, int max_steps, double seconds, std::size_t max_width,
                                            const std::function<void(const UniformResult&, std::size_t width)>& on_better);

/// |P_t| for t = 0..T along @p dimensions (generator ids).
[[nodiscard]] std::vector<std::uint64_t> uniform_sizes(const CayleyGroup& g, const std::vector<int>& dimensions);

/// The items a message carries at each step of a uniform gossip, |P_t| − |P_(t−1)| for t = 1..T,
/// from the sizes |P_0..P_T| (uniform_sizes(), UniformResult::sizes).
[[nodiscard]] std::vector<std::uint64_t> uniform_items(const std::vector<std::uint64_t>& sizes);

}  // namespace starnet::algorithms::optimal

#include <starnet/algorithms/optimal/optimal_result.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>

namespace starnet::algorithms::optimal {

/// The uniform gossip along @p dimensions as an allgather schedule on g.spec() (chunk v is node
/// v's item): at step t node v sends v·d for every d ∈ D_t = P_{t−1} \ g_t·P_{t−1} to v·g_t.
/// @throws UsageError when the group has more than MAX_UNIFORM_SCHEDULE_NODES elements.
[[nodiscard]] schedule::Schedule uniform_schedule(const CayleyGroup& g, const std::vector<int>& dimensions);

/// The uniform one-to-all broadcast from @p root along @p dimensions as a broadcast schedule
/// (one chunk, the root's): at step t every informed node v whose partner v·g_t is not informed
/// sends it the chunk. @throws UsageError as uniform_schedule().
[[nodiscard]] schedule::Schedule uniform_broadcast_schedule(const CayleyGroup& g, const std::vector<int>& dimensions,
                                                            std::uint32_t root);

}  // namespace starnet::algorithms::optimal

#include <starnet/emulator/program.hpp>

#include <memory>

namespace starnet::algorithms::optimal {

/// What the nodes of one partition saw in a run of uniform_gossip_program().
struct UniformReport {
  std::uint64_t nodes = 0;
  std::uint64_t complete = 0;   ///< nodes that received |G| − 1 items from the right partners
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
/// The same on any group's topology (make_topology(g.spec()), whose node ids are g's elements):
/// node v sends to v·g_t and checks that what it receives comes from v·g_t⁻¹, |G| − 1 items in
/// all. O(n²) per message on the groups S_n but the star's (a label decoded): for the star, use the
/// overload above. The references must outlive the run.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> uniform_gossip_program(const CayleyGroup& g,
                                                                           const std::vector<int>& dimensions,
                                                                           const std::vector<std::uint64_t>& items,
                                                                           emulator::NodeRange range);

}  // namespace starnet::algorithms::optimal
