#pragma once
// The dense step path of the local engine (docs/architecture.md, "The dense step path"): unit-time,
// strict, single-port full-duplex runs of programs that only send (NodeProgram::sends_only()),
// such as the star collectives, in which every transfer takes exactly one step. No agenda and no
// record per message: a step's messages live in flat arrays indexed by receiver (two sets, the
// arrivals of this step and those of the next), payloads of up to 8 bytes inline, 32-bit node
// ids; a field on which all of a step's messages agree (the tag, the port and the length of every
// message of a star all-reduce step) is kept once. Same semantics, counters, violations and trace
// as Worker (worker.hpp): tests/emulator/dense_step_test.cpp runs both on the same programs.
// Private to the emulator library.

#include <starnet/emulator/config.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/memory.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starnet::emulator {

/// One field of a step's messages, by receiver: a single value while every message agrees on it,
/// an array of one per node from the first that differs (its storage kept for the next steps).
template <class T>
class Column {
 public:
  void reset(std::size_t n) {
    nodes_ = n;
    clear();
  }
  void put(std::uint32_t to, T value) {
    if (!wide_) {
      if (!any_ || value == first_) {
        first_ = value;
        any_ = true;
        return;
      }
      values_.assign(nodes_, first_);
      wide_ = true;
    }
    values_[to] = value;
  }
  /// @pre a value was put for @p to since the last clear().
  [[nodiscard]] T get(std::uint32_t to) const { return wide_ ? values_[to] : first_; }
  void clear() {
    any_ = false;
    wide_ = false;
  }

 private:
  std::size_t nodes_ = 0;
  bool any_ = false;
  bool wide_ = false;
  T first_{};
  std::vector<T> values_;
};

class DenseStep {
 public:
  /// Whether a run may take this path: unit costs and time, strict single-port full duplex, no
  /// horizon, fewer than 2^32 − 1 nodes, and a program that only sends.
  [[nodiscard]] static bool applies(const topology::Topology& topology, const CostModel<Rational>& costs,
                                    const RunConfig& config, const NodeProgram& program);
  /// Runs @p program over every node of @p topology. @throws ModelViolation as Worker::run.
  void run(const topology::Topology& topology, const RunConfig& config, NodeProgram& program);

  [[nodiscard]] const Counters& counters() const { return counters_; }
  [[nodiscard]] Rational makespan() const { return Rational(static_cast<std::int64_t>(step_)); }
  [[nodiscard]] std::vector<TraceEvent<Rational>>& trace() { return trace_; }
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
  /// The messages arriving at one step, by receiver. Rare wide values (a payload over 8 bytes,
  /// a size other than 1) live in the maps beside.
  struct Arrivals {
    std::vector<std::uint32_t> from;  // NONE: nothing arrives
    Column<std::uint64_t> tag;
    std::vector<std::uint64_t> payload;  // the bytes, or an index into long_payloads
    Column<std::uint8_t> length;         // LONG: long_payloads[payload]
    Column<Port> port;
    std::unordered_map<std::uint32_t, Rational> sizes;
    std::vector<std::string> long_payloads;
    /// The receivers, in the order they were granted (sender order), while they are few; once
    /// they are more than 1/SPARSE_FRACTION of all nodes, `from` is scanned instead (a list of
    /// every node would cost 4 bytes a node in each set).
    std::vector<std::uint32_t> receivers;
    std::uint64_t count = 0;  // receivers in all
    [[nodiscard]] bool listed() const { return count == receivers.size(); }
    void reset(std::size_t n);
    void add(std::uint32_t to);
    void clear();  // O(messages) while listed, O(nodes) otherwise
    /// Calls @p f for every receiver: in grant order while listed, else in node order.
    template <class F>
    void each(F&& f) const;
  };
  struct Message {
    std::uint32_t from = 0;
    Port port = 0;
    std::uint64_t tag = 0;
    Rational size = 1;
    std::string_view payload;
  };

  [[nodiscard]] Message message_to(const Arrivals& a, std::uint32_t to) const;
  void put(Arrivals& a, std::uint32_t to, std::uint32_t from, Port port, std::uint64_t tag, const Rational& size,
           std::string&& payload);
  void send(std::uint32_t from, NodeId to, Port port, std::string&& payload, const Rational& size,
            std::uint64_t tag);
  void deliver();
  void react_all(bool starting);
  void react(std::uint32_t v, bool starting);
  void violation(NodeId node, NodeId peer, std::string message);
  void record(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag, const Rational& size,
              std::string_view payload);

  const topology::Topology* topology_ = nullptr;
  NodeProgram* program_ = nullptr;
  RunConfig config_;
  bool send_notices_ = true;
  std::uint64_t step_ = 0;
  Counters counters_;
  std::vector<TraceEvent<Rational>> trace_;
  Arrivals now_;   // arriving at step_
  Arrivals next_;  // sent at step_, arriving at step_ + 1
  std::vector<std::uint32_t> sent_to_;  // the receiver of a node's last send (valid while now_ agrees)
  std::vector<std::uint32_t> reacting_;  // the nodes of a sparse step that react, in node order
  std::vector<Delivery> deliveries_;     // of the reacting node
  std::vector<Completion> completions_;  // of the reacting node
  std::uint32_t sends_now_ = 0;          // sends of the reacting node in this reaction
  std::optional<std::pair<std::pair<NodeId, NodeId>, std::string>> violation_;
};

}  // namespace starnet::emulator
