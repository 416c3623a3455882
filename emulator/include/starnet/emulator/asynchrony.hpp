#pragma once
/// @file
/// Asynchrony and faults of a run (docs/emulator.md, "Asynchrony and faults"): a transit time per
/// message after its transfer, channels that keep their order or not, messages lost at random,
/// nodes that crash and links that fail at given times, and the order of the reactions at one
/// time. Every draw is a pure function of the run's seed, the sending node and how many messages
/// it sent before (a counter-based stream), so that a run is the same under every engine and
/// partitioning.
///
/// A message's life under a transit time d: its transfer holds the sender's port, the link and
/// the receiver's port as in a synchronous run (one message at a time); it then travels for d,
/// holding nothing, and arrives at the transfer's end + d. Several messages may thus be in transit
/// on one link; a FIFO channel delivers them in the order sent (an arrival is never before that of
/// a message sent earlier on the channel), a non-FIFO one when each is due.

#include <starnet/core/rational.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace starnet::emulator {

using topology::NodeId;

/// A message whose transit time is drawn.
struct Transit {
  NodeId from = 0;
  NodeId to = 0;
  std::string_view payload;
  /// 64 random bits of this message alone (its sender, its number among the sender's messages, the
  /// run's seed): a law seeds its own generator with them.
  std::uint64_t key = 0;
};

/// How long a message travels after its transfer.
class DelayLaw {
 public:
  virtual ~DelayLaw() = default;
  /// The transit time of @p message (≥ 0; a negative one is the run's violation). Called by the
  /// engine that runs the sender, once per message, during the sender's reaction.
  [[nodiscard]] virtual Rational delay(const Transit& message) const = 0;
};

/// A node that stops at a time: from then on it reacts no more, and what it had in flight or is
/// sent is lost.
struct Crash {
  NodeId node = 0;
  Rational at = 0;
};

/// A link that fails at a time, in both directions: a message that would arrive over it from then
/// on is lost.
struct LinkFailure {
  NodeId a = 0;
  NodeId b = 0;
  Rational at = 0;
};

struct Asynchrony {
  std::uint64_t seed = 1;
  /// None: a message arrives as its transfer ends, as in a synchronous run.
  std::shared_ptr<const DelayLaw> delays;
  bool fifo = true;
  /// The probability that a message is lost (it takes its transfer, then never arrives).
  double loss = 0;
  std::vector<Crash> crashes;
  std::vector<LinkFailure> failed_links;
  /// The reactions at one time in an order drawn from the seed and the time, not by node id.
  bool random_order = false;

  /// When @p v crashes, if it does.
  [[nodiscard]] std::optional<Rational> crash_time(NodeId v) const;
  /// When the link between @p a and @p b fails, if it does (the earliest, if named twice).
  [[nodiscard]] std::optional<Rational> failure_time(NodeId a, NodeId b) const;
};

/// SplitMix64's finaliser (Steele, Lea, Flood, OOPSLA 2014): a bijection of 64-bit words that
/// spreads every input bit over the output, the draws below being hashes of counters.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

/// What a draw is for: each its own stream of a message's or a node's numbers.
enum class DrawStream : std::uint8_t { DELAY, LOSS, NODE_SEED, ORDER };

/// The 64 random bits of draw @p stream of item @p k of node @p v under @p seed.
[[nodiscard]] constexpr std::uint64_t draw_bits(std::uint64_t seed, DrawStream stream, NodeId v, std::uint64_t k) {
  return mix64(mix64(mix64(seed ^ static_cast<std::uint64_t>(stream)) ^ v) ^ k);
}

/// A uniform double in [0, 1) from 64 random bits (their top 53).
[[nodiscard]] constexpr double unit_interval(std::uint64_t bits) {
  constexpr double TWO_TO_MINUS_53 = 0x1.0p-53;
  constexpr unsigned DROPPED_BITS = 11;
  return static_cast<double>(bits >> DROPPED_BITS) * TWO_TO_MINUS_53;
}

}  // namespace starnet::emulator
