#pragma once
// The engine core shared by every engine: one Worker runs the nodes of one partition through
// the round protocol described in engine.hpp, talking to the other workers through an Exchange.
// Private to the emulator library.

#include <starnet/emulator/config.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/program.hpp>
#include <starnet/emulator/trace.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace starnet::emulator {

/// A send asked for by `from`, travelling to the worker that owns `to`.
template <class Time>
struct Request {
  NodeId from = 0;
  NodeId to = 0;
  Port port = 0;
  std::uint64_t tag = 0;
  Rational size = 1;
  Time duration{};
  std::string payload;
};

/// A transfer has finished: travels to the worker that owns the sender.
struct SendDone {
  NodeId sender = 0;
  NodeId receiver = 0;
  std::uint64_t tag = 0;
  bool occupied = true;  // false for a zero-duration transfer, which holds no port
};

/// A port-model violation or a deadlock seen by one worker; the smallest key wins everywhere so
/// that every partitioning reports the same one.
struct Fault {
  NodeId node = 0;
  NodeId peer = 0;
  std::string message;
  [[nodiscard]] bool before(const Fault& other) const {
    return std::tie(node, peer, message) < std::tie(other.node, other.peer, other.message);
  }
};

template <class Time>
struct Header {
  bool has_now = false;   // events left at the current time (zero-duration work)
  bool has_next = false;  // events at a later time
  Time next{};
  std::optional<Fault> violation;
  std::optional<Fault> waiting;  // a send or request still queued (a deadlock if nothing else is left)
};

/// What one worker sends one peer in one exchange.
template <class Time>
struct Batch {
  std::vector<SendDone> done;
  std::vector<Request<Time>> requests;
  Header<Time> header;
  void clear() {
    done.clear();
    requests.clear();
    header = {};
  }
};

template <class Time>
class Exchange {
 public:
  virtual ~Exchange() = default;
  /// Sends out[j] to worker j and fills in[j] with what worker j sent this one (j = own index:
  /// the own batch, moved). Blocks until a batch from every peer has arrived: the barrier.
  /// @throws TransportError when a peer is gone or the run was aborted.
  virtual void exchange(std::vector<Batch<Time>>& out, std::vector<Batch<Time>>& in) = 0;
};

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
  enum class Due : std::uint8_t { TRANSFER_END, COMPUTE_END, TIMER };
  struct Event {
    Due kind = Due::TRANSFER_END;
    NodeId node = 0;  // receiver, computing node, sleeping node
    NodeId peer = 0;  // sender of a transfer
    Port port = 0;
    std::uint64_t tag = 0;
    Rational size = 0;
    std::string payload;
    bool occupied = true;  // the transfer held the receiver's port (its duration is not zero)
  };
  struct PendingCompute {
    Rational work;
    std::uint64_t tag;
  };

  [[nodiscard]] std::size_t local(NodeId v) const { return static_cast<std::size_t>(v - range_.begin); }
  [[nodiscard]] unsigned owner(NodeId v) const;
  [[nodiscard]] bool can_send(std::size_t i) const;
  [[nodiscard]] bool can_receive(std::size_t i) const;
  [[nodiscard]] std::string where() const;
  void record(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag, const Rational& size,
              const std::string& payload = {});
  void violation(NodeId node, NodeId peer, std::string message);
  void schedule(Time at, Event event);

  // Actions of a reacting node.
  void start_send(NodeId from, Port port, std::string payload, const Rational& size, std::uint64_t tag);
  void issue(Request<Time> request);
  void start_compute(NodeId v, const Rational& work, std::uint64_t tag);
  void start_timer(NodeId v, const Rational& delay, std::uint64_t tag);

  // The phases of a round.
  void deliver_due();
  void apply_send_done(const SendDone& done);
  void react(bool starting);
  void accept_requests();
  void grant(Request<Time> request);
  void grant_waiting(NodeId v);
  void post(NodeId v, NodeId from);
  [[nodiscard]] bool accepts(NodeId v, NodeId from) const;
  void issue_pending(NodeId u);
  void exchange();
  /// What arrived in the last exchange (with one worker: what it sent itself).
  std::vector<Batch<Time>>& inbound() { return exchange_ != nullptr ? in_ : out_; }
  [[nodiscard]] bool advance();  // exchange headers, move to the next round; false when done
  [[nodiscard]] bool move_to(const Time& next);
  [[nodiscard]] std::optional<Fault> first_waiting() const;

  const topology::Topology* topology_ = nullptr;
  const CostModel<Time>* costs_ = nullptr;
  RunConfig config_;
  std::vector<NodeRange> partitions_;
  unsigned self_ = 0;
  NodeRange range_;
  NodeProgram* program_ = nullptr;
  Exchange<Time>* exchange_ = nullptr;

  Time now_{};
  std::uint64_t step_ = 0;
  std::uint32_t round_ = 0;
  Time makespan_{};
  Counters counters_;
  std::vector<TraceEvent<Time>> trace_;

  std::vector<std::uint8_t> sending_;    // sends in flight (or waiting for the receiver) per node
  std::vector<std::uint8_t> receiving_;  // receives in flight per node
  std::vector<std::uint8_t> computing_;
  using Agenda = std::map<Time, std::vector<Event>>;
  Agenda agenda_;
  std::vector<Event> due_;
  // Map nodes of past event times, recycled with their buckets' capacity: a run allocates
  // nothing per event time once warm (millions of small Monte-Carlo runs, or S_10's big steps).
  std::vector<typename Agenda::node_type> spare_;
  std::unordered_map<NodeId, std::deque<Request<Time>>> waiting_;       // at the receiver (arbitrated)
  std::unordered_map<NodeId, std::deque<Request<Time>>> pending_sends_;  // at the sender (arbitrated)
  std::unordered_map<NodeId, std::deque<PendingCompute>> compute_queue_;
  std::unordered_map<NodeId, std::deque<NodeId>> posted_;  // posted receives: senders accepted, in order
  std::optional<Fault> violation_;

  std::vector<Batch<Time>> out_;
  std::vector<Batch<Time>> in_;
  std::vector<Request<Time>> incoming_;
  // Reactions of the current round, grouped by node.
  std::vector<std::pair<NodeId, Delivery>> deliveries_;
  std::vector<std::pair<NodeId, Completion>> completions_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> counts_;
  std::vector<Delivery> node_deliveries_;
  std::vector<Completion> node_completions_;
};

}  // namespace starnet::emulator
