#pragma once
// The engine core shared by every engine: one Worker runs the nodes of one partition through
// the round protocol described in engine.hpp, talking to the other workers through an Exchange.
// Private to the emulator library.

#include "agenda.hpp"
#include "arbiter.hpp"
#include "protocol.hpp"
#include "slab.hpp"

#include <starnet/emulator/asynchrony.hpp>
#include <starnet/emulator/config.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/topology/topology.hpp>

#include <fmt/format.h>

#include <map>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace starnet::emulator {

template <class Time>
class Worker {
 public:
  Worker() = default;
  /// Prepares a run; buffers of an earlier run are reused.
  void reset(const topology::Topology& topology, const CostModel<Time>& costs, const RunConfig& config,
             std::vector<NodeRange> partitions, unsigned self, NodeProgram& program, Exchange<Time>* exchange);
  /// Runs to the end. @throws ModelViolation, TransportError.
  void run();

  [[nodiscard]] const Counters& counters() const { return counters_; }
  [[nodiscard]] Time makespan() const { return makespan_; }
  [[nodiscard]] std::vector<TraceEvent<Time>>& trace() { return trace_; }

 private:
  class NodeContext;
  static constexpr std::uint32_t NIL = SLAB_NIL;


  /// First-in first-out lists of slab records, one per node, linked through the slab; the
  /// array exists only once a run uses the feature (strict runs on S_n never do).
  struct Fifos {
    std::vector<SlabList> of;  // per local node
    std::size_t size = 0;  // records queued over all nodes
  };

  /// A computation or a timer.
  struct Task {
    NodeId node = 0;
    std::uint64_t tag = 0;
    Rational work;
  };
  struct Arrival {
    std::uint32_t node;  // local index of the receiver
    std::uint32_t message;
  };

  [[nodiscard]] std::size_t local(NodeId v) const { return static_cast<std::size_t>(v - range_.begin); }
  [[nodiscard]] unsigned owner(NodeId v) const { return partitions_.size() == 1 ? 0 : owner_among(v); }
  [[nodiscard]] unsigned owner_among(NodeId v) const;  // several workers: a binary search
  [[nodiscard]] bool can_send(std::size_t i) const;
  [[nodiscard]] bool can_receive(std::size_t i) const;
  [[nodiscard]] std::string where() const;
  void record(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag, const Rational& size,
              std::string_view payload = {}) {
    if (config_.trace) append_trace(kind, node, peer, port, tag, size, payload);
  }
  void append_trace(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag, const Rational& size,
                    std::string_view payload);
  void violation(NodeId node, NodeId peer, std::string message);
  // Records built in place, field by field (the note at the top of worker.cpp).
  void schedule(const Time& at, Due kind, std::uint32_t ref) { agenda_.schedule(now_, at, kind, ref); }
  void complete(NodeId v, Completion::Kind kind, std::uint64_t tag, NodeId peer) {
    auto& [node, c] = completions_.emplace_back();
    node = v;
    c.kind = kind;
    c.tag = tag;
    c.peer = peer;
  }

  template <class T>
  void push(Fifos& q, Slab<T>& slab, NodeId v, std::uint32_t item);
  /// Unlinks @p item, which follows @p before in v's list (NIL: it is the head).
  template <class T>
  void unlink(Fifos& q, Slab<T>& slab, NodeId v, std::uint32_t before, std::uint32_t item);
  [[nodiscard]] std::uint32_t head(const Fifos& q, NodeId v) const {
    return q.size == 0 ? NIL : q.of[local(v)].head;
  }

  /// Transfers go through the arbiter: arbitrated checking, or a network of switches, whose links
  /// only the arbiter's whole view can check (strict checking then refuses every wait).
  [[nodiscard]] bool arbitrated() const {
    return config_.checking == Checking::ARBITRATED || topology_->network() != nullptr;
  }
  /// A strict run on a network: a transfer that would wait breaks the model.
  void refuse_wait(const Arbiter::Decision& d);

  // Actions of a reacting node, on the records its context has just filled in.
  void start_send(std::uint32_t message);
  void issue(std::uint32_t message);
  void start_compute(std::uint32_t task);
  void start_timer(std::uint32_t task);
  /// A negative size, work or delay: a violation whose @p pattern names the node, then the value.
  void negative(NodeId v, fmt::format_string<std::string, std::string> pattern, const Rational& value);

  // Asynchronous runs (asynchrony.hpp).
  void reset_asynchrony();
  /// The sender's draws for a message it starts: its transit time, whether it is lost.
  void draw_transit(Request<Time>& r);
  /// A transfer that ended: the message travels on for its transit time (FIFO: not before the
  /// channel's previous message), or arrives now.
  void start_transit(std::uint32_t message);
  /// A message that ends its journey now: delivered, or lost (drawn so, its sender or receiver
  /// crashed, or its link failed).
  void arrive(std::uint32_t message);
  [[nodiscard]] bool down(NodeId v) const {
    const auto it = crash_at_.find(v);
    return it != crash_at_.end() && it->second <= now_;
  }
  [[nodiscard]] bool lost(const Request<Time>& m) const;
  /// The crashes and link failures of this worker's nodes up to now, into the trace.
  void note_failures();
  /// The key that orders node @p v's reaction in this round (random order).
  [[nodiscard]] std::uint64_t order_key(NodeId v) const {
    return draw_bits(async_->seed, DrawStream::ORDER, v, mix64(step_) ^ round_);
  }

  // The phases of a round.
  void deliver_due();
  void apply_send_done(const SendDone& done);
  /// The sender's side of a transfer that ended: its port, the trace, its notice.
  void finish_send(const SendDone& done);
  void react(bool starting);
  void accept_requests();
  void accept(std::uint32_t message);
  void arbitrate();
  void grant(std::uint32_t message);
  void post(NodeId v, NodeId from);
  [[nodiscard]] bool accepts(NodeId v, NodeId from) const;
  /// Arbitrated runs of several workers: the end of a transfer that held ports, for @p peer.
  void tell_release(unsigned peer, const SendDone& done);
  void exchange() {
    if (exchange_ != nullptr) exchange_with_peers();  // one worker: inbound() is what it sent itself
  }
  void exchange_with_peers();
  void receive_requests();
  /// What arrived in the last exchange (with one worker: what it sent itself).
  std::vector<Batch<Time>>& inbound() { return exchange_ != nullptr ? in_ : out_; }
  [[nodiscard]] bool advance();  // exchange headers, move to the next round; false when done
  [[nodiscard]] bool move_to(const Time& next);
  /// A transfer that waits (arbitrated), else a posted receive that nothing will satisfy: at the
  /// end of a run, either is a deadlock.
  [[nodiscard]] std::optional<Fault> first_waiting() const;
  [[nodiscard]] std::optional<Fault> first_unmet_post() const;

  const topology::Topology* topology_ = nullptr;
  const CostModel<Time>* costs_ = nullptr;
  RunConfig config_;
  std::vector<NodeRange> partitions_;
  unsigned self_ = 0;
  NodeRange range_;
  NodeProgram* program_ = nullptr;
  bool send_notices_ = true;  // program_->reacts_to_sends()
  Exchange<Time>* exchange_ = nullptr;

  Time now_{};
  std::uint64_t step_ = 0;
  std::uint32_t round_ = 0;
  Time makespan_{};
  Counters counters_;
  std::vector<TraceEvent<Time>> trace_;

  // Per local node. Strict: what the port model checks. Arbitrated: what the node's program sees
  // (free_send_ports: a send that waits its turn counts); arbiter_ decides with its own counts.
  std::vector<std::uint8_t> sending_;    // sends started and not yet ended
  std::vector<std::uint8_t> receiving_;  // receives in flight
  std::vector<std::uint8_t> computing_;
  Slab<Request<Time>> messages_;  // transfers this worker's nodes receive (or send, while pending)
  Slab<Task> tasks_;
  Agenda<Time> agenda_;
  Fifos compute_queue_;  // tasks_ waiting for the node's processor
  Fifos posted_;         // posts_: posted receives, senders accepted in order (strict)
  Slab<NodeId> posts_;
  Arbiter arbiter_;      // arbitrated: every node's transfers that wait, ports and posted receives
  bool broadcast_ = false;  // arbitrated with several workers: requests, posts and ends go to all
  std::optional<Fault> violation_;

  // Asynchronous runs: none of these is used (or allocated) by a synchronous one.
  const Asynchrony* async_ = nullptr;        // config_.asynchrony
  std::vector<std::uint64_t> sent_;           // messages each local node has sent
  std::map<std::pair<NodeId, NodeId>, Time> channel_last_;  // FIFO transit: the latest arrival per channel
  std::map<NodeId, Time> crash_at_;
  std::map<std::pair<NodeId, NodeId>, Time> link_down_at_;  // (lower end, higher end)
  struct Failure {
    Time at;
    EventKind kind;
    NodeId node;
    NodeId peer;
  };
  std::vector<Failure> failures_;  // this worker's, by time, for the trace
  std::size_t failures_noted_ = 0;
  std::vector<std::size_t> groups_;  // random order: where each reacting node's entries start

  std::vector<Batch<Time>> out_;
  std::vector<Batch<Time>> in_;
  std::vector<std::uint32_t> incoming_;  // messages_ asked for this round, not yet accepted (strict)
  // Reactions of the current round, grouped by node.
  std::vector<Arrival> deliveries_;
  std::vector<std::pair<NodeId, Completion>> completions_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> counts_;
  // The reacting node's deliveries: the first delivered_ of node_deliveries_, whose records are
  // kept built from one reaction to the next (a string and a Rational less to make and free each).
  std::vector<Delivery> node_deliveries_;
  std::size_t delivered_ = 0;
  std::vector<Completion> node_completions_;
};

}  // namespace starnet::emulator
