#pragma once
/// @file
/// Collective schedules on an arbitrary topology, and the one node program that executes any of
/// them.
///
/// Problem: every node v of a topology holds a word x_v; all-reduce leaves x_0 ⊕ … ⊕ x_{N−1} at
/// every node, reduce leaves it at the root, broadcast leaves x_root at every node, under a port
/// model (emulator/config.hpp). A Schedule is the plan of one such collective: transfers
/// (step, from → to) with what the sender puts in the message and what the receiver does with it.
/// The planners (bfs_tree.hpp, recursive_doubling.hpp, ring.hpp) build schedules centrally from
/// the topology; the node program below executes one, node by node, with no global view.
///
/// A node's state is its accumulator `acc` (initially x_v) and two slots. Its actions, in the order
/// (step, SAVE before SEND before RECEIVE, insertion order) — the *plan order* — are:
///   SAVE s      slot[s] = acc (no transfer);
///   SEND        a message with acc or slot[s] to a neighbour (captured when the send starts);
///   RECEIVE     the message of that step from that neighbour: acc = acc ⊕ x (COMBINE) or acc = x
///               (REPLACE), and optionally slot[s] = x.
/// A node performs its actions strictly in plan order, so what a message carries depends on the
/// plan only, never on timing: a send at step s carries acc as the receives of steps < s left it.
///
/// Relays (a platform's routers): a node a plan marks as a relay holds no value and only forwards.
/// Every message it receives is kept whole under the message's id (Operand::RELAY) and sent on,
/// once, later in plan order; it never touches acc, combines nothing, and sends nothing it did not
/// receive. The constructor checks this, so a relay's every outgoing message is one incoming
/// message unchanged; the program checks the final value of the other nodes only, and counts a
/// message a relay still holds at the end as a plan error.
///
/// Execution (make_schedule_program):
///   - unit time (TimeMode::UNIT, strict checking): a send planned at step s starts exactly at
///     step s; a node waiting for a later send sleeps one step at a time, so that every time
///     0..makespan is an event time and ctx.step() is the time. A transfer of step s arrives at
///     s + 1, so the run takes exactly steps() steps when the plan is valid for the port model,
///     and the emulator's strict checks certify that it is.
///   - timed (TimeMode::TIMED, heterogeneous costs, arbitrated checking): a node starts each send
///     as soon as the actions before it are done; the emulator queues contending transfers ("if the
///     receiver is busy, the sender waits"). Messages carry their planned step as tag, so early
///     arrivals wait in a buffer until the plan order reaches them.
///
/// Complexity: a Schedule holds its transfers and one 24-byte action per send, receive and save,
/// in arrays indexed by node (compressed rows), built in O(A log A) for A actions; O(1) work per
/// action during the run, plus the buffer scan (a node holds a few early messages at most in the
/// planners' schedules).
///
/// IMPORTANT: the program checks the plan as it runs it (a send that cannot start at its step, a
/// message nobody planned to receive, actions left undone all count as plan errors in the report),
/// but it checks the port model only through the emulator's strict mode: run unit-time plans
/// with Checking::STRICT.

#include <starnet/algorithms/collective.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/emulator/program.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace starnet::algorithms::generic {

using emulator::NodeId;
using star::Op;

/// The collectives the word plans of this folder compute: allreduce, reduce and broadcast.
using algorithms::Collective;

/// Where a sent word comes from, or where a received word is kept. RELAY: a relay's store of
/// messages in transit, addressed by the transfer's message id (a relay's only operand).
enum class Operand : std::uint8_t { ACC, SLOT_0, SLOT_1, NONE, RELAY };

/// The message id of a transfer that no relay sends or keeps.
inline constexpr std::uint32_t NO_MESSAGE = std::numeric_limits<std::uint32_t>::max();
/// What a receiver does with a word: acc = acc ⊕ x, or acc = x.
enum class Merge : std::uint8_t { COMBINE, REPLACE };

/// One transfer of a plan: at @p step, @p from sends @p source to @p to, which merges it into acc
/// and keeps it in @p keep (NONE: nowhere). A relay sends (source RELAY) or keeps (keep RELAY,
/// acc untouched) the message @p message; a message keeps its id along its whole route.
struct Transfer {
  std::uint32_t step = 0;
  NodeId from = 0;
  NodeId to = 0;
  Operand source = Operand::ACC;
  Merge merge = Merge::COMBINE;
  Operand keep = Operand::NONE;
  std::uint32_t message = NO_MESSAGE;
};

/// One action of one node (see the file comment).
struct Action {
  enum class Kind : std::uint8_t { SAVE, SEND, RECEIVE };
  std::uint32_t step = 0;
  Kind kind = Kind::SEND;
  Operand operand = Operand::ACC;  ///< SEND: what is sent; RECEIVE: where x is kept; SAVE: the slot
  Merge merge = Merge::COMBINE;    ///< RECEIVE only
  NodeId peer = 0;                 ///< SEND: the receiver; RECEIVE: the sender
  std::uint32_t message = NO_MESSAGE;  ///< operand RELAY: the message sent or kept
};

/// A plan: the actions of every node in plan order. Immutable once built.
class Schedule {
 public:
  Schedule() = default;
  /// @param nodes the number of nodes (ids 0..nodes−1).
  /// @param transfers the transfers, in any order. @param saves (step, node, slot) snapshots.
  /// @param relays the nodes that only forward (empty: none; else one flag per node).
  /// @throws ScheduleError naming the transfer when a node id is out of range, a transfer is a
  /// self-loop, a slot is not SLOT_0/SLOT_1 where one is needed, two transfers share
  /// (step, from, to) (a receiver could not tell them apart), or a relay breaks its rule (file
  /// comment: an operand other than RELAY, a save, a message sent before it arrived, twice, or
  /// never).
  Schedule(NodeId nodes, std::vector<Transfer> transfers,
           std::vector<std::tuple<std::uint32_t, NodeId, Operand>> saves = {}, std::vector<bool> relays = {});

  [[nodiscard]] NodeId nodes() const { return static_cast<NodeId>(offsets_.size() - 1); }
  /// Steps of the plan: last transfer step + 1 (0 for a plan without transfers).
  [[nodiscard]] std::uint32_t steps() const { return steps_; }
  [[nodiscard]] std::span<const Transfer> transfers() const { return transfers_; }
  /// Node @p v's actions in plan order. @pre v < nodes().
  [[nodiscard]] std::span<const Action> actions(NodeId v) const {
    return {actions_.data() + offsets_[v], actions_.data() + offsets_[v + 1]};
  }
  /// Whether @p v only forwards (file comment). @pre v < nodes().
  [[nodiscard]] bool relay(NodeId v) const { return !relays_.empty() && relays_[v]; }
  [[nodiscard]] bool has_relays() const { return !relays_.empty(); }

 private:
  void check_relays() const;

  std::vector<Transfer> transfers_;  // sorted by (step, from, to)
  std::vector<bool> relays_;         // empty: no relay
  std::vector<std::uint64_t> offsets_{0};
  std::vector<Action> actions_;
  std::uint32_t steps_ = 0;
};

/// What every node must hold at the end: all nodes (ALLREDUCE, BROADCAST) or the root only
/// (REDUCE) hold @p value; relays hold nothing.
struct Expectation {
  std::uint64_t value = 0;
  bool root_only = false;
  NodeId root = 0;
};

/// The value each node must end with, computed sequentially from the initial words of the nodes
/// that are not relays (@p relays empty: every node).
/// @pre root < initial.size(), relays empty or of initial's size.
[[nodiscard]] Expectation expected_result(Collective c, Op op, std::span<const std::uint64_t> initial, NodeId root,
                                          const std::vector<bool>& relays = {});

/// What one partition saw.
struct ScheduleReport {
  std::uint64_t nodes_checked = 0;
  std::uint64_t nodes_correct = 0;
  std::int64_t first_wrong = -1;  ///< a node whose final value is wrong, −1 if none
  std::uint64_t plan_errors = 0;  ///< late sends, unplanned messages, actions left undone
  std::int64_t first_error = -1;  ///< a node where a plan error happened, −1 if none
  [[nodiscard]] bool ok() const { return nodes_correct == nodes_checked && plan_errors == 0; }
  [[nodiscard]] std::string serialize() const;
  /// @throws Error when @p text is not what serialize() writes.
  static ScheduleReport parse(const std::string& text);
  void merge(const ScheduleReport& other);
};

/// The node program executing @p schedule for the nodes of @p range (see the file comment).
/// @param initial x_v for every node v (size schedule.nodes()); @param mode UNIT: sends at their
/// planned step; TIMED: as soon as possible, in plan order. The references must outlive the run.
[[nodiscard]] std::unique_ptr<emulator::NodeProgram> make_schedule_program(const Schedule& schedule,
                                                                           std::span<const std::uint64_t> initial,
                                                                           Op op, Expectation expectation,
                                                                           emulator::TimeMode mode,
                                                                           emulator::NodeRange range);

}  // namespace starnet::algorithms::generic
