#pragma once
/// @file
/// Counter-based random numbers: one independent, reproducible stream per Monte-Carlo run.
///
/// Problem: run i of a study with seed S must draw the same numbers whatever the number of
/// threads and whatever the order in which runs are scheduled (docs/montecarlo.md: same seed, same numbers).
/// A counter-based generator makes the k-th number of run i a pure function of (S, i, k).
///
/// Generator: Philox4x32-10 of Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy
/// as 1, 2, 3", SC'11, Section 4 (the Random123 reference; also C++26 std::philox4x32). It maps
/// a 128-bit counter and a 64-bit key to 128 random bits through 10 rounds of two 32×32→64-bit
/// multiplications; distinct counters under one key give distinct outputs (it is a bijection).
///
/// Stream layout: key = seed (low word first); counter = {block, substream, run low, run high}.
/// Each block yields two 64-bit numbers, low word first: (w1 << 32) | w0, then (w3 << 32) | w2.
/// A stream therefore holds 2^33 64-bit numbers. Complexity: O(1) per number (one Philox block
/// per two numbers, ~20 multiplications, computed eight blocks at a time with AVX2 or SSE2); a stream is
/// ~160 bytes and computes nothing until its first number is drawn.
///
/// IMPORTANT: floating-point samplers built on top use libm (log, exp, sqrt); their outputs are
/// bit-identical for one build and libm, but another libm may round a transcendental function
/// differently in the last bit. The integer stream itself is identical everywhere.

#include <array>
#include <cstddef>
#include <cstdint>

namespace starnet::algorithms::stochastic {

/// Philox4x32-10's round multipliers and key increments (SC'11 Section 4).
inline constexpr std::uint32_t PHILOX_MULTIPLIER_0 = 0xD2511F53U;
inline constexpr std::uint32_t PHILOX_MULTIPLIER_1 = 0xCD9E8D57U;
inline constexpr std::uint32_t PHILOX_WEYL_0 = 0x9E3779B9U;  // golden ratio
inline constexpr std::uint32_t PHILOX_WEYL_1 = 0xBB67AE85U;  // sqrt(3) - 1

/// Philox4x32-10 on @p LANES independent counters at once (structure of arrays: word w of lane l
/// is counters[w][l]); the lanes let the compiler overlap the multiplications of several blocks.
template <std::size_t LANES>
constexpr void philox4x32_10_lanes(std::array<std::array<std::uint32_t, LANES>, 4>& counters,
                                   std::array<std::uint32_t, 2> key) {
  // Local copies (not references into @p counters) let the compiler keep the lanes in registers.
  std::array<std::uint32_t, LANES> x0 = counters[0];
  std::array<std::uint32_t, LANES> x1 = counters[1];
  std::array<std::uint32_t, LANES> x2 = counters[2];
  std::array<std::uint32_t, LANES> x3 = counters[3];
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += PHILOX_WEYL_0;
      key[1] += PHILOX_WEYL_1;
    }
    for (std::size_t l = 0; l < LANES; ++l) {
      const std::uint64_t p0 = static_cast<std::uint64_t>(PHILOX_MULTIPLIER_0) * x0[l];
      const std::uint64_t p1 = static_cast<std::uint64_t>(PHILOX_MULTIPLIER_1) * x2[l];
      x0[l] = static_cast<std::uint32_t>(p1 >> 32) ^ x1[l] ^ key[0];
      x1[l] = static_cast<std::uint32_t>(p1);
      x2[l] = static_cast<std::uint32_t>(p0 >> 32) ^ x3[l] ^ key[1];
      x3[l] = static_cast<std::uint32_t>(p0);
    }
  }
  counters = {x0, x1, x2, x3};
}

/// Philox4x32-10 (SC'11 Section 4): the 4×32-bit output block for @p counter under @p key.
/// Known-answer vectors of the Random123 distribution: counter 0, key 0 gives
/// {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}.
/// @return the 128 random bits as four 32-bit words. O(1), constexpr.
[[nodiscard]] constexpr std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> counter,
                                                                   std::array<std::uint32_t, 2> key) {
  std::array<std::array<std::uint32_t, 1>, 4> lanes = {{{counter[0]}, {counter[1]}, {counter[2]}, {counter[3]}}};
  philox4x32_10_lanes(lanes, key);
  return {lanes[0][0], lanes[1][0], lanes[2][0], lanes[3][0]};
}

/// The random numbers of one Monte-Carlo run: stream(seed, run_index[, substream]).
///
/// Usage:
/// @code
///   tbb::parallel_for(std::uint64_t{0}, runs, [&](std::uint64_t run) {
///     RandomStream stream(seed, run);          // same numbers whatever thread runs it
///     const double d = distribution(stream);   // CostDistribution::operator()
///   });
/// @endcode
/// Not thread-safe: each thread uses its own stream (they are cheap). Two streams that differ
/// in seed, run index or substream never share a block.
class RandomStream {
 public:
  /// @param seed the study's --seed (the Philox key).
  /// @param run_index index of the run in the study, 0-based.
  /// @param substream a further independent stream of the same run (e.g. one per cost kind
  ///        or per node, for common random numbers across algorithms); 0 by default.
  constexpr RandomStream(std::uint64_t seed, std::uint64_t run_index, std::uint32_t substream = 0)
      : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)},
        counter_{0, substream, static_cast<std::uint32_t>(run_index), static_cast<std::uint32_t>(run_index >> 32)} {}

  /// The next 64 random bits. O(1).
  /// @throws Error when the stream's 2^33 numbers are used up (never in a realistic run).
  std::uint64_t next_u64() {
    if (next_ == BUFFERED) refill();
    return buffer_[next_++];
  }

  /// A uniform double in the open interval (0, 1): (top 53 bits + 1/2) · 2^-53, so that
  /// log(u) and 1/u are always finite. Values are the 2^53 midpoints k·2^-53 + 2^-54.
  double next_uniform() { return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53; }

  /// Positions the stream so that the next number is its @p index-th (0-based): random access,
  /// e.g. to give a cost a fixed place in its run's stream. O(1) (one refill).
  /// @throws InputError naming the index when index ≥ 2^33 (the stream's length).
  void seek(std::uint64_t index);

  /// The run index and substream this stream was built for.
  [[nodiscard]] std::uint64_t run_index() const {
    return (static_cast<std::uint64_t>(counter_[3]) << 32) | counter_[2];
  }
  [[nodiscard]] std::uint32_t substream() const { return counter_[1]; }

 private:
  static constexpr std::size_t BLOCKS = 8;  // Philox blocks computed per refill
  static constexpr std::size_t BUFFERED = 2 * BLOCKS;
  /// Fills buffer_ with the next BLOCKS blocks. @throws Error past the last block.
  void refill();

  std::array<std::uint32_t, 2> key_;
  std::array<std::uint32_t, 4> counter_;  // the next block to compute
  std::array<std::uint64_t, BUFFERED> buffer_{};
  std::size_t next_ = BUFFERED;  // next number of buffer_ to hand out
  bool exhausted_ = false;
};

}  // namespace starnet::algorithms::stochastic
