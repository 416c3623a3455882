#include "worker.hpp"

#include <starnet/topology/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace starnet::emulator {
namespace {

template <class Time>
std::string time_text(const Time& t) {
  if constexpr (std::is_same_v<Time, Rational>) {
    return t.to_string();
  } else {
    return fmt::format("{}", t);
  }
}

}  // namespace

template <class Time>
class Worker<Time>::NodeContext final : public Context {
 public:
  NodeContext(Worker& w, NodeId v, bool starting) : w_(w), v_(v), starting_(starting) {}
  [[nodiscard]] NodeId node() const override { return v_; }
  [[nodiscard]] std::uint64_t step() const override { return w_.step_; }
  [[nodiscard]] bool starting() const override { return starting_; }
  [[nodiscard]] std::span<const Delivery> received() const override { return w_.node_deliveries_; }
  [[nodiscard]] std::span<const Completion> completed() const override { return w_.node_completions_; }
  [[nodiscard]] const topology::Topology& topology() const override { return *w_.topology_; }
  void send(Port port, std::string payload, Rational size, std::uint64_t tag) override {
    w_.start_send(v_, port, std::move(payload), size, tag);
  }
  void send_to(NodeId to, std::string payload, Rational size, std::uint64_t tag) override {
    const auto port = w_.topology_->port_to(v_, to);
    if (!port) {
      w_.violation(v_, to,
                   fmt::format("node {} sends to {}, but there is no link between them", w_.topology_->node_name(v_),
                               to < w_.topology_->num_nodes() ? w_.topology_->node_name(to) : std::to_string(to)));
      return;
    }
    w_.start_send(v_, *port, std::move(payload), size, tag);
  }
  void compute(Rational work, std::uint64_t tag) override { w_.start_compute(v_, work, tag); }
  void sleep(Rational delay, std::uint64_t tag) override { w_.start_timer(v_, delay, tag); }
  void accept(NodeId from) override { w_.post(v_, from); }
  [[nodiscard]] unsigned free_send_ports() const override {
    const auto i = w_.local(v_);
    const unsigned used = w_.sending_[i] + (w_.config_.ports.half_duplex ? w_.receiving_[i] : 0U);
    return used >= w_.config_.ports.ports ? 0U : w_.config_.ports.ports - used;
  }

 private:
  Worker& w_;
  NodeId v_;
  bool starting_;
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
  agenda_.clear();
  waiting_.clear();
  pending_sends_.clear();
  compute_queue_.clear();
  posted_.clear();
  violation_.reset();
  out_.resize(partitions_.size());
  in_.resize(partitions_.size());
  for (auto& b : out_) b.clear();
}

template <class Time>
unsigned Worker<Time>::owner(NodeId v) const {
  if (partitions_.size() == 1) return 0;
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
  return fmt::format("step {} (time {})", step_, time_text(now_));
}

template <class Time>
void Worker<Time>::record(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag,
                          const Rational& size, const std::string& payload) {
  if (!config_.trace) return;
  trace_.push_back({step_, round_, now_, kind, node, peer, port, tag, size, payload.size(), payload});
}

template <class Time>
void Worker<Time>::violation(NodeId node, NodeId peer, std::string message) {
  Fault f{node, peer, where() + ": " + std::move(message)};
  if (!violation_ || f.before(*violation_)) violation_ = std::move(f);
}

template <class Time>
void Worker<Time>::schedule(Time at, Event event) {
  auto it = agenda_.lower_bound(at);
  if (it == agenda_.end() || it->first != at) {
    if (spare_.empty()) {
      it = agenda_.emplace_hint(it, std::move(at), std::vector<Event>{});
    } else {
      auto node = std::move(spare_.back());
      spare_.pop_back();
      node.key() = std::move(at);
      it = agenda_.insert(it, std::move(node));
    }
  }
  it->second.push_back(std::move(event));
}

template <class Time>
void Worker<Time>::start_send(NodeId from, Port port, std::string payload, const Rational& size, std::uint64_t tag) {
  const auto& topo = *topology_;
  if (port >= topo.degree(from)) {
    violation(from, from,
              fmt::format("node {} sends through port {}, but it has only {} links", topo.node_name(from), port,
                          topo.degree(from)));
    return;
  }
  if (!(size >= 0)) {
    violation(from, from, fmt::format("node {} sends a message of size {} (must be >= 0)", topo.node_name(from),
                                      size.to_string()));
    return;
  }
  const NodeId to = topo.neighbor(from, port);
  Request<Time> r{from, to, port, tag, size, costs_->transfer(from, port, to, size), std::move(payload)};
  const auto i = local(from);
  // A zero-duration transfer holds no port: [t, t) overlaps nothing.
  if (r.duration != Time(0) && !can_send(i)) {
    if (config_.checking == Checking::STRICT) {
      violation(from, to,
                fmt::format("node {} starts a send to {} via {} while its send port is busy (the {} model allows {} "
                            "send{} at a time)",
                            topo.node_name(from), topo.node_name(to), topo.link_name(from, port),
                            config_.ports.to_string(), config_.ports.ports, config_.ports.ports == 1 ? "" : "s"));
      return;
    }
    record(EventKind::REQUEST, from, to, port, tag, size, r.payload);
    pending_sends_[from].push_back(std::move(r));
    return;
  }
  issue(std::move(r));
}

template <class Time>
void Worker<Time>::issue(Request<Time> request) {
  const auto i = local(request.from);
  if (request.duration != Time(0)) ++sending_[i];
  counters_.max_concurrent_sends = std::max<unsigned>(counters_.max_concurrent_sends, sending_[i]);
  out_[owner(request.to)].requests.push_back(std::move(request));
}

template <class Time>
void Worker<Time>::start_compute(NodeId v, const Rational& work, std::uint64_t tag) {
  if (!(work >= 0)) {
    violation(v, v, fmt::format("node {} computes {} tasks (must be >= 0)", topology_->node_name(v), work.to_string()));
    return;
  }
  const auto i = local(v);
  if (computing_[i] != 0) {
    compute_queue_[v].push_back({work, tag});
    return;
  }
  computing_[i] = 1;
  ++counters_.computations;
  record(EventKind::COMPUTE, v, v, 0, tag, work);
  schedule(now_ + costs_->compute(v, work), Event{Due::COMPUTE_END, v, v, 0, tag, work, {}});
}

template <class Time>
void Worker<Time>::start_timer(NodeId v, const Rational& delay, std::uint64_t tag) {
  if (!(delay >= 0)) {
    violation(v, v, fmt::format("node {} sleeps for {} (must be >= 0)", topology_->node_name(v), delay.to_string()));
    return;
  }
  schedule(now_ + time_from<Time>(delay), Event{Due::TIMER, v, v, 0, tag, delay, {}});
}

template <class Time>
void Worker<Time>::deliver_due() {
  if (agenda_.empty() || agenda_.begin()->first != now_) return;
  due_.clear();
  auto node = agenda_.extract(agenda_.begin());
  std::swap(due_, node.mapped());
  spare_.push_back(std::move(node));
  for (auto& e : due_) {
    switch (e.kind) {
      case Due::TRANSFER_END: {
        if (e.occupied) --receiving_[local(e.node)];
        ++counters_.messages;
        counters_.payload_bytes += e.payload.size();
        record(EventKind::RECEIVE, e.node, e.peer, e.port, e.tag, e.size, e.payload);
        out_[owner(e.peer)].done.push_back({e.peer, e.node, e.tag, e.occupied});
        deliveries_.push_back({e.node, Delivery{e.peer, e.port, e.tag, e.size, std::move(e.payload)}});
        grant_waiting(e.node);
        if (config_.ports.half_duplex) issue_pending(e.node);
        break;
      }
      case Due::COMPUTE_END: {
        record(EventKind::COMPUTE_END, e.node, e.node, 0, e.tag, e.size);
        completions_.push_back({e.node, Completion{Completion::Kind::COMPUTE, e.tag, e.node}});
        computing_[local(e.node)] = 0;
        if (const auto q = compute_queue_.empty() ? compute_queue_.end() : compute_queue_.find(e.node);
            q != compute_queue_.end()) {
          const PendingCompute next = q->second.front();
          q->second.pop_front();
          if (q->second.empty()) compute_queue_.erase(q);
          start_compute(e.node, next.work, next.tag);
        }
        break;
      }
      case Due::TIMER:
        record(EventKind::TIMER, e.node, e.node, 0, e.tag, e.size);
        completions_.push_back({e.node, Completion{Completion::Kind::TIMER, e.tag, e.node}});
        break;
    }
  }
}

template <class Time>
void Worker<Time>::apply_send_done(const SendDone& done) {
  const NodeId u = done.sender;
  if (done.occupied) --sending_[local(u)];
  record(EventKind::SEND_END, u, done.receiver, 0, done.tag, 0);
  completions_.push_back({u, Completion{Completion::Kind::SEND, done.tag, done.receiver}});
  issue_pending(u);
  if (config_.ports.half_duplex) grant_waiting(u);
}

template <class Time>
void Worker<Time>::issue_pending(NodeId u) {
  if (pending_sends_.empty()) return;
  const auto it = pending_sends_.find(u);
  if (it == pending_sends_.end()) return;
  while (!it->second.empty() && can_send(local(u))) {
    issue(std::move(it->second.front()));
    it->second.pop_front();
  }
  if (it->second.empty()) pending_sends_.erase(it);
}

template <class Time>
void Worker<Time>::react(bool starting) {
  const std::size_t n = static_cast<std::size_t>(range_.size());
  const auto run_node = [&](NodeId v, bool start) {
    if (node_deliveries_.size() > 1) {
      std::sort(node_deliveries_.begin(), node_deliveries_.end(),
                [](const Delivery& a, const Delivery& b) { return std::tie(a.from, a.tag) < std::tie(b.from, b.tag); });
    }
    if (node_completions_.size() > 1) {
      std::sort(node_completions_.begin(), node_completions_.end(), [](const Completion& a, const Completion& b) {
        return std::tie(a.kind, a.peer, a.tag) < std::tie(b.kind, b.peer, b.tag);
      });
    }
    NodeContext ctx(*this, v, start);
    program_->react(ctx);
    node_deliveries_.clear();
    node_completions_.clear();
  };
  const auto d = static_cast<std::uint32_t>(deliveries_.size());
  const auto total = static_cast<std::uint32_t>(deliveries_.size() + completions_.size());
  if (starting) {
    STARNET_ASSERT(total == 0);
    for (std::size_t i = 0; i < n; ++i) run_node(range_.begin + i, true);
    return;
  }
  if (total == 1) {  // the common case of sparse runs: one event, nothing to group
    if (d == 1) {
      node_deliveries_.push_back(std::move(deliveries_[0].second));
    } else {
      node_completions_.push_back(completions_[0].second);
    }
    const NodeId v = d == 1 ? deliveries_[0].first : completions_[0].first;
    deliveries_.clear();
    completions_.clear();
    run_node(v, false);
    return;
  }
  // Group this round's deliveries and completions by node: entry k < D is deliveries_[k], else
  // completions_[k - D]. Counting sort when many nodes are involved, comparison sort otherwise.
  const auto node_of = [&](std::uint32_t k) {
    return local(k < d ? deliveries_[k].first : completions_[k - d].first);
  };
  order_.resize(total);
  if (static_cast<std::size_t>(total) * 16 > n) {
    counts_.assign(n + 1, 0);
    for (std::uint32_t k = 0; k < total; ++k) ++counts_[node_of(k) + 1];
    for (std::size_t i = 0; i < n; ++i) counts_[i + 1] += counts_[i];
    for (std::uint32_t k = 0; k < total; ++k) order_[counts_[node_of(k)]++] = k;
  } else {
    for (std::uint32_t k = 0; k < total; ++k) order_[k] = k;
    std::sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
      const auto na = node_of(a);
      const auto nb = node_of(b);
      return na != nb ? na < nb : a < b;
    });
  }
  std::size_t k = 0;
  while (k < total) {
    const auto i = node_of(order_[k]);
    for (; k < total && node_of(order_[k]) == i; ++k) {
      const auto e = order_[k];
      if (e < d) {
        node_deliveries_.push_back(std::move(deliveries_[e].second));
      } else {
        node_completions_.push_back(completions_[e - d].second);
      }
    }
    run_node(range_.begin + i, false);
  }
  deliveries_.clear();
  completions_.clear();
}

template <class Time>
void Worker<Time>::grant(Request<Time> r) {
  if (!posted_.empty()) {
    if (const auto it = posted_.find(r.to); it != posted_.end()) it->second.pop_front();
  }
  const bool occupied = r.duration != Time(0);
  if (occupied) ++receiving_[local(r.to)];
  counters_.max_concurrent_receives = std::max<unsigned>(counters_.max_concurrent_receives, receiving_[local(r.to)]);
  record(EventKind::SEND, r.from, r.to, r.port, r.tag, r.size, r.payload);
  schedule(now_ + r.duration,
           Event{Due::TRANSFER_END, r.to, r.from, r.port, r.tag, r.size, std::move(r.payload), occupied});
}

template <class Time>
bool Worker<Time>::accepts(NodeId v, NodeId from) const {
  if (posted_.empty()) return true;
  const auto it = posted_.find(v);
  return it == posted_.end() || (!it->second.empty() && it->second.front() == from);
}

template <class Time>
void Worker<Time>::post(NodeId v, NodeId from) {
  posted_[v].push_back(from);
  grant_waiting(v);
}

template <class Time>
void Worker<Time>::grant_waiting(NodeId v) {
  if (waiting_.empty()) return;
  const auto it = waiting_.find(v);
  if (it == waiting_.end()) return;
  auto& queue = it->second;
  // First asked, first served among the senders the node accepts now.
  for (auto q = queue.begin(); q != queue.end();) {
    if (accepts(v, q->from) && (q->duration == Time(0) || can_receive(local(v)))) {
      grant(std::move(*q));
      queue.erase(q);
      q = queue.begin();
    } else {
      ++q;
    }
  }
  if (queue.empty()) waiting_.erase(it);
}

template <class Time>
void Worker<Time>::accept_requests() {
  incoming_.clear();
  if (exchange_ == nullptr) {
    std::swap(incoming_, out_[0].requests);  // one worker: no copy
  } else {
    for (auto& batch : in_) {
      for (auto& r : batch.requests) incoming_.push_back(std::move(r));
      batch.requests.clear();
    }
  }
  if (config_.checking == Checking::ARBITRATED && incoming_.size() > 1) {
    // First asked, first served; requests of one round are ordered by sender (then issue order).
    std::stable_sort(incoming_.begin(), incoming_.end(),
                     [](const Request<Time>& a, const Request<Time>& b) { return a.from < b.from; });
  }
  for (auto& r : incoming_) {
    const auto i = local(r.to);
    const bool queued = !waiting_.empty() && waiting_.contains(r.to);
    if (!queued && (r.duration == Time(0) || can_receive(i)) && accepts(r.to, r.from)) {
      grant(std::move(r));
    } else if (config_.checking == Checking::STRICT && !accepts(r.to, r.from)) {
      const auto& topo = *topology_;
      violation(r.to, r.from,
                fmt::format("node {} is sent a message by {} via {} but has not posted a receive from it",
                            topo.node_name(r.to), topo.node_name(r.from), topo.link_name(r.from, r.port)));
    } else if (config_.checking == Checking::STRICT) {
      const auto& topo = *topology_;
      violation(r.to, r.from,
                fmt::format("node {} is sent a message by {} via {} while its receive port is busy (the {} model "
                            "allows {} receive{} at a time)",
                            topo.node_name(r.to), topo.node_name(r.from), topo.link_name(r.from, r.port),
                            config_.ports.to_string(), config_.ports.ports, config_.ports.ports == 1 ? "" : "s"));
    } else {
      // Queued behind earlier requests, or not accepted yet: may still be served now if it is
      // the sender the node posted.
      record(EventKind::REQUEST, r.from, r.to, r.port, r.tag, r.size, r.payload);
      const NodeId to = r.to;
      waiting_[to].push_back(std::move(r));
      grant_waiting(to);
    }
  }
}

template <class Time>
void Worker<Time>::exchange() {
  if (exchange_ == nullptr) return;  // one worker: inbound() is what it sent itself
  exchange_->exchange(out_, in_);
  for (auto& b : out_) b.clear();
}

template <class Time>
std::optional<Fault> Worker<Time>::first_waiting() const {
  std::optional<Fault> best;
  const auto consider = [&](const Request<Time>& r, const char* what) {
    Fault f{r.from, r.to,
            fmt::format("deadlock at {}: node {} {} send to {} via {}, and nothing else is left to happen", where(),
                        topology_->node_name(r.from), what, topology_->node_name(r.to),
                        topology_->link_name(r.from, r.port))};
    if (!best || f.before(*best)) best = std::move(f);
  };
  for (const auto& [v, q] : waiting_) consider(q.front(), "waits for its receiver to take its");
  for (const auto& [v, q] : pending_sends_) consider(q.front(), "waits for a free port to start its");
  return best;
}

template <class Time>
bool Worker<Time>::advance() {
  if (exchange_ == nullptr) {
    // One worker: the decision below without building and exchanging headers.
    if (violation_) throw ModelViolation("strict port-model check: " + violation_->message);
    if (!agenda_.empty() && agenda_.begin()->first == now_) {
      ++round_;
      return true;
    }
    if (agenda_.empty()) {
      if (const auto waiting = first_waiting()) throw ModelViolation(waiting->message);
      return false;
    }
    return move_to(agenda_.begin()->first);
  }
  Header<Time> h;
  h.has_now = !agenda_.empty() && agenda_.begin()->first == now_;
  h.has_next = !agenda_.empty();
  if (h.has_next) h.next = agenda_.begin()->first;
  h.violation = violation_;
  if (!h.has_next) h.waiting = first_waiting();
  for (auto& b : out_) b.header = h;
  exchange();
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
  if (violation) throw ModelViolation("strict port-model check: " + violation->message);
  if (has_now) {
    ++round_;
    return true;
  }
  if (!next) {
    if (waiting) throw ModelViolation(waiting->message);
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
  return true;
}

template <class Time>
void Worker<Time>::run() {
  bool starting = true;
  counters_.event_times = 1;
  for (;;) {
    deliver_due();
    exchange();  // send-done notices
    for (auto& batch : inbound()) {
      for (const auto& done : batch.done) apply_send_done(done);
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

template class Worker<Rational>;
template class Worker<double>;

}  // namespace starnet::emulator
