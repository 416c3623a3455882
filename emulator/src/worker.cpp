// A shape kept for speed: the records of sends, computations and completions (and the agenda's
// slots, agenda.hpp) are filled in place field by field from values in registers, not copied
// whole from a temporary, whose parts the core would have to store before reading it back whole
// (a store-forwarding stall per event). Built with whole-record copies instead (Release, no PGO,
// GCC 12, three alternated rounds, 2026-11-26), `starnet_benchmarks
// --benchmark_filter='TreeDynRun|MonteCarloPoint'` gave 7.73–7.85 µs and 77.6–78.3 ms against
// 7.54–7.61 µs and 76.2–76.3 ms with this shape.
#include "worker.hpp"
#include "node_context.hpp"

#include <starnet/core/interrupt.hpp>
#include <starnet/core/rational_gmp.hpp>

#include "violations.hpp"
#include "wire.hpp"

#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>

namespace starnet::emulator {
template <class Time>
class Worker<Time>::NodeContext final : public NodeContextOf<NodeContext> {
  using Base = NodeContextOf<NodeContext>;
  using Base::node_;

 public:
  explicit NodeContext(Worker& w) : Base(*w.topology_), w_(w) {
    if (w.async_ != nullptr) this->run_seed_ = w.async_->seed;
  }
  /// Prepares the reaction of node @p v to what node_deliveries_ and node_completions_ hold.
  void at(NodeId v, bool starting) {
    Base::at(v, w_.step_, starting, std::span<const Delivery>(w_.node_deliveries_.data(), w_.delivered_),
             w_.node_completions_);
  }
  void compute(Rational work, std::uint64_t tag) override { w_.start_compute(task(work, tag)); }
  void sleep(Rational delay, std::uint64_t tag) override { w_.start_timer(task(delay, tag)); }
  void accept(NodeId from) override { w_.post(node_, from); }
  [[nodiscard]] Rational time() const override {
    if constexpr (std::is_same_v<Time, Rational>) {
      return w_.now_;
    } else {
      return to_rational(mpq_class(w_.now_));  // a double is a dyadic rational: exact
    }
  }
  [[nodiscard]] unsigned free_send_ports() const override {
    const auto i = w_.local(node_);
    const unsigned used = w_.sending_[i] + (w_.config_.ports.half_duplex ? w_.receiving_[i] : 0U);
    return used >= w_.config_.ports.ports ? 0U : w_.config_.ports.ports - used;
  }

 private:
  // Field by field from the values as passed (the note at the top of this file).
  std::uint32_t request(NodeId to, Port port, std::string&& payload, const Rational& size, std::uint64_t tag) {
    const auto message = w_.messages_.add();
    auto& r = w_.messages_[message];
    r.from = node_;
    r.to = to;
    r.port = port;
    r.tag = tag;
    r.size = size;
    r.payload = std::move(payload);
    return message;
  }
  std::uint32_t task(const Rational& work, std::uint64_t tag) {
    const auto added = w_.tasks_.add();
    auto& t = w_.tasks_[added];
    t.node = node_;
    t.tag = tag;
    t.work = work;
    return added;
  }
  friend class NodeContextOf<NodeContext>;
  void refuse(NodeId peer, std::string message) { w_.violation(node_, peer, std::move(message)); }
  void take(NodeId to, Port port, std::string&& payload, const Rational& size, std::uint64_t tag) {
    w_.start_send(request(to, port, std::move(payload), size, tag));
  }
  Worker& w_;
};

template <class Time>
void Worker<Time>::reset(const topology::Topology& topology, const CostModel<Time>& costs, const RunConfig& config,
                         std::vector<NodeRange> partitions, unsigned self, NodeProgram& program,
                         Exchange<Time>* exchange) {
  topology_ = &topology;
  costs_ = &costs;
  config_ = config;
  partitions_ = std::move(partitions);
  self_ = self;
  range_ = partitions_.at(self);
  program_ = &program;
  send_notices_ = program.reacts_to_sends();
  exchange_ = exchange;
  now_ = Time(0);
  makespan_ = Time(0);
  step_ = 0;
  round_ = 0;
  counters_ = {};
  trace_.clear();
  const auto n = static_cast<std::size_t>(range_.size());
  sending_.assign(n, 0);
  receiving_.assign(n, 0);
  computing_.assign(n, 0);
  // One transfer in flight per node and port is what synchronous runs reach: reserving it
  // avoids the copy (and twice the memory) of growing these arrays during S_11's first step.
  const auto expected = n * config_.ports.ports;
  messages_.reset(expected);
  tasks_.reset(0);
  posts_.reset(0);
  agenda_.clear();
  for (auto* q : {&compute_queue_, &posted_}) {
    if (!q->of.empty()) q->of.assign(n, SlabList{});
    q->size = 0;
  }
  violation_.reset();
  reset_asynchrony();
  broadcast_ = arbitrated() && partitions_.size() > 1;
  if (arbitrated()) arbiter_.reset(topology.num_nodes(), config_.ports, topology.network());
  out_.resize(partitions_.size());
  in_.resize(partitions_.size());
  for (auto& b : out_) b.clear();
  for (auto& b : in_) b.clear();
  incoming_.clear();
  deliveries_.clear();
  completions_.clear();
  delivered_ = 0;  // a program that threw in an earlier run left its reaction's behind
  node_completions_.clear();
  deliveries_.reserve(expected);
  completions_.reserve(expected);
  incoming_.reserve(expected);
}

template <class Time>
template <class T>
void Worker<Time>::push(Fifos& q, Slab<T>& slab, NodeId v, std::uint32_t item) {
  if (q.of.empty()) q.of.resize(static_cast<std::size_t>(range_.size()));
  q.of[local(v)].push(slab, item);
  ++q.size;
}

template <class Time>
template <class T>
void Worker<Time>::unlink(Fifos& q, Slab<T>& slab, NodeId v, std::uint32_t before, std::uint32_t item) {
  q.of[local(v)].unlink(slab, before, item);
  --q.size;
}

template <class Time>
unsigned Worker<Time>::owner_among(NodeId v) const {
  const auto it = std::upper_bound(partitions_.begin(), partitions_.end(), v,
                                   [](NodeId x, const NodeRange& r) { return x < r.end; });
  return static_cast<unsigned>(it - partitions_.begin());
}

template <class Time>
bool Worker<Time>::can_send(std::size_t i) const {
  const unsigned used = sending_[i] + (config_.ports.half_duplex ? receiving_[i] : 0U);
  return used < config_.ports.send_capacity();
}

template <class Time>
bool Worker<Time>::can_receive(std::size_t i) const {
  const unsigned used = receiving_[i] + (config_.ports.half_duplex ? sending_[i] : 0U);
  return used < config_.ports.receive_capacity();
}

template <class Time>
std::string Worker<Time>::where() const {
  return violations::at_step(step_, time_text(now_));
}

template <class Time>
void Worker<Time>::append_trace(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag,
                                const Rational& size, std::string_view payload) {
  trace_.push_back({step_, round_, now_, kind, node, peer, port, tag, size, payload.size(), std::string(payload)});
}

template <class Time>
void Worker<Time>::violation(NodeId node, NodeId peer, std::string message) {
  Fault f{node, peer, where() + ": " + std::move(message)};
  if (!violation_ || f.before(*violation_)) violation_ = std::move(f);
}

template <class Time>
void Worker<Time>::negative(NodeId v, fmt::format_string<std::string, std::string> pattern, const Rational& value) {
  violation(v, v, fmt::format(pattern, topology_->node_name(v), value.to_string()));
}

template <class Time>
void Worker<Time>::start_send(std::uint32_t message) {
  auto& r = messages_[message];
  if (r.size.sign() < 0) {
    violation(r.from, r.from, violations::negative_size(*topology_, r.from, r.size));
    messages_.release(message);
    return;
  }
  r.duration = costs_->transfer(r.from, r.port, r.to, r.size);
  if (async_ != nullptr) draw_transit(r);
  // A zero-duration transfer holds no port: [t, t) overlaps nothing. Arbitrated: the arbiter
  // decides when it starts (arbitrate()).
  if (!arbitrated() && r.duration != Time(0) && !can_send(local(r.from))) {
    violation(r.from, r.to, violations::send_port_busy(*topology_, r.from, r.to, r.port, config_.ports));
    messages_.release(message);
    return;
  }
  issue(message);
}

template <class Time>
void Worker<Time>::issue(std::uint32_t message) {
  const auto& r = messages_[message];
  const auto i = local(r.from);
  if (r.duration != Time(0)) ++sending_[i];
  const unsigned o = owner(r.to);
  if (arbitrated()) {
    // Every worker's arbiter hears of it (arbiter.hpp); the receiver's keeps the message.
    if (broadcast_) {
      for (unsigned p = 0; p < out_.size(); ++p) {
        if (p == self_) continue;
        wire::put_request(out_[p].requests, r);
        ++out_[p].request_count;
      }
    }
    arbiter_.request(r.from, r.to, r.port, r.duration != Time(0), o == self_ ? message : Arbiter::NONE);
    if (o != self_) messages_.release(message);
    return;
  }
  counters_.max_concurrent_sends = std::max<unsigned>(counters_.max_concurrent_sends, sending_[i]);
  if (o == self_) {
    incoming_.push_back(message);
    return;
  }
  wire::put_request(out_[o].requests, r);
  ++out_[o].request_count;
  messages_.release(message);
}

template <class Time>
void Worker<Time>::start_compute(std::uint32_t task) {
  const Task& t = tasks_[task];
  if (t.work.sign() < 0) {
    negative(t.node, "node {} computes {} tasks (must be >= 0)", t.work);
    tasks_.release(task);
    return;
  }
  const auto i = local(t.node);
  if (computing_[i] != 0) {
    push(compute_queue_, tasks_, t.node, task);
    return;
  }
  computing_[i] = 1;
  ++counters_.computations;
  record(EventKind::COMPUTE, t.node, t.node, 0, t.tag, t.work);
  schedule(now_ + costs_->compute(t.node, t.work), Due::COMPUTE_END, task);
}

template <class Time>
void Worker<Time>::start_timer(std::uint32_t task) {
  const Task& t = tasks_[task];
  if (t.work.sign() < 0) {
    negative(t.node, "node {} sleeps for {} (must be >= 0)", t.work);
    tasks_.release(task);
    return;
  }
  schedule(now_ + time_from<Time>(t.work), Due::TIMER, task);
}

template <class Time>
void Worker<Time>::deliver_due() {
  for (const auto& e : agenda_.take_due(now_)) {
    switch (e.kind()) {
      case Due::TRANSFER_END: {
        const auto& m = messages_[e.ref()];
        const bool occupied = m.duration != Time(0);
        const NodeId to = m.to;
        if (occupied) --receiving_[local(to)];
        const unsigned sender_owner = owner(m.from);
        auto& done = out_[sender_owner].done.emplace_back();
        done.sender = m.from;
        done.receiver = to;
        done.tag = m.tag;
        done.occupied = occupied;
        if (arbitrated() && occupied) {
          const bool released = arbiter_.release(m.from, to);
          STARNET_ASSERT(released);
          if (broadcast_) {
            for (unsigned p = 0; p < out_.size(); ++p) {
              if (p != self_ && p != sender_owner) tell_release(p, done);
            }
          }
        }
        if (async_ != nullptr) {
          start_transit(e.ref());
          break;
        }
        ++counters_.messages;
        counters_.payload_bytes += m.payload.size();
        record(EventKind::RECEIVE, to, m.from, m.port, m.tag, m.size, m.payload);
        deliveries_.push_back({static_cast<std::uint32_t>(local(to)), e.ref()});
        break;
      }
      case Due::ARRIVAL: arrive(e.ref()); break;
      case Due::COMPUTE_END: {
        const Task& task = tasks_[e.ref()];
        const NodeId v = task.node;
        record(EventKind::COMPUTE_END, v, v, 0, task.tag, task.work);
        complete(v, Completion::Kind::COMPUTE, task.tag, v);
        tasks_.release(e.ref());
        computing_[local(v)] = 0;
        if (const auto next = head(compute_queue_, v); next != NIL) {
          unlink(compute_queue_, tasks_, v, NIL, next);
          start_compute(next);
        }
        break;
      }
      case Due::TIMER: {
        const Task& task = tasks_[e.ref()];
        record(EventKind::TIMER, task.node, task.node, 0, task.tag, task.work);
        complete(task.node, Completion::Kind::TIMER, task.tag, task.node);
        tasks_.release(e.ref());
        break;
      }
    }
  }
}

template <class Time>
void Worker<Time>::tell_release(unsigned peer, const SendDone& done) {
  auto& copy = out_[peer].done.emplace_back();
  copy.sender = done.sender;
  copy.receiver = done.receiver;
  copy.tag = done.tag;
  copy.occupied = done.occupied;
}

template <class Time>
void Worker<Time>::apply_send_done(const SendDone& done) {
  // A peer's notice indexes this worker's arrays: refused unless it is for a send of one of this
  // worker's nodes to a node that exists, holding a port if it says so, and after the first round
  // (nothing is sent before it, and react() asserts that the first round has nothing to report).
  // Arbitrated runs of several workers also tell every worker of the transfers that end, whose
  // ports its arbiter frees: refused unless it has such a transfer in flight.
  const bool mine = range_.contains(done.sender);
  if (done.receiver >= topology_->num_nodes() || (step_ == 0 && round_ == 0) ||
      (mine && done.occupied && sending_[local(done.sender)] == 0) ||
      (!mine && (!broadcast_ || !done.occupied || owner(done.receiver) == self_))) {
    wire::Reader::malformed("send-done notice for no send");
  }
  // The receiver's worker freed them when the transfer ended.
  if (arbitrated() && done.occupied && owner(done.receiver) != self_ &&
      !arbiter_.release(done.sender, done.receiver)) {
    wire::Reader::malformed("send-done notice for no send");
  }
  if (mine) finish_send(done);
}

template <class Time>
void Worker<Time>::finish_send(const SendDone& done) {
  const NodeId u = done.sender;
  if (done.occupied) --sending_[local(u)];
  record(EventKind::SEND_END, u, done.receiver, 0, done.tag, 0);
  if (send_notices_) complete(u, Completion::Kind::SEND, done.tag, done.receiver);
}

template <class Time>
void Worker<Time>::react(bool starting) {
  const std::size_t n = static_cast<std::size_t>(range_.size());
  NodeContext ctx(*this);
  const auto run_node = [&](NodeId v, bool start) {
    if (async_ != nullptr && down(v)) {  // a crashed node reacts no more (what reached it was lost)
      delivered_ = 0;
      node_completions_.clear();
      return;
    }
    if (delivered_ > 1) {
      const auto end = node_deliveries_.begin() + static_cast<std::ptrdiff_t>(delivered_);
      const auto by_sender = [](const Delivery& a, const Delivery& b) {
        return std::tie(a.from, a.tag) < std::tie(b.from, b.tag);
      };
      // Asynchronous: messages of one sender and tag in the order they arrived (FIFO channels).
      if (async_ != nullptr) {
        std::stable_sort(node_deliveries_.begin(), end, by_sender);
      } else {
        std::sort(node_deliveries_.begin(), end, by_sender);
      }
    }
    if (node_completions_.size() > 1) {
      std::sort(node_completions_.begin(), node_completions_.end(), [](const Completion& a, const Completion& b) {
        return std::tie(a.kind, a.peer, a.tag) < std::tie(b.kind, b.peer, b.tag);
      });
    }
    ctx.at(v, start);
    program_->react(ctx);
    delivered_ = 0;
    node_completions_.clear();
  };
  const auto d = static_cast<std::uint32_t>(deliveries_.size());
  const auto total = static_cast<std::uint32_t>(deliveries_.size() + completions_.size());
  const bool shuffled = async_ != nullptr && async_->random_order;
  if (starting) {
    STARNET_ASSERT(total == 0);
    if (!shuffled) {
      for (std::size_t i = 0; i < n; ++i) run_node(range_.begin + i, true);
      return;
    }
    std::vector<NodeId> nodes(n);
    for (std::size_t i = 0; i < n; ++i) nodes[i] = range_.begin + i;
    std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) { return order_key(a) < order_key(b); });
    for (const NodeId v : nodes) run_node(v, true);
    return;
  }
  if (total == 0) return;
  const auto deliver = [&](std::uint32_t message) {
    auto& m = messages_[message];
    if (delivered_ == node_deliveries_.size()) node_deliveries_.emplace_back();
    auto& delivery = node_deliveries_[delivered_++];
    delivery.from = m.from;
    delivery.port = m.port;
    delivery.arrival_port = topology_->back_port(m.from, m.port);
    delivery.tag = m.tag;
    delivery.size = m.size;
    delivery.payload = std::move(m.payload);
    messages_.release(message);
  };
  // Field by field: complete() has just stored them one by one (the note at the top).
  const auto take = [&](const Completion& c) {
    auto& copy = node_completions_.emplace_back();
    copy.kind = c.kind;
    copy.tag = c.tag;
    copy.peer = c.peer;
  };
  if (total == 1) {  // the common case of sparse runs: one event, nothing to group
    NodeId v = 0;
    if (d == 1) {
      v = range_.begin + deliveries_[0].node;
      deliver(deliveries_[0].message);
    } else {
      v = completions_[0].first;
      take(completions_[0].second);
    }
    deliveries_.clear();
    completions_.clear();
    run_node(v, false);
    return;
  }
  // Group this round's deliveries and completions by node: entry k < D is deliveries_[k], else
  // completions_[k - D]. Counting sort when many nodes are involved, comparison sort otherwise.
  const auto node_of = [&](std::uint32_t k) -> std::size_t {
    return k < d ? deliveries_[k].node : local(completions_[k - d].first);
  };
  order_.resize(total);
  if (static_cast<std::size_t>(total) * 16 > n) {
    counts_.assign(n + 1, 0);
    for (std::uint32_t k = 0; k < total; ++k) ++counts_[node_of(k) + 1];
    for (std::size_t i = 0; i < n; ++i) counts_[i + 1] += counts_[i];
    for (std::uint32_t k = 0; k < total; ++k) order_[counts_[node_of(k)]++] = k;
  } else if (total <= 16) {
    // A few (sparse timed runs: a delivery and its sender's notice): insertion, stable.
    for (std::uint32_t k = 0; k < total; ++k) {
      const auto key = node_of(k);
      std::uint32_t j = k;
      for (; j > 0 && node_of(order_[j - 1]) > key; --j) order_[j] = order_[j - 1];
      order_[j] = k;
    }
  } else {
    for (std::uint32_t k = 0; k < total; ++k) order_[k] = k;
    std::sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      const auto na = node_of(a);
      const auto nb = node_of(b);
      return na != nb ? na < nb : a < b;
    });
  }
  // The reaction of the node whose entries start at order_[k]; where the next node's start.
  const auto react_from = [&](std::size_t k) {
    const auto i = node_of(order_[k]);
    for (; k < total && node_of(order_[k]) == i; ++k) {
      const auto e = order_[k];
      if (e < d) {
        deliver(deliveries_[e].message);
      } else {
        take(completions_[e - d].second);
      }
    }
    run_node(range_.begin + i, false);
    return k;
  };
  if (!shuffled) {
    for (std::size_t k = 0; k < total;) k = react_from(k);
  } else {
    groups_.clear();
    for (std::size_t k = 0; k < total; ++k) {
      if (k == 0 || node_of(order_[k]) != node_of(order_[k - 1])) groups_.push_back(k);
    }
    const auto key = [&](std::size_t g) { return order_key(range_.begin + node_of(order_[g])); };
    std::sort(groups_.begin(), groups_.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    for (const auto g : groups_) react_from(g);
  }
  deliveries_.clear();
  completions_.clear();
}

template <class Time>
void Worker<Time>::grant(std::uint32_t message) {
  const auto& r = messages_[message];
  if (const auto post = head(posted_, r.to); post != NIL) {
    unlink(posted_, posts_, r.to, NIL, post);
    posts_.release(post);
  }
  const bool occupied = r.duration != Time(0);
  const auto i = local(r.to);
  if (occupied) ++receiving_[i];
  if (!arbitrated()) {
    counters_.max_concurrent_receives = std::max<unsigned>(counters_.max_concurrent_receives, receiving_[i]);
  }
  record(EventKind::SEND, r.from, r.to, r.port, r.tag, r.size, r.payload);
  schedule(now_ + r.duration, Due::TRANSFER_END, message);
}

template <class Time>
bool Worker<Time>::accepts(NodeId v, NodeId from) const {
  if (posted_.of.empty()) return true;
  const auto& f = posted_.of[local(v)];
  return !f.used || (f.head != NIL && posts_[f.head] == from);
}

template <class Time>
void Worker<Time>::post(NodeId v, NodeId from) {
  if (!arbitrated()) {
    push(posted_, posts_, v, posts_.add(from));
    return;
  }
  arbiter_.post(v, from);
  if (broadcast_) {
    for (unsigned p = 0; p < out_.size(); ++p) {
      if (p != self_) out_[p].posts.push_back({v, from});
    }
  }
}

template <class Time>
void Worker<Time>::refuse_wait(const Arbiter::Decision& d) {
  const auto& topo = *topology_;
  const Port port = topo.find_port(d.from, d.to);
  switch (d.blocker) {
    case Arbiter::Blocker::NONE: return;
    case Arbiter::Blocker::POSTED:
      return violation(d.to, d.from,
                       fmt::format("node {} is sent a message by {} via {} but has not posted a receive from it",
                                   topo.node_name(d.to), topo.node_name(d.from), topo.link_name(d.from, port)));
    case Arbiter::Blocker::SEND_PORT:
      return violation(d.from, d.to, violations::send_port_busy(topo, d.from, d.to, port, config_.ports));
    case Arbiter::Blocker::RECEIVE_PORT:
      return violation(d.to, d.from, violations::receive_port_busy(topo, d.from, d.to, port, config_.ports));
    case Arbiter::Blocker::LINK:
      return violation(d.from, d.to, violations::link_busy(topo, d.from, d.to, port, d.link));
  }
}

template <class Time>
void Worker<Time>::arbitrate() {
  const bool strict = config_.checking == Checking::STRICT;
  for (const auto& d : arbiter_.arbitrate()) {
    if (!d.starts) {
      if (strict) refuse_wait(d);
      if (d.message != Arbiter::NONE) {
        const auto& r = messages_[d.message];
        record(EventKind::REQUEST, r.from, r.to, r.port, r.tag, r.size, r.payload);
      }
      continue;
    }
    // Every worker sees every start: the counters are the run's, whatever the partitioning.
    counters_.max_concurrent_sends = std::max<unsigned>(counters_.max_concurrent_sends, arbiter_.sends(d.from));
    counters_.max_concurrent_receives = std::max<unsigned>(counters_.max_concurrent_receives, arbiter_.receives(d.to));
    if (d.message != Arbiter::NONE) grant(d.message);
  }
}

template <class Time>
void Worker<Time>::accept_requests() {
  if (arbitrated()) {
    if (arbiter_.has_news()) arbitrate();  // most rounds of sparse runs have none
    return;
  }
  if (incoming_.size() > 1) {
    // First asked, first served; requests of one round are ordered by sender (then issue order),
    // whatever the partitioning.
    const auto by_sender = [&](std::uint32_t a, std::uint32_t b) { return messages_[a].from < messages_[b].from; };
    if (!std::is_sorted(incoming_.begin(), incoming_.end(), by_sender)) {
      std::stable_sort(incoming_.begin(), incoming_.end(), by_sender);
    }
  }
  for (const auto m : incoming_) accept(m);
  incoming_.clear();
}

template <class Time>
void Worker<Time>::accept(std::uint32_t message) {
  const auto& r = messages_[message];
  if ((r.duration == Time(0) || can_receive(local(r.to))) && accepts(r.to, r.from)) {
    grant(message);
    return;
  }
  const auto& topo = *topology_;
  if (!accepts(r.to, r.from)) {
    violation(r.to, r.from,
              fmt::format("node {} is sent a message by {} via {} but has not posted a receive from it",
                          topo.node_name(r.to), topo.node_name(r.from), topo.link_name(r.from, r.port)));
  } else {
    violation(r.to, r.from, violations::receive_port_busy(topo, r.from, r.to, r.port, config_.ports));
  }
  messages_.release(message);
}

template <class Time>
void Worker<Time>::exchange_with_peers() {
  exchange_->exchange(out_, in_);
  for (auto& b : out_) b.clear();
  receive_requests();
}

template <class Time>
void Worker<Time>::receive_requests() {
  for (auto& batch : in_) {
    wire::Reader r(batch.received);
    const NodeId n = topology_->num_nodes();
    for (std::uint64_t k = 0; k < batch.request_count; ++k) {
      Request<Time> q;
      wire::get_request(r, q);
      // What the worker indexes with (receiver, sender, the sender's port) must exist; the
      // receiver is one of this worker's nodes unless every request travels to every worker.
      const bool mine = range_.contains(q.to);
      if (!(mine || (broadcast_ && q.to < n)) || q.from >= n || q.port >= topology_->degree(q.from)) {
        wire::Reader::malformed("request between unknown nodes");
      }
      if (!arbitrated()) {
        incoming_.push_back(messages_.add(std::move(q)));
        continue;
      }
      const NodeId from = q.from;
      const NodeId to = q.to;
      const Port port = q.port;
      const bool occupies = q.duration != Time(0);
      arbiter_.request(from, to, port, occupies, mine ? messages_.add(std::move(q)) : Arbiter::NONE);
    }
    if (!r.done()) throw TransportError("malformed message between workers (request count)");
    for (const Post& p : batch.posts) {
      // Another worker's node posts: its own posts this worker made itself.
      if (!broadcast_ || p.node >= n || p.from >= n || range_.contains(p.node)) {
        wire::Reader::malformed("posted receive of an unknown node");
      }
      arbiter_.post(p.node, p.from);
    }
    batch.posts.clear();
    batch.received = {};
    batch.holder.reset();
    batch.request_count = 0;
  }
}

template <class Time>
std::optional<Fault> Worker<Time>::first_unmet_post() const {
  std::optional<std::pair<NodeId, NodeId>> unmet;  // (node, the sender it waits for)
  if (arbitrated()) {
    unmet = arbiter_.first_unmet_post();
  } else {
    for (std::size_t i = 0; i < posted_.of.size() && !unmet; ++i) {
      if (const auto post = posted_.of[i].head; post != NIL) unmet = {range_.begin + static_cast<NodeId>(i), posts_[post]};
    }
  }
  if (!unmet) return std::nullopt;
  const auto& topo = *topology_;
  return Fault{unmet->first, unmet->second,
               fmt::format("deadlock at {}: node {} posted a receive from {} that no message satisfied, and nothing "
                           "else is left to happen",
                           where(), topo.node_name(unmet->first), topo.node_name(unmet->second))};
}

template <class Time>
std::optional<Fault> Worker<Time>::first_waiting() const {
  std::optional<Fault> best;
  if (!arbitrated() || !arbiter_.any_waiting()) return first_unmet_post();  // strict checking queues nothing
  const auto& topo = *topology_;
  arbiter_.for_each_waiting([&](NodeId from, NodeId to, Port port) {
    // With nothing in flight every port is free: what holds a transfer back is a posted receive.
    std::string why;
    if (const auto posted = arbiter_.posted(to)) {
      why = *posted ? fmt::format(", but {} takes its next message only from {} (posted receives)", topo.node_name(to),
                                  topo.node_name(**posted))
                    : fmt::format(", but {} has no posted receive left", topo.node_name(to));
    } else if (!arbiter_.has_free_port(from, true) || !arbiter_.has_free_port(to, false)) {
      why = ", whose ports are busy";
    }
    Fault f{from, to,
            fmt::format("deadlock at {}: node {} waits to send to {} via {}{}, and nothing else is left to happen",
                        where(), topo.node_name(from), topo.node_name(to), topo.link_name(from, port), why)};
    if (!best || f.before(*best)) best = std::move(f);
  });
  return best;
}

template <class Time>
bool Worker<Time>::advance() {
  if (exchange_ == nullptr) {
    // One worker: the decision below without building and exchanging headers.
    if (violation_) throw ModelViolation("strict port-model check: " + violation_->message, violation_->node);
    if (agenda_.has_soon()) {
      ++round_;
      return true;
    }
    if (agenda_.empty()) {
      if (const auto waiting = first_waiting()) throw ModelViolation(waiting->message, waiting->node);
      return false;
    }
    return move_to(agenda_.next());
  }
  Header<Time> h;
  h.has_now = agenda_.has_soon();
  h.has_next = !agenda_.empty();
  if (h.has_next) h.next = agenda_.next();
  h.violation = violation_;
  if (!h.has_now && !h.has_next) h.waiting = first_waiting();
  for (auto& b : out_) b.header = h;
  exchange_with_peers();
  std::optional<Fault> violation;
  std::optional<Fault> waiting;
  bool has_now = false;
  std::optional<Time> next;
  for (const auto& b : in_) {
    const auto& o = b.header;
    if (o.violation && (!violation || o.violation->before(*violation))) violation = o.violation;
    if (o.waiting && (!waiting || o.waiting->before(*waiting))) waiting = o.waiting;
    has_now = has_now || o.has_now;
    if (o.has_next && (!next || o.next < *next)) next = o.next;
  }
  if (violation) throw ModelViolation("strict port-model check: " + violation->message, violation->node);
  if (has_now) {
    ++round_;
    return true;
  }
  if (!next) {
    if (waiting) throw ModelViolation(waiting->message, waiting->node);
    return false;
  }
  return move_to(*next);
}

template <class Time>
bool Worker<Time>::move_to(const Time& next) {
  if (config_.horizon && next > time_from<Time>(*config_.horizon)) return false;
  now_ = next;
  makespan_ = now_;
  ++step_;
  round_ = 0;
  if (failures_noted_ < failures_.size()) note_failures();
  return true;
}

template <class Time>
void Worker<Time>::run() {
  bool starting = true;
  counters_.event_times = 1;
  if (failures_noted_ < failures_.size()) note_failures();  // those at time 0
  for (;;) {
    throw_if_stopped();
    deliver_due();
    exchange();  // send-done notices
    for (auto& batch : inbound()) {
      for (const auto& done : batch.done) {
        if (exchange_ == nullptr) {
          finish_send(done);  // one worker: its own notices, not a peer's to be checked (1.7 %)
        } else {
          apply_send_done(done);
        }
      }
      batch.done.clear();
    }
    react(starting);
    starting = false;
    exchange();  // send requests
    accept_requests();
    const auto step = step_;
    if (!advance()) break;
    if (step_ != step) ++counters_.event_times;
  }
}

template <class Time>
void Worker<Time>::reset_asynchrony() {
  async_ = config_.asynchrony.get();
  sent_.clear();
  channel_last_.clear();
  crash_at_.clear();
  link_down_at_.clear();
  failures_.clear();
  failures_noted_ = 0;
  if (async_ == nullptr) return;
  sent_.assign(static_cast<std::size_t>(range_.size()), 0);
  for (const auto& c : async_->crashes) {
    const auto at = time_from<Time>(c.at);
    const auto [it, added] = crash_at_.emplace(c.node, at);
    if (!added && at < it->second) it->second = at;
  }
  for (const auto& f : async_->failed_links) {
    const auto at = time_from<Time>(f.at);
    const auto [it, added] = link_down_at_.emplace(std::minmax(f.a, f.b), at);
    if (!added && at < it->second) it->second = at;
  }
  if (!config_.trace) return;
  for (const auto& [v, at] : crash_at_) {
    if (range_.contains(v)) failures_.push_back({at, EventKind::CRASH, v, v});
  }
  for (const auto& [link, at] : link_down_at_) {
    if (range_.contains(link.first)) failures_.push_back({at, EventKind::LINK_DOWN, link.first, link.second});
  }
  std::stable_sort(failures_.begin(), failures_.end(), [](const Failure& a, const Failure& b) { return a.at < b.at; });
}

template <class Time>
void Worker<Time>::note_failures() {
  for (; failures_noted_ < failures_.size() && failures_[failures_noted_].at <= now_; ++failures_noted_) {
    const auto& f = failures_[failures_noted_];
    // At the failure's own time, in the first step at or after it.
    trace_.push_back({step_, round_, f.at, f.kind, f.node, f.peer, 0, 0, Rational(0), 0, {}});
  }
}

template <class Time>
void Worker<Time>::draw_transit(Request<Time>& r) {
  const auto k = sent_[local(r.from)]++;
  r.number = k;
  r.lost = async_->loss > 0 && unit_interval(draw_bits(async_->seed, DrawStream::LOSS, r.from, k)) < async_->loss;
  if (!async_->delays) return;
  const Rational d = async_->delays->delay({r.from, r.to, r.payload, draw_bits(async_->seed, DrawStream::DELAY, r.from, k)});
  if (d.sign() < 0) {
    violation(r.from, r.to,
              fmt::format("the message from {} to {} is given a transit time of {} (must be >= 0)",
                          topology_->node_name(r.from), topology_->node_name(r.to), d.to_string()));
    return;
  }
  r.delay = time_from<Time>(d);
}

template <class Time>
void Worker<Time>::start_transit(std::uint32_t message) {
  const auto& m = messages_[message];
  Time at = now_ + m.delay;
  if (async_->fifo && async_->delays) {
    auto& last = channel_last_[{m.from, m.to}];
    if (at < last) at = last;
    last = at;
  }
  if (at == now_) {
    arrive(message);
  } else {
    schedule(at, Due::ARRIVAL, message);
  }
}

template <class Time>
bool Worker<Time>::lost(const Request<Time>& m) const {
  if (m.lost || down(m.from) || down(m.to)) return true;
  const auto it = link_down_at_.find(std::minmax(m.from, m.to));
  return it != link_down_at_.end() && it->second <= now_;
}

template <class Time>
void Worker<Time>::arrive(std::uint32_t message) {
  const auto& m = messages_[message];
  if (lost(m)) {
    ++counters_.lost;
    record(EventKind::LOST, m.to, m.from, m.port, m.tag, m.size, m.payload);
    messages_.release(message);
    return;
  }
  ++counters_.messages;
  counters_.payload_bytes += m.payload.size();
  record(EventKind::RECEIVE, m.to, m.from, m.port, m.tag, m.size, m.payload);
  deliveries_.push_back({static_cast<std::uint32_t>(local(m.to)), message});
}

template class Worker<Rational>;
template class Worker<double>;

}  // namespace starnet::emulator
