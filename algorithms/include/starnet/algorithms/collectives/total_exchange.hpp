#pragma once
/// @file
/// The total exchange (all-to-all personalized: node u has a distinct packet for every node v) on
/// Cayley graphs — star, pancake, bubblesort, transposition, hypercube, ring, torus, complete
/// (optimal/uniform_search.hpp) — in two
/// models, both uniform: every node uses the same generator at each step
/// (docs/collectives.md).
///
/// Notation: a packet of offset h goes from node o to node o·h; dist(h) is the length of a shortest
/// word of generators for h, and the *status* s = Σ_h dist(h) is a node's total distance to all
/// others (the same for every node: Cayley graphs are vertex-transitive).
///
///   - One packet per message (one_packet_exchange): the offsets h ≠ e one after the other, in
///     breadth-first order; offset h takes dist(h) steps, at its i-th every node forwards the packet
///     it holds along the i-th letter of h's shortest word (its own packet of offset h at the first).
///     All nodes in lockstep, so every node sends one packet and receives one at every step (single
///     port, full duplex). s steps, and no schedule of this model is shorter: the N·s packet-hops must
///     all be sent, one per node and step. This is the model of Fragopoulou and Akl (JPDC 24(1),
///     1995) — fixed-length messages, one per link and step — where they reach s up to a constant.
///   - Combining (combining_exchange): along a generator sequence g_1..g_T (the uniform gossip
///     search's), offset h's packet follows the shortest subsequence whose product is h (the
///     earliest such steps); at step t every node sends one message holding every packet whose route
///     uses t. R_t = R_{t−1} ∪ R_{t−1}·g_t is the set of routable offsets, so the sequence serves
///     every offset exactly when it is a uniform gossip (R_t is the set of inverses of its P_t). The
///     volume V = Σ_h (route length of h) ≥ s; T may be ⌈log₂ N⌉.
///
/// Both are schedules as data (exchange_schedule(): node v's packet of offset h in chunk v·h, kept
/// in scratch chunk N + h while in transit, its own moved there at step 0), checked chunk by chunk
/// on the emulator up to MAX_UNIFORM_SCHEDULE_NODES nodes; exchange_program() runs larger ones
/// (S_7: 5,040 nodes, s = 29,628 steps, 149 million packet-hops) on the dense step path, each
/// packet a word naming its origin that its destination checks.
///
/// Complexity: geodesics O(N·|S|); one_packet_exchange O(N·|S| + s); combining_exchange
/// O(T·N) (the routes by dynamic programming); exchange_schedule O(N·V) items.
/// IMPORTANT: the combining routes are the shortest *embedded* in the sequence, not in the graph;
/// the volume counts packets (a message's size), not bytes, and every message of a step has the
/// same size (uniform), so a step-synchronous α–β time is T·α + m·V/β.

#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/chunk_schedule.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace starnet::algorithms::collectives {

using optimal::CayleyGroup;

/// x·g_k and x·g_k⁻¹ for every element x and generator k, as tables (one word per element and
/// generator: S_7 120 KB; S_10 261 MB, so build only what a search needs).
class RightTables {
 public:
  explicit RightTables(const CayleyGroup& g);
  /// x·g_k⁻¹: the node x receives from at a step of generator k.
  [[nodiscard]] std::uint32_t from(int k, std::uint32_t x) const { return from_[index(k, x)]; }
  /// x·g_k: the node x sends to.
  [[nodiscard]] std::uint32_t to(int k, std::uint32_t x) const { return to_[index(k, x)]; }

 private:
  [[nodiscard]] std::size_t index(int k, std::uint32_t x) const {
    return static_cast<std::size_t>(k - first_) * order_ + x;
  }
  int first_;
  std::uint64_t order_;
  std::vector<std::uint32_t> from_;
  std::vector<std::uint32_t> to_;
};

/// Shortest words: dist(h), and h = parent(h)·g_{last(h)}, elements in breadth-first order.
struct Geodesics {
  std::vector<std::uint32_t> dist;
  std::vector<std::uint32_t> parent;
  std::vector<int> last;
  std::vector<std::uint32_t> order;  ///< identity first
  /// The status s = Σ_h dist(h).
  [[nodiscard]] std::uint64_t status() const;
  /// The generators of h's word, first letter first.
  [[nodiscard]] std::vector<int> word(std::uint32_t h) const;
};
[[nodiscard]] Geodesics geodesics(const CayleyGroup& g, const RightTables& right);

/// A uniform total exchange: the generator of each step and the route of each offset.
struct ExchangePlan {
  std::vector<int> generators;         ///< g_1..g_T (generator ids)
  std::vector<std::uint64_t> packets;  ///< packets in every node's message at step t
  std::uint64_t volume = 0;            ///< Σ packets: what every node sends in all
  std::uint64_t status = 0;            ///< s, the one-packet model's lower bound
  /// The steps offset h's packet moves at, increasing: route_steps[route_begin[h] .. route_begin[h + 1]).
  std::vector<std::uint64_t> route_begin;
  std::vector<std::uint32_t> route_steps;
  [[nodiscard]] std::span<const std::uint32_t> route(std::uint32_t h) const {
    return {route_steps.data() + route_begin[h], route_steps.data() + route_begin[h + 1]};
  }
  [[nodiscard]] std::uint64_t steps() const { return generators.size(); }
};

/// The one-packet exchange (file comment): s steps, one packet per message, volume s.
[[nodiscard]] ExchangePlan one_packet_exchange(const CayleyGroup& g);

/// The combining exchange along @p generators (file comment).
/// @throws ScheduleError naming the group when the sequence leaves some offset without a route
/// (it is not a uniform gossip), or names a generator the group does not have.
[[nodiscard]] ExchangePlan combining_exchange(const CayleyGroup& g, const std::vector<int>& generators);

/// For each step count t = 1..T of @p generators, the shortest embedded route of every offset
/// (INFINITE_HOPS where none): the dynamic program of combining_exchange, d_t(x) = min(d_{t−1}(x),
/// d_{t−1}(x·g_t⁻¹) + 1), also the Pareto search's state (exchange_search.hpp).
inline constexpr std::uint16_t INFINITE_HOPS = 0xFFFF;
void exchange_step(const RightTables& right, int k, std::span<const std::uint16_t> before, std::span<std::uint16_t> after);

/// @p plan as an all-to-all chunk schedule on g.spec() (file comment).
/// @throws UsageError when the group has more than optimal::MAX_UNIFORM_SCHEDULE_NODES elements.
[[nodiscard]] schedule::Schedule exchange_schedule(const CayleyGroup& g, const ExchangePlan& plan);

/// What the nodes of one partition saw in a run of exchange_program().
struct ExchangeReport {
  std::uint64_t nodes = 0;
  std::uint64_t complete = 0;  ///< nodes that received the N − 1 packets meant for them, each from its origin
  std::uint64_t wrong = 0;     ///< packets from the wrong neighbour or origin, or missing where one was due
  [[nodiscard]] std::string serialize() const;
  /// @throws Error when @p text is not what serialize() writes.
  static ExchangeReport parse(const std::string& text);
  void merge(const ExchangeReport& other);
};

/// @p plan as a node program for sizes beyond schedules (file comment). A plan of one packet per
/// step carries each packet as a word naming its origin, which the destination checks against
/// v·h⁻¹; a combining plan sends meta messages of packets[t] units naming the step, and a node
/// counts the packets whose route ends there (the set algebra says whose they are).
/// @param topology the group's (make_topology(g.spec())). The references must outlive the run.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> exchange_program(const CayleyGroup& g, const ExchangePlan& plan,
                                                                      const topology::Topology& topology,
                                                                      emulator::NodeRange range);

/// The outcome of running a plan on the emulator (unit time, strict, single port full duplex).
struct ExchangeCheck {
  bool verified = false;
  std::uint64_t steps = 0;
  std::uint64_t messages = 0;
  bool as_schedule = false;  ///< checked chunk by chunk (else: exchange_program)
  std::string problem;       ///< why not verified
};
/// Runs @p plan as a schedule up to MAX_UNIFORM_SCHEDULE_NODES nodes, as exchange_program() beyond.
[[nodiscard]] ExchangeCheck check_exchange(const CayleyGroup& g, const ExchangePlan& plan);

}  // namespace starnet::algorithms::collectives
