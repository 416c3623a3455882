#pragma once
// The dense step path of the local engine (docs/emulator.md, "The dense step path"): unit-time,
// strict, single-port full-duplex runs of programs that only send (NodeProgram::sends_only()),
// such as the star collectives, in which every transfer takes exactly one step. No agenda and no
// record per message: a step's messages live in flat arrays indexed by receiver (two sets, the
// arrivals of this step and those of the next), payloads of up to 8 bytes inline, 32-bit node
// ids; a field on which all of a step's messages agree (the tag, the port and the length of every
// message of a star all-reduce step) is kept once. Same semantics, counters, violations and trace
// as Worker (worker.hpp): tests/emulator/dense_step_test.cpp runs both on the same programs.
//
// Lanes (RunConfig::threads): contiguous node ranges, each with its own program object (the
// factory's, one per range, as the zmq engine's partitions), react at once on their own threads
// (lanes.hpp).
// A lane writes its messages straight into the shared arrays at their receivers (relaxed atomics,
// plain stores on x86), claiming each receiver by compare-and-swap when there are several lanes
// (one plain store on one lane). A receiver found taken is an Attempt; after the step the
// attempts are sorted out in sender order: every sender to a receiver but the smallest violates,
// as on one lane, where the smallest always comes first. Lanes keep their own counters, trace and
// violation, merged after the run; so trace, counters, violation and the programs' reports
// (summed) do not depend on the number of lanes (tests/emulator/dense_lanes_test.cpp).
// Private to the emulator library.

#include "dense_batch.hpp"
#include "lanes.hpp"
#include "protocol.hpp"

#include <starnet/emulator/config.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/memory.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/topology/topology.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starnet::emulator {

/// One field of a step's messages, by receiver: a single value while every message agrees on it,
/// an array of one per node from the first that differs (its storage kept for the next steps).
/// Each lane puts the messages of its senders, in sender order, and keeps its own first value and
/// the sender from which its values differ (`wide_from`); values from there on go to the array,
/// at the receiver (each receiver takes one message a step: two lanes write one slot only in a
/// step that ends in a violation). After the step, settle() decides for the whole step, and where
/// the step is wide, fill() writes the values the lanes kept once into the array.
template <class T>
class Column {
 public:
  static constexpr std::uint32_t NONE = ~std::uint32_t{0};
  void reset(std::size_t nodes, std::size_t lanes) {
    nodes_ = nodes;
    lanes_.assign(lanes, {});
    wide_ = false;
    if (values_.size() != nodes) values_.clear();
    ready_.store(!values_.empty(), std::memory_order_relaxed);
  }
  /// Lane @p lane's message from @p from to @p to; from several threads, one lane each.
  void put(std::size_t lane, std::uint32_t to, std::uint32_t from, T value) {
    auto& s = lanes_[lane];
    if (s.wide_from == NONE) {
      if (!s.any) {
        s.first = value;
        s.any = true;
        return;
      }
      if (value == s.first) return;  // no store: a lane's state stays in its own core's cache
      s.wide_from = from;
      storage();
    }
    std::atomic_ref<T>(values_[to]).store(value, std::memory_order_relaxed);
  }
  /// After the lanes' puts: whether the step's messages disagree (fill() then needed).
  bool settle() {
    wide_ = false;
    bool any = false;
    for (const auto& s : lanes_) {
      if (!s.any) continue;
      if (s.wide_from != NONE || (any && !(s.first == first_))) wide_ = true;
      if (!any) first_ = s.first;
      any = true;
    }
    if (wide_) storage();  // lanes that each agree may still disagree with each other
    return wide_;
  }
  /// In a wide step, stores in @p to's slot the value lane @p lane kept once for @p from's message.
  void fill(std::size_t lane, std::uint32_t to, std::uint32_t from) {
    const auto& s = lanes_[lane];
    if (wide_ && (s.wide_from == NONE || from < s.wide_from)) values_[to] = s.first;
  }
  /// @pre settle() (and fill()) since a value was put for @p to.
  [[nodiscard]] T get(std::uint32_t to) const { return wide_ ? values_[to] : first_; }
  void clear() {
    for (auto& s : lanes_) s = {};
    wide_ = false;
  }

 private:
  struct alignas(CACHE_LINE) LaneState {
    bool any = false;
    T first{};
    std::uint32_t wide_from = NONE;
  };
  /// The array, made once a run by the first lane that needs it.
  void storage() {
    if (ready_.load(std::memory_order_acquire)) return;
    const std::lock_guard lock(grow_);
    if (ready_.load(std::memory_order_relaxed)) return;
    values_.resize(nodes_);
    ready_.store(true, std::memory_order_release);
  }

  std::size_t nodes_ = 0;
  std::vector<LaneState> lanes_;
  bool wide_ = false;
  T first_{};
  std::vector<T> values_;
  std::atomic<bool> ready_{false};
  std::mutex grow_;
};

class DenseStep {
 public:
  /// Whether a run may take this path, its program aside: unit costs and time, strict single-port
  /// full duplex, no horizon, fewer than 2^32 − 1 nodes.
  [[nodiscard]] static bool qualifies(const topology::Topology& topology, const CostModel<Rational>& costs,
                                      const RunConfig& config);
  /// qualifies(), and a program that only sends.
  [[nodiscard]] static bool applies(const topology::Topology& topology, const CostModel<Rational>& costs,
                                    const RunConfig& config, const NodeProgram& program) {
    return program.sends_only() && qualifies(topology, costs, config);
  }
  /// The lanes a run of @p nodes nodes takes: config.threads × config.lanes_per_thread (one on one
  /// thread), but no fewer than config.nodes_per_thread nodes each, and at least one.
  [[nodiscard]] static unsigned lanes(std::uint64_t nodes, const RunConfig& config);

  /// Runs @p programs[l] over the nodes of @p ranges[l] (contiguous, in order, covering every
  /// node), one lane each, on up to config.threads threads. Same trace, counters and violation
  /// whatever the lanes. @throws ModelViolation as Worker::run; a lane's error (the lowest lane's).
  void run(const topology::Topology& topology, const RunConfig& config, const std::vector<NodeProgram*>& programs,
           const std::vector<NodeRange>& ranges);
  /// One lane over every node.
  void run(const topology::Topology& topology, const RunConfig& config, NodeProgram& program) {
    run(topology, config, {&program}, {NodeRange{0, topology.num_nodes()}});
  }
  /// Whether zmq workers take this path: applies(), for a program that takes no send notices (a
  /// worker does not see whether its send to another worker's node has arrived).
  [[nodiscard]] static bool workers_apply(const topology::Topology& topology, const CostModel<Rational>& costs,
                                          const RunConfig& config, const NodeProgram& program) {
    return applies(topology, costs, config, program) && !program.reacts_to_sends();
  }
  /// Zmq worker @p self's share of a run (workers_apply()): @p program over the nodes of
  /// @p parts[self], on one lane, its arrays as long as the partition; at the end of each step
  /// the messages for other workers' nodes travel to them through @p exchange as columns
  /// (dense_batch.hpp), then the workers agree on the violation and on whether any message is in
  /// flight. The messages leave in rounds of at most config.batch_messages, during the step as
  /// they gather and at its end, so a worker's batches are bounded whatever its share. Once
  /// merged, the workers' traces and counters are the local run's.
  void run(const topology::Topology& topology, const RunConfig& config, NodeProgram& program,
           const std::vector<NodeRange>& parts, unsigned self, Exchange<Rational>& exchange);

  [[nodiscard]] Counters counters() const;
  [[nodiscard]] Rational makespan() const { return Rational(static_cast<std::int64_t>(step_)); }
  /// Every lane's events, unsorted (sort_trace, trace_order.hpp).
  [[nodiscard]] std::vector<TraceEvent<Rational>> take_trace();
  /// Bytes per node this path keeps when the messages of each step agree on tag, port and length
  /// and the program takes no send notices (the star collectives): sender and payload, for this
  /// step and the next. Each field that differs adds its width twice; send notices add 4.
  static constexpr std::size_t BYTES_PER_NODE = DENSE_STEP_BYTES_PER_NODE;
  /// Fewer receivers than 1/SPARSE_FRACTION of all nodes: listed, and the reacting nodes sorted
  /// rather than found by a scan of every node.
  static constexpr std::size_t SPARSE_FRACTION = 16;

 private:
  class NodeContext;
  static constexpr std::uint32_t NONE = ~std::uint32_t{0};
  /// A send whose receiver already had a message this step (sender order decides who violates).
  struct Attempt {
    std::uint32_t to;
    std::uint32_t from;
    Port port;
  };
  /// What one lane sent for one step's arrivals, beside the shared arrays: rare wide values (a
  /// payload over 8 bytes, a size other than 1) and the receivers while they are few.
  struct alignas(CACHE_LINE) LaneArrivals {
    std::unordered_map<std::uint32_t, Rational> sizes;
    std::vector<std::string> long_payloads;
    /// The receivers, in the order they were granted, while they are few; once the lane has sent
    /// more than its share of 1/SPARSE_FRACTION of all nodes, `from` is scanned instead (a list of
    /// every node would cost 4 bytes a node in each set).
    std::vector<std::uint32_t> receivers;
    std::uint64_t count = 0;  // receivers in all
    [[nodiscard]] bool listed() const { return count == receivers.size(); }
  };
  /// The messages arriving at one step, by receiver.
  struct Arrivals {
    std::vector<std::uint32_t> from;  // NONE: nothing arrives
    std::vector<std::uint64_t> payload;  // the bytes, or an index into its lane's long_payloads
    Column<std::uint64_t> tag;
    Column<std::uint8_t> length;  // LONG: long_payloads[payload]
    Column<Port> port;
    std::vector<LaneArrivals> lanes;
    bool extras = false;  // some lane has sizes or long payloads (settled)
    [[nodiscard]] bool listed() const;
    [[nodiscard]] std::uint64_t count() const;
    void reset(std::size_t n, std::size_t lanes, std::size_t list_capacity);
  };
  /// One lane: its nodes, its program, and what it did this run.
  struct alignas(CACHE_LINE) Lane {
    NodeRange range;
    NodeProgram* program = nullptr;
    Counters counters;
    std::vector<TraceEvent<Rational>> trace;
    std::optional<std::pair<std::pair<NodeId, NodeId>, std::string>> violation;
    std::vector<Attempt> refused;  // receive ports found taken
    // The reacting node's delivery (at most one a step), reused from node to node: its payload's
    // buffer is not made and freed at every reaction (S_8: 4.5 % fewer instructions).
    Delivery delivery;
    std::size_t delivered = 0;            // 0 or 1
    std::vector<Completion> completions;  // of the reacting node
    std::uint32_t sends_now = 0;          // sends of the reacting node in this reaction
    std::vector<DenseBatch> outbound;     // zmq workers: the round's messages for each worker's nodes
    std::uint64_t outbound_count = 0;     // zmq workers: messages in `outbound`
    std::exception_ptr error;
  };
  struct Message {
    std::uint32_t from = 0;
    Port port = 0;
    std::uint64_t tag = 0;
    Rational size = 1;
    std::string_view payload;
  };

  Arrivals& now() { return sets_[now_]; }
  Arrivals& next() { return sets_[1 - now_]; }
  /// A receiver's slot in the arrays, which hold this worker's nodes (all nodes in a local run).
  [[nodiscard]] std::uint32_t at(std::uint32_t v) const { return v - static_cast<std::uint32_t>(own_.begin); }
  /// The arrivals' lane that holds what @p from sent: its own lane, or past the lanes one per
  /// worker (zmq workers: messages from the other workers' nodes).
  [[nodiscard]] std::size_t source_of(std::uint32_t from) const;
  void start(const topology::Topology& topology, const RunConfig& config, const std::vector<NodeProgram*>& programs,
             const std::vector<NodeRange>& ranges);
  void loop();
  [[nodiscard]] Message message_to(const Arrivals& a, std::uint32_t to) const;
  void put(Arrivals& a, std::size_t lane, std::uint32_t to, std::uint32_t from, Port port, std::uint64_t tag,
           const Rational& size, std::string&& payload);
  void send(Lane& lane, std::uint32_t from, NodeId to, Port port, std::string&& payload, const Rational& size,
            std::uint64_t tag);
  // A step: every lane delivers and reacts (react_lane), then settles its share (settle_lane).
  void step(bool starting);
  void react_lane(std::size_t l, bool starting);
  void deliver(Lane& lane, std::uint32_t u);
  void react(Lane& lane, std::uint32_t v, bool starting);
  void settle_lane(std::size_t l, bool wide);
  void fill(Arrivals& a, std::uint32_t u);  // a wide step: u's tag, length and port into the arrays
  void settle_from_workers(bool wide);
  // zmq workers: a round of the exchange, in which the messages gathered for other workers' nodes
  // leave and those for this worker's arrive; @p more: this worker will trade again this step.
  // Returns whether a peer will. A step ends with rounds until no worker has more (trade_rest).
  bool trade(bool more);
  void trade_full(Lane& lane);  // a round once the lane has gathered config.batch_messages
  void trade_rest();
  void put_arrival(std::size_t source, std::uint32_t to, std::uint32_t from, Port port, std::uint64_t tag,
                   const Rational& size, std::string&& payload);
  void resolve_refused();
  /// The end of a step: throws the violation (the smallest of all workers'), or says whether a
  /// message is in flight (on any worker).
  [[nodiscard]] bool conclude();
  void violation(Lane& lane, NodeId node, NodeId peer, std::string message);
  void record(Lane& lane, EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag,
              const Rational& size, std::string_view payload);

  const topology::Topology* topology_ = nullptr;
  RunConfig config_;
  bool send_notices_ = true;
  std::uint64_t step_ = 0;
  std::uint64_t event_times_ = 0;
  std::vector<Lane> lanes_;
  std::vector<NodeId> lane_begins_;
  NodeRange own_;                    // the nodes of this worker (a local run: every node)
  std::vector<NodeId> part_begins_;  // zmq workers: where each worker's nodes begin
  unsigned self_ = 0;
  Exchange<Rational>* exchange_ = nullptr;
  std::vector<Batch<Rational>> out_;
  std::vector<Batch<Rational>> in_;
  std::optional<Lanes> threads_;
  std::array<Arrivals, 2> sets_;
  std::size_t now_ = 0;  // sets_[now_] arrives at step_, the other was sent at step_ (arrives next)
  std::vector<std::uint32_t> sent_to_;  // the receiver of a node's last send (valid while now() agrees)
  std::vector<std::uint32_t> reacting_;  // the nodes of a sparse step that react, in node order
};

}  // namespace starnet::emulator
