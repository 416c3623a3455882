#pragma once
/// @file
/// Run parameters of the emulator: port model, checking, time (docs/architecture.md, "emulator/").

#include <starnet/core/rational.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::emulator {

struct Asynchrony;  // asynchrony.hpp

/// How many transfers a node takes part in at once. Full duplex: up to `ports` sends and,
/// independently, up to `ports` receives. Half duplex: up to `ports` transfers in all.
/// The default is the single-port full-duplex model of the star-graph paper.
struct PortModel {
  unsigned ports = 1;
  bool half_duplex = false;
  [[nodiscard]] unsigned send_capacity() const { return ports; }
  [[nodiscard]] unsigned receive_capacity() const { return ports; }
  [[nodiscard]] std::string to_string() const;
};

/// STRICT: a second send or receive beyond the port model, or a send along a missing link, is a
/// ModelViolation naming step, nodes and link. ARBITRATED: contending transfers wait their turn
/// ("if the receiver is busy, the sender waits"), holding no port while they wait. Each round the
/// transfers that wait are taken in order of request (time, then sender id, then receiver id,
/// then the order the sender started them) and each starts when its receiver accepts its sender
/// (posted receives) and both ends have a free port (half duplex: sends and receives counted
/// together): a maximal set, greedy in that order (docs/emulator.md, "Arbitration").
enum class Checking : std::uint8_t { STRICT, ARBITRATED };

/// UNIT: every transfer takes one step, computations take none (step counts are what the star
/// paper proves). TIMED: a transfer of size s on link e takes s·cost(e), a computation w/speed.
enum class TimeMode : std::uint8_t { UNIT, TIMED };

[[nodiscard]] std::string to_string(Checking checking);
[[nodiscard]] std::string to_string(TimeMode mode);
/// @throws UsageError naming @p what for anything but "strict"/"arbitrated".
[[nodiscard]] Checking parse_checking(std::string_view text, std::string_view what);
/// The checking a planned run takes unless told: STRICT for a plan of steps run in unit time (it
/// must fit the port model as written), ARBITRATED for per-node programs and timed runs
/// (contending transfers wait their turn).
[[nodiscard]] Checking default_checking(bool stepped, TimeMode time);

/// The fewest nodes per lane of the dense step path by default (RunConfig::nodes_per_thread): 2^14,
/// so that S_8 (a step of about 2 ms on one thread) takes two lanes: its whole run 1.26× faster on
/// two cores than on one lane, and than on four lanes of 2^13 (docs/emulator.md, "Scale").
inline constexpr std::uint64_t DEFAULT_NODES_PER_THREAD = std::uint64_t{1} << 14;
/// Lanes per thread of the dense step path by default (RunConfig::lanes_per_thread): a lane's work
/// in a step depends on where its nodes send (in one step of S_10, 16 lanes took 18 to 55 ms), so
/// one lane per thread leaves threads waiting for the slowest at every step (62 % busy on 16
/// cores); many, taken as threads come free, even the load: S_10 on two threads 166–168 % busy
/// with 4 lanes a thread, 192 % with 16, 194–195 % with 64 for no less time (docs/emulator.md,
/// "Scale", "Lanes").
inline constexpr unsigned DEFAULT_LANES_PER_THREAD = 16;
/// The most messages a zmq worker on the dense step path gathers for its peers before they travel
/// (RunConfig::batch_messages): 2^17 rows of 16 bytes, 2 MiB, so a worker holds at most that many
/// bytes of batches it sends and as many from each peer, whatever its share of the graph.
inline constexpr std::uint64_t DEFAULT_BATCH_MESSAGES = std::uint64_t{1} << 17;

struct RunConfig {
  PortModel ports;
  Checking checking = Checking::STRICT;
  TimeMode time = TimeMode::UNIT;
  /// Record every event (the trace); counters are always kept.
  bool trace = false;
  /// Stop at this time even if events remain (periodic schedules run for a horizon).
  std::optional<Rational> horizon;
  /// Let the local engine run unit-time strict single-port runs of programs that only send on its
  /// dense step path (same trace and results; false: the general path, to compare the two).
  bool dense_steps = true;
  /// Threads the dense step path may use: lanes over contiguous node ranges, one program object
  /// each (the factory's, as for zmq workers), with the same trace, counters and violation whatever
  /// their number. 1: this thread alone. The general path always runs on one thread.
  unsigned threads = 1;
  /// The fewest nodes a lane takes (fewer lanes than threads on small runs, where a step is too
  /// short to share); DEFAULT_NODES_PER_THREAD unless a test wants lanes on a small graph.
  std::uint64_t nodes_per_thread = DEFAULT_NODES_PER_THREAD;
  /// Lanes per thread when there are several threads (one thread: one lane); tests set 1 to have
  /// exactly `threads` lanes.
  unsigned lanes_per_thread = DEFAULT_LANES_PER_THREAD;
  /// zmq workers on the dense step path: a step's messages for other workers leave in rounds of
  /// at most this many (the workers exchange as often as the busiest needs); tests set a few.
  /// Like the knobs above, an engine setting that worker processes take at its default.
  std::uint64_t batch_messages = DEFAULT_BATCH_MESSAGES;
  /// Transit times, loss, crashes, failed links, the order of reactions (asynchrony.hpp); none: a
  /// synchronous run. The general path on in-process engines only (worker processes refuse it).
  std::shared_ptr<const Asynchrony> asynchrony;
};

}  // namespace starnet::emulator
