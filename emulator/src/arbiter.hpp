#pragma once
// Arbitrated checking (Checking::ARBITRATED): which of the transfers asked for may start now.
// Private to the emulator library; the general core (worker.hpp) asks it once per round.
//
// A transfer asked for holds no port while it waits. Each round, after the round's sends have
// been asked for, the arbiter goes through the transfers that wait in order of request: earlier
// event time and round first, then sender id, then receiver id, then the order in which the sender
// started them. It starts each one whose receiver takes messages from its sender now (no posted
// receives, or the sender is the next one posted: Context::accept) and, for a transfer that takes
// time, whose sender has a free send port and whose receiver a free receive port (half duplex:
// one pool of ports for both); a zero-duration transfer holds no port. A started transfer that
// consumes a posted receive may let an earlier one through (the next sender posted): the pass
// is repeated until nothing more can start. What starts is therefore a maximal set (nothing that
// waits could start beside it), greedy in that order.
//
// Only what changed is looked at again: a transfer that could not start stays unable to until one
// of its ends frees a port or posts a receive, so a pass visits the waiting transfers of those
// nodes and the new ones.
//
// On a network of switches (topology::Network: the topology's ports are routes) a transfer that
// takes time also holds every directed link of its route, and starts only when they are all free
// (a link carries one message at a time; switches buffer nothing, so it waits at its sender). A
// link that frees sends a pass back to the transfers waiting on it.
//
// With several workers every worker holds the whole state (every transfer asked for, every posted
// receive, every node's ports: requests, posts and the ends of transfers travel to all of them)
// and takes the same decisions, so that a trace does not depend on the partitioning.

#include "slab.hpp"

#include <starnet/emulator/config.hpp>
#include <starnet/topology/topology.hpp>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace starnet::emulator {

using topology::NodeId;
using topology::Port;

class Arbiter {
 public:
  /// No message record on this worker (another worker owns the receiver).
  static constexpr std::uint32_t NONE = SLAB_NIL;

  /// What holds a transfer back.
  enum class Blocker : std::uint8_t { NONE, POSTED, SEND_PORT, RECEIVE_PORT, LINK };
  /// One decision of a round: a transfer starts, or (for one asked for this round) waits, and why.
  struct Decision {
    std::uint32_t message = NONE;
    NodeId from = 0;
    NodeId to = 0;
    bool starts = false;
    Blocker blocker = Blocker::NONE;
    topology::LinkId link = 0;  ///< the busy link, for Blocker::LINK
  };

  /// Prepares a run on @p nodes nodes, whose transfers also hold the links of @p network's routes
  /// when it is not null; storage of an earlier run is reused.
  void reset(NodeId nodes, const PortModel& ports, const topology::Network* network = nullptr);

  /// A transfer asked for in this round, in the order its sender started it.
  /// @param occupies false for a transfer of zero duration, which holds no port.
  /// @param message its record on this worker, or NONE.
  void request(NodeId from, NodeId to, Port port, bool occupies, std::uint32_t message) {
    new_.push_back({from, to, port, message, occupies});
  }
  /// Transfers that have held @p link, so far.
  [[nodiscard]] std::uint64_t link_messages(topology::LinkId link) const {
    return link_messages_.empty() ? 0 : link_messages_[link];
  }
  /// Node @p v takes its next message only from @p from, after those posted before.
  void post(NodeId v, NodeId from);
  /// A transfer that held ports has ended. @return false when no transfer holds those ports (a
  /// forged notice).
  [[nodiscard]] bool release(NodeId from, NodeId to);

  /// Decides the round: the transfers that start, in the order above, and each transfer asked for
  /// this round that waits (once, to be traced). Valid until the next call.
  /// Complexity: O(C) for C candidates (the round's requests and the waiting transfers of nodes
  /// whose ports or posted receives changed) from at most MERGED_RUNS lists, O(C log C) beyond.
  const std::vector<Decision>& arbitrate();
  /// Whether arbitrate() has anything to decide: requests this round, or ends that changed.
  [[nodiscard]] bool has_news() const { return !new_.empty() || !marked_.empty(); }

  /// Transfers in flight that hold a port of @p v.
  [[nodiscard]] std::uint32_t sends(NodeId v) const { return sending_[v]; }
  [[nodiscard]] std::uint32_t receives(NodeId v) const { return receiving_[v]; }

  [[nodiscard]] bool any_waiting() const { return waiting_ != 0; }
  /// Calls @p f(from, to, port) for each transfer that waits.
  template <class F>
  void for_each_waiting(F&& f) const {
    for (const Waiting& w : records_) {
      if (w.order != FREE) f(w.from, w.to, w.port);
    }
  }
  /// What @p v's posted receives allow now: nullopt when it takes any sender; otherwise the next
  /// sender it takes (nullopt inside when it has used up its posts).
  [[nodiscard]] std::optional<std::optional<NodeId>> posted(NodeId v) const;
  /// The first node, in id order, with a posted receive not yet satisfied, and the sender it waits for.
  [[nodiscard]] std::optional<std::pair<NodeId, NodeId>> first_unmet_post() const;
  /// Whether @p v could start a transfer now as sender (@p sending) or receiver, ports alone.
  [[nodiscard]] bool has_free_port(NodeId v, bool sending) const {
    const std::uint32_t own = sending ? sending_[v] : receiving_[v];
    const std::uint32_t other = sending ? receiving_[v] : sending_[v];
    return own + (ports_.half_duplex ? other : 0U) < (sending ? ports_.send_capacity() : ports_.receive_capacity());
  }

 private:
  static constexpr std::uint32_t NIL = SLAB_NIL;
  static constexpr std::uint64_t FREE = ~std::uint64_t{0};  // Waiting::order of a free record
  static constexpr std::uint8_t OUT = 1;                     // dirty: look at v's waiting sends
  static constexpr std::uint8_t IN = 2;                      // dirty: look at v's waiting receives
  static constexpr std::size_t MERGED_RUNS = 4;              // lists merged in order; more are sorted

  struct New {
    NodeId from;
    NodeId to;
    Port port;
    std::uint32_t message;
    bool occupies;
  };
  /// A transfer that waits, in the list of its sender's and of its receiver's.
  struct Waiting {
    std::uint64_t order = FREE;
    NodeId from = 0;
    NodeId to = 0;
    Port port = 0;
    std::uint32_t message = NONE;
    bool occupies = true;
    std::uint32_t out_prev = NIL, out_next = NIL, in_prev = NIL, in_next = NIL;
  };
  struct Ends {
    std::uint32_t out_head = NIL, out_tail = NIL, in_head = NIL, in_tail = NIL;
  };

  [[nodiscard]] bool accepts(NodeId v, NodeId from) const {
    if (posts_.empty()) return true;
    const SlabList& p = posts_[v];
    return !p.used || (p.head != NIL && posted_[p.head] == from);
  }
  /// What holds back a transfer of @p route now (Blocker::NONE: it may start), the busy link into @p link.
  [[nodiscard]] Blocker blocker(NodeId from, NodeId to, bool occupies, topology::LinkId& link) const;
  [[nodiscard]] bool can_start(NodeId from, NodeId to, bool occupies) const {
    topology::LinkId link = 0;
    return blocker(from, to, occupies, link) == Blocker::NONE;
  }
  /// The links of the route from @p from to @p to, into route_ (empty without a network).
  void route(NodeId from, NodeId to) const;
  /// Holds (@p delta 1) or frees (-1) the links of the route from @p from to @p to.
  void hold_links(NodeId from, NodeId to, int delta);
  void start(std::uint32_t message, NodeId from, NodeId to, bool occupies);
  void mark(NodeId v, std::uint8_t what) {
    // A mark sends a pass back to the transfers waiting now; later ones are looked at when asked for.
    if (waiting_ == 0) return;
    if (dirty_[v] == 0) marked_.push_back(v);
    dirty_[v] |= what;
  }
  void wait(const New& r, std::uint64_t order);
  void unlink(std::uint32_t w);
  /// The waiting transfers of the nodes marked since the last call, in order, into candidates_.
  void collect();
  void try_waiting(std::uint32_t w);

  PortModel ports_;
  NodeId nodes_ = 0;
  std::vector<std::uint32_t> sending_;    // per node: sends in flight that hold a port
  std::vector<std::uint32_t> receiving_;  // per node: receives in flight that hold a port
  std::vector<New> new_;                  // this round's requests
  std::vector<Waiting> records_;
  std::uint32_t free_ = NIL;              // free records_, linked through out_next
  std::size_t waiting_ = 0;
  std::vector<Ends> lists_;               // per node, once a transfer has waited
  std::vector<SlabList> posts_;           // per node, once a node has posted
  Slab<NodeId> posted_;                   // the senders posted
  std::vector<std::uint8_t> dirty_;       // per node: OUT | IN
  std::vector<NodeId> marked_;            // nodes with dirty_ set
  std::vector<std::uint32_t> candidates_;
  std::vector<std::size_t> runs_;  // where each list collected into candidates_ starts
  std::uint64_t next_order_ = 0;
  std::vector<Decision> decisions_;
  const topology::Network* network_ = nullptr;
  mutable std::vector<topology::LinkId> route_;  // scratch: the route looked at
  std::vector<std::uint8_t> link_busy_;          // per link: a transfer holds it
  std::vector<std::uint64_t> link_messages_;     // per link: transfers that held it
  /// Per link: the waiting transfers whose route crosses it (record and order; stale once the
  /// record's order differs), so that a link that frees sends a pass back to them.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> link_waiters_;
};

}  // namespace starnet::emulator
