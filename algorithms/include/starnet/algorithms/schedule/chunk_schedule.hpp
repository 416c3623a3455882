#pragma once
/// @file
/// A collective schedule as data: which node moves which chunks to whom, in which order
/// (docs/schedules.md). Two forms, one representation:
///   - *stepped*: per step a list of transfers (from, to, items); a transfer whose from and to are
///     the same node is a local operation;
///   - *programmed* (untimed): per node one or more threads, each an ordered list of sends,
///     receives and local operations; the k-th send from u to v on a channel meets the k-th
///     receive at v from u on that channel. MSCCL's threadblocks are threads.
/// Either way every node gets an ordered list of actions per thread:
///   SEND  the values of some of its chunks (captured when the send starts) to a neighbour;
///   RECV  the next message from a neighbour: message position i → chunk dst, copied or reduced;
///   LOCAL chunk src → chunk dst on the node itself, copied or reduced.
/// A stepped schedule orders each node's actions by (step, LOCAL < SEND < RECV): what a send of
/// step s carries is what the receives of the steps before s left.
///
/// Memory: 20 bytes per action (two per transfer) and one shared item list per distinct list
/// (a stepped S_8 all-reduce has 3 distinct lists for 1,128,960 transfers).
/// IMPORTANT: the builder checks indices, pairs sends with receives and refuses duplicates; that a
/// schedule respects the port model, holds what it sends and computes its collective is what a
/// run on the emulator checks (chunk_program.hpp).

#include <starnet/algorithms/schedule/collective.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starnet::algorithms::schedule {

enum class ItemOp : std::uint8_t { COPY, REDUCE };
[[nodiscard]] std::string to_string(ItemOp op);

/// SEND: a = a chunk sent (b unused); RECV: message position a → chunk b; LOCAL: chunk a → chunk b.
struct Item {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  ItemOp op = ItemOp::COPY;
  friend bool operator==(const Item&, const Item&) = default;
};

/// An item of a transfer as a file states it: chunk src of the sender → chunk dst of the receiver.
struct TransferItem {
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
  ItemOp op = ItemOp::COPY;
};

inline constexpr std::uint32_t NO_DEP = std::numeric_limits<std::uint32_t>::max();

struct Action {
  enum class Kind : std::uint8_t { LOCAL, SEND, RECV };
  Kind kind = Kind::SEND;
  /// Stepped: the step. Programmed: the message tag (channel · 2^24 + ordinal of the pair).
  std::uint32_t key = 0;
  std::uint32_t peer = 0;  ///< SEND: receiver; RECV: sender; LOCAL: the node itself
  std::uint32_t items = 0;  ///< index of the item list (Schedule::items)
  std::uint32_t dep = NO_DEP;  ///< an action of the same node (node-local index) that must be done first
};

enum class Form : std::uint8_t { STEPPED, PROGRAMMED };

class Schedule {
 public:
  [[nodiscard]] const ChunkRules& rules() const { return rules_; }
  [[nodiscard]] Form form() const { return form_; }
  [[nodiscard]] std::uint32_t nodes() const { return rules_.nodes(); }
  /// Data chunks then scratch chunks.
  [[nodiscard]] std::uint32_t slots() const { return slots_; }
  [[nodiscard]] std::uint32_t scratch() const { return slots_ - rules_.chunks() - extra_; }
  /// Stepped: last step + 1. Programmed: 0.
  [[nodiscard]] std::uint32_t steps() const { return steps_; }
  [[nodiscard]] std::uint64_t transfers() const { return transfers_; }
  [[nodiscard]] std::uint64_t local_operations() const { return locals_; }
  /// Chunk values carried by all transfers (each message carries each distinct chunk once).
  [[nodiscard]] std::uint64_t chunks_moved() const { return chunks_moved_; }
  /// A topology spec the file names (may be empty).
  [[nodiscard]] const std::string& topology() const { return topology_; }
  /// How messages name chunk @p slot: "chunk 3", or as an MSCCL file does, "o[1]".
  [[nodiscard]] std::string chunk_name(std::uint32_t slot) const;
  [[nodiscard]] std::uint32_t threads(std::uint32_t v) const { return node_threads_[v + 1] - node_threads_[v]; }
  /// Node @p v's actions of all its threads, thread after thread; dep indices count from the first.
  [[nodiscard]] std::span<const Action> actions(std::uint32_t v) const {
    const auto first = thread_offsets_[node_threads_[v]];
    return {actions_.data() + first, actions_.data() + thread_offsets_[node_threads_[v + 1]]};
  }
  /// Node-local action range [begin, end) of thread @p t of node @p v.
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> thread_range(std::uint32_t v, std::uint32_t t) const {
    const auto base = thread_offsets_[node_threads_[v]];
    const auto i = node_threads_[v] + t;
    return {static_cast<std::uint32_t>(thread_offsets_[i] - base), static_cast<std::uint32_t>(thread_offsets_[i + 1] - base)};
  }
  [[nodiscard]] std::span<const Item> items(std::uint32_t list) const {
    return {items_.data() + list_offsets_[list], items_.data() + list_offsets_[list + 1]};
  }
  [[nodiscard]] std::size_t item_lists() const { return list_offsets_.size() - 1; }
  /// Bytes held by this object (the benchmark's memory per transfer).
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  friend class ScheduleBuilder;
  explicit Schedule(const ChunkRules& rules) : rules_(rules) {}
  ChunkRules rules_;
  Form form_ = Form::STEPPED;
  std::uint32_t slots_ = 0;
  std::uint32_t extra_ = 0;  // slots that are neither data nor scratch (an MSCCL input buffer)
  std::uint32_t steps_ = 0;
  std::uint64_t transfers_ = 0;
  std::uint64_t locals_ = 0;
  std::uint64_t chunks_moved_ = 0;
  std::string topology_;
  std::vector<std::pair<std::uint32_t, std::string>> buffers_;  // (first slot, buffer name), ascending
  std::vector<std::uint32_t> node_threads_{0};
  std::vector<std::uint64_t> thread_offsets_{0};
  std::vector<Action> actions_;
  std::vector<Item> items_;
  std::vector<std::uint32_t> list_offsets_{0};
};

/// Message sizes and volume of a schedule, counted in items (a message carries each listed item).
struct ScheduleVolume {
  std::vector<std::uint64_t> largest;  ///< stepped form: the largest message of each step
  std::uint64_t received_max = 0;      ///< items received by the node that receives most
  std::uint64_t received_min = 0;      ///< … and by the node that receives least
  std::uint64_t sent_max = 0;          ///< items sent by the node that sends most (its volume)
};
[[nodiscard]] ScheduleVolume volume(const Schedule& s);

/// Builds a Schedule from either form (not both).
///
/// @code
///   ScheduleBuilder b(ChunkRules(Collective::ALLREDUCE, 2, 1, 0), /*scratch=*/0);
///   b.add_transfer(0, 0, 1, {{0, 0, ItemOp::REDUCE}});
///   b.add_transfer(1, 1, 0, {{0, 0, ItemOp::COPY}});
///   const Schedule s = std::move(b).build();
/// @endcode
class ScheduleBuilder {
 public:
  /// @param extra slots between the data chunks and the scratch chunks (MSCCL's separate input or
  /// output buffer); @param where names the input in messages, e.g. `schedule "ring.json"`.
  ScheduleBuilder(const ChunkRules& rules, std::uint32_t scratch, std::uint32_t extra = 0, std::string where = "schedule");
  void set_topology(std::string spec) { schedule_.topology_ = std::move(spec); }
  /// Slots from @p first up to the next named buffer are `buffer[slot - first]` in messages
  /// (MSCCL's i, o and s buffers). Call in ascending @p first.
  void name_buffer(std::uint32_t first, std::string buffer) { schedule_.buffers_.emplace_back(first, std::move(buffer)); }

  /// Stepped form. @p context names the transfer in messages (e.g. "steps[3][7]").
  /// @throws ScheduleError naming @p context for a node or chunk out of range or no items.
  void add_transfer(std::uint32_t step, std::uint32_t from, std::uint32_t to, std::span<const TransferItem> items,
                    const std::string& context = {});

  /// Programmed form: a new thread of node @p v; its actions follow with the add_* calls below.
  /// @return the thread's index among @p v's threads.
  std::uint32_t add_thread(std::uint32_t v);
  /// Appends to thread @p t of node @p v. @p channel distinguishes independent streams between a
  /// pair (0 ≤ channel < 256). @return the action's index in its thread (for depends_on).
  std::uint32_t add_send(std::uint32_t v, std::uint32_t t, std::uint32_t to, std::span<const std::uint32_t> chunks,
                         std::uint32_t channel, const std::string& context);
  std::uint32_t add_receive(std::uint32_t v, std::uint32_t t, std::uint32_t from,
                            std::span<const std::uint32_t> destinations, ItemOp op, std::uint32_t channel,
                            const std::string& context);
  std::uint32_t add_local(std::uint32_t v, std::uint32_t t, std::span<const TransferItem> items,
                          const std::string& context);
  /// An action that does nothing (it orders: others may depend on it).
  std::uint32_t add_nop(std::uint32_t v, std::uint32_t t, const std::string& context);
  /// Action @p index of thread @p t of node @p v waits for action @p on_index of thread @p on_t
  /// (checked at build()).
  void depends_on(std::uint32_t v, std::uint32_t t, std::uint32_t index, std::uint32_t on_t, std::uint32_t on_index,
                  const std::string& context);

  /// @throws ScheduleError naming the place for a transfer planned twice (same step, from, to),
  /// a receive without its send (or the reverse), a receive reading past the message it meets.
  [[nodiscard]] Schedule build() &&;

 private:
  struct StepTransfer {
    std::uint32_t step, from, to, send_list, recv_list;
  };
  std::uint32_t intern(std::span<const Item> items);
  void check_node(std::uint32_t v, const std::string& context) const;
  void check_slot(std::uint32_t slot, const std::string& context) const;
  void build_stepped();
  void build_programmed();

  Schedule schedule_;
  std::string where_;
  std::unordered_map<std::string, std::uint32_t> lists_;  // item list bytes → index
  std::vector<StepTransfer> stepped_;
  // Programmed form: per node, its threads' actions in order (flattened at build()).
  struct Thread {
    std::vector<Action> actions;
    std::vector<std::uint32_t> channels;
    std::vector<std::string> contexts;
  };
  std::vector<std::vector<Thread>> threads_;
  std::uint64_t transfers_added_ = 0;  // for the stop checks of add_transfer()
  // add_transfer(): the place of each source chunk in the message being built, valid where
  // mention_epoch_ holds this message's epoch — O(1) an item where a search of the message was
  // O(items): a hierarchical all-reduce's 392-chunk messages at 5,488 hosts (hierarchical.hpp).
  std::vector<std::uint32_t> mention_epoch_;
  std::vector<std::uint32_t> mention_at_;
  std::uint32_t epoch_ = 0;
  struct Dep {
    std::uint32_t v, t, index, on_t, on_index;
    std::string context;
  };
  std::vector<Dep> deps_;
};

}  // namespace starnet::algorithms::schedule
