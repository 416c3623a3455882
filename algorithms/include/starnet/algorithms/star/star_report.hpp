#pragma once
/// @file
/// What the star collectives (allreduce.hpp) compute and report, apart from their node programs:
/// the operators, the nodes' values, the step arithmetic of Oh, Choi and Primeaux (ICCS 2005,
/// Theorem 3: n(n−1)/2 steps), a partition's report, and the bytes per node the programs hold.

#include <starnet/emulator/program.hpp>

#include <cstdint>
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

/// Bytes per node the all-reduce program holds: the node's value and the value it forwards.
inline constexpr std::uint64_t ALLREDUCE_PROGRAM_BYTES_PER_NODE = 16;
/// Bytes per node the all-to-all broadcast program holds: the sub-stars the node holds (16 bits)
/// and the first item of the block it forwards (32 bits).
inline constexpr std::uint64_t BROADCAST_PROGRAM_BYTES_PER_NODE = 6;

}  // namespace starnet::algorithms::star
