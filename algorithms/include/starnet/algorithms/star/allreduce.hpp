#pragma once
/// @file
/// All-reduce and all-to-all broadcast on the star graph S_n as node programs.
///
/// Paper: E. Oh, H. Choi, D. Primeaux, "An All-Reduce Operation in Star Networks Using All-to-All
/// Broadcast Communication Pattern", ICCS 2005, LNCS 3514: Section 3 (all-to-all broadcast,
/// NODUP, meta messages), Section 4 and Figure 2 (All-Reduce), Theorem 3 (n(n−1)/2 steps).
///
/// The recursion, unrolled: level m = 2..n runs after levels 2..m−1 and takes m−1 steps, so
/// level m occupies steps [T(m−1), T(m)) with T(m) = m(m−1)/2. In the first step of level m
/// every node sends its local result (the reduction of its sub-star S_{m−1}) along link m; in the
/// following steps it forwards what it received along link m to links m−1, m−2, …, 2, and
/// reduces everything it receives into its result. A node decides what to do from the step
/// number alone: nothing of size n!·steps exists anywhere. Every step, every node sends one
/// message and receives one (links are involutions), which is exactly the single-port
/// full-duplex model.
///
/// Notation: the paper's "result buffer + outgoing buffer" is our `result` (their sum); the
/// outgoing buffer is `forward`. Sub-star S_{n−1}^i of the paper (last symbol i) is a contiguous
/// rank range (topology/star_graph.hpp).
///
/// Complexity: n(n−1)/2 steps, n!·n(n−1)/2 messages of one word; O(1) state per node.
/// IMPORTANT: the operators are commutative (sum, min, max, xor): the paper's scheme combines
/// partial results in an order that depends on the node.

#include <starnet/emulator/program.hpp>
#include <starnet/topology/star_graph.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::star {

enum class Op : std::uint8_t { SUM, MIN, MAX, XOR };
[[nodiscard]] std::string to_string(Op op);
/// @throws UsageError naming @p what for anything but sum, min, max, xor.
[[nodiscard]] Op parse_op(std::string_view text, std::string_view what);
/// a ⊕ b on 64-bit words (sum wraps modulo 2^64).
[[nodiscard]] std::uint64_t apply(Op op, std::uint64_t a, std::uint64_t b);

/// Initial node values: rank + 1 (1..n!, the paper's example), or seeded pseudo-random words.
struct Values {
  bool random = false;
  std::uint64_t seed = 0;
  [[nodiscard]] std::uint64_t of(emulator::NodeId rank) const;
};

/// T(m) = m(m−1)/2: steps of the all-reduce (and broadcast) on S_m.
[[nodiscard]] constexpr std::uint64_t allreduce_steps(int m) {
  return static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(m - 1) / 2;
}
/// The level m (2..n) that step @p s belongs to, and the step's offset inside the level.
struct LevelStep {
  int level = 0;
  int offset = 0;
  /// The link dimension used at this step: m at offset 0, then m−1, …, 2.
  [[nodiscard]] int link() const { return offset == 0 ? level : level - offset; }
};
[[nodiscard]] LevelStep level_of_step(std::uint64_t s);

/// What one partition saw: per-level steps actually used, and the check of every node.
struct StarReport {
  std::uint64_t nodes_checked = 0;
  std::uint64_t nodes_correct = 0;
  std::uint64_t duplicates = 0;           ///< broadcast: items received twice (NODUP violated)
  std::uint64_t items_received = 0;       ///< broadcast: items carried by the messages received
  std::int64_t first_wrong = -1;          ///< a node whose final state is wrong, -1 if none
  std::vector<std::uint64_t> level_first;  ///< index m: first step a message of level m was sent
  std::vector<std::uint64_t> level_last;   ///< index m: last step a message of level m arrived
  /// Counts node @p v's final state, right or wrong.
  void count(std::uint64_t v, bool correct) {
    if (correct) {
      ++nodes_correct;
    } else if (first_wrong < 0) {
      first_wrong = static_cast<std::int64_t>(v);
    }
  }
  [[nodiscard]] std::string serialize() const;
  static StarReport parse(const std::string& text);
  void merge(const StarReport& other);
};

/// The sequential reduction of every node's value: what every node must end with.
[[nodiscard]] std::uint64_t reduce_sequentially(const topology::StarGraph& g, Op op, const Values& values);

/// Bytes per node the all-reduce program holds: the node's value and the value it forwards.
inline constexpr std::uint64_t ALLREDUCE_PROGRAM_BYTES_PER_NODE = 16;
/// Bytes per node the all-to-all broadcast program holds: the sub-stars the node holds (16 bits)
/// and the first item of the block it forwards (32 bits).
inline constexpr std::uint64_t BROADCAST_PROGRAM_BYTES_PER_NODE = 6;

/// The all-reduce node program for the nodes of @p range. Its report() checks every node's
/// final value against @p expected.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_allreduce_program(const topology::StarGraph& g, Op op,
                                                                            Values values, std::uint64_t expected,
                                                                            emulator::NodeRange range);

/// The all-to-all broadcast node program (NODUP). Node v's item is v itself; a meta message
/// carries the items of one sub-star, which are a contiguous rank range, as that range (begin,
/// end), and counts end − begin items. On receipt a node checks that the range is a whole
/// sub-star S_{m−1} of its own S_m that it does not hold yet (no item arrives twice); its
/// report() checks that every node ends holding all n! items.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_broadcast_program(const topology::StarGraph& g,
                                                                            emulator::NodeRange range);

}  // namespace starnet::algorithms::star
