#pragma once
/// @file
/// Node programs: how an algorithm is written once and run by every engine.
///
/// A NodeProgram object serves the nodes of one partition (a contiguous range of node ids); it
/// keeps their state in whatever layout suits it (for S_11, 40 million nodes, a few words each).
/// The engine calls react() for a node at the start of the run and then whenever the node has
/// something to react to: messages that finished arriving, its own sends that finished,
/// computations or timers that finished. During react() the node may start sends (at most one per
/// free send port in strict mode), computations and timers. A node's program sees only its own
/// events and the topology, never a global schedule.
///
/// Usage:
/// @code
///   class Echo final : public NodeProgram {
///     void react(Context& ctx) override {
///       if (ctx.starting() && ctx.node() == 0) ctx.send(/*port=*/0, "hello");
///       for (const auto& m : ctx.received()) ctx.compute(/*work=*/1, /*tag=*/m.from);
///     }
///   };
/// @endcode

#include <starnet/core/rational.hpp>
#include <starnet/emulator/asynchrony.hpp>
#include <starnet/topology/topology.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace starnet::emulator {

using topology::NodeId;
using topology::Port;

/// A message that finished arriving at the reacting node.
struct Delivery {
  NodeId from = 0;
  Port port = 0;  ///< the sender's port the message left through
  /// The receiver's port it came in on (Topology::back_port: the port to reply on; NO_PORT on a
  /// one-way link).
  Port arrival_port = 0;
  std::uint64_t tag = 0;
  Rational size = 1;
  std::string payload;
};

/// Something the reacting node started earlier that has now finished.
struct Completion {
  enum class Kind : std::uint8_t { SEND, COMPUTE, TIMER };
  Kind kind = Kind::SEND;
  std::uint64_t tag = 0;
  NodeId peer = 0;  ///< for SEND: the receiver
};

/// The bytes of a cache line. Lanes of the dense step path (dense_step.hpp) run the programs of
/// neighbouring node ranges on different threads at once: state that a program object or a lane
/// writes on every message is kept on lines of its own (`alignas(CACHE_LINE)`, held inline
/// rather than in small heap blocks that sit side by side), else two cores pass the line between
/// them on every write (docs/emulator.md, "Lanes").
inline constexpr std::size_t CACHE_LINE = 64;

/// The contiguous node-id range [begin, end) one program object serves.
struct NodeRange {
  NodeId begin = 0;
  NodeId end = 0;
  [[nodiscard]] NodeId size() const { return end - begin; }
  [[nodiscard]] bool contains(NodeId v) const { return v >= begin && v < end; }
};

/// What a node sees and may do during one reaction. Only valid inside react().
/// What it sees is plain data set by the engine before each reaction (the Monte-Carlo studies
/// make millions of reactions per second); what it does goes through the engine.
class Context {
 public:
  virtual ~Context() = default;
  [[nodiscard]] NodeId node() const { return node_; }
  /// Index of the current event time (in unit time, the step number itself).
  [[nodiscard]] std::uint64_t step() const { return step_; }
  /// The current event time, exact (a run in floating-point time gives its double exactly); where
  /// only transfers take time in unit mode, the step number.
  [[nodiscard]] virtual Rational time() const { return Rational(static_cast<std::int64_t>(step_)); }
  /// True in the node's first reaction of the run (step 0).
  [[nodiscard]] bool starting() const { return starting_; }
  /// Messages that finished arriving now, in a deterministic order (sender id, then tag).
  [[nodiscard]] std::span<const Delivery> received() const { return received_; }
  /// Sends, computations and timers of this node that finished now.
  [[nodiscard]] std::span<const Completion> completed() const { return completed_; }
  [[nodiscard]] const topology::Topology& topology() const { return *topology_; }
  /// The seed of this node's own random numbers: the run's seed (Asynchrony::seed) mixed with the
  /// node's id, the same under every engine (Python's ctx.random).
  [[nodiscard]] std::uint64_t seed() const { return draw_bits(run_seed_, DrawStream::NODE_SEED, node_, 0); }

  /// Starts a transfer of @p payload through @p port; @p size in unit-size messages (the time is
  /// size·cost of the link in timed mode, one step in unit mode). In strict mode a busy send
  /// port or a missing port is a ModelViolation; in arbitrated mode the send waits its turn
  /// (config.hpp: the order in which waiting transfers start).
  virtual void send(Port port, std::string payload, Rational size = 1, std::uint64_t tag = 0) = 0;
  /// As send(), naming the neighbour instead of the port.
  /// @throws ModelViolation (strict and arbitrated) when there is no link to @p to.
  virtual void send_to(NodeId to, std::string payload, Rational size = 1, std::uint64_t tag = 0) = 0;
  /// Starts a computation of @p work unit tasks (time work/speed in timed mode, none in unit
  /// mode). Computations of one node run one after the other; they overlap its transfers.
  virtual void compute(Rational work, std::uint64_t tag = 0) = 0;
  /// Asks to react again after @p delay time units (a timer; occupies nothing).
  virtual void sleep(Rational delay, std::uint64_t tag = 0) = 0;
  /// Send ports not in use now: a send counts from its start until it ends, including the time it
  /// waits its turn (arbitrated), and in half duplex so does a receive in flight.
  [[nodiscard]] virtual unsigned free_send_ports() const = 0;
  /// Posts a receive from @p from (MPI-style): from its first call on, this node takes messages
  /// only from the senders it posted, one message per call, in the order posted; other senders
  /// wait (arbitrated) or violate the model (strict). Nodes that never call it take any sender.
  /// This is how a plan fixes the order in which a node combines its children's values.
  virtual void accept(NodeId from) = 0;

 protected:
  explicit Context(const topology::Topology& topology) : topology_(&topology) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  NodeId node_ = 0;
  std::uint64_t step_ = 0;
  bool starting_ = false;
  std::span<const Delivery> received_;
  std::span<const Completion> completed_;
  const topology::Topology* topology_;
  std::uint64_t run_seed_ = 1;  ///< Asynchrony::seed's default unless the run gives one
};

class NodeProgram {
 public:
  virtual ~NodeProgram() = default;
  /// Called for a node at step 0, then whenever it has deliveries or completions.
  virtual void react(Context& ctx) = 0;
  /// False for a program that never looks at its sends' completions: the engine then leaves
  /// them out of completed() and does not call react() for them (the port is freed and the
  /// trace keeps its send_end all the same). A fifth of the reactions of a Monte-Carlo run.
  [[nodiscard]] virtual bool reacts_to_sends() const { return true; }
  /// True for a program that only sends (never compute(), sleep() or accept()): the local engine
  /// then runs it in unit time, strict, single-port on its dense step path, with no record per
  /// message (the star collectives: S_11 in a fifth of the memory).
  [[nodiscard]] virtual bool sends_only() const { return false; }
  /// An opaque account of this partition after the run (e.g. how many nodes hold the right
  /// value), handed back to the caller; processes send it to the coordinator.
  [[nodiscard]] virtual std::string report() const { return {}; }
};

}  // namespace starnet::emulator
