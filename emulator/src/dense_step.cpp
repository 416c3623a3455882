#include "dense_step.hpp"
#include "node_context.hpp"
#include "violations.hpp"

#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <tuple>

namespace starnet::emulator {
namespace {

constexpr std::uint8_t LONG = DenseBatch::LONG;
constexpr std::size_t INLINE_BYTES = DenseBatch::INLINE_BYTES;

}  // namespace

static_assert(DenseStep::BYTES_PER_NODE == 2 * (sizeof(std::uint32_t) + sizeof(std::uint64_t)),
              "the figure the memory estimate of the star collectives builds on (api/src/engine.cpp)");

/// The reacting node's view: the same checks and messages as Worker's, for sends only.
class DenseStep::NodeContext final : public NodeContextOf<NodeContext> {
 public:
  NodeContext(DenseStep& d, Lane& lane, std::uint32_t v, bool starting)
      : NodeContextOf(*d.topology_), d_(d), lane_(lane) {
    at(v, d.step_, starting, std::span<const Delivery>(&lane.delivery, lane.delivered), lane.completions);
  }
  // A program that only sends (sends_only()) never calls these; one that does broke its word.
  void compute(Rational, std::uint64_t) override { broke("compute()"); }
  void sleep(Rational, std::uint64_t) override { broke("sleep()"); }
  void accept(NodeId) override { broke("accept()"); }
  [[nodiscard]] unsigned free_send_ports() const override { return lane_.sends_now == 0 ? 1U : 0U; }

 private:
  [[noreturn]] static void broke(const char* call) {
    throw ScheduleError(fmt::format("a node program that declares sends_only() called {}", call));
  }
  friend class NodeContextOf<NodeContext>;
  void refuse(NodeId peer, std::string message) { d_.violation(lane_, node_, peer, std::move(message)); }
  void take(NodeId to, Port port, std::string&& payload, const Rational& size, std::uint64_t tag) {
    d_.send(lane_, static_cast<std::uint32_t>(node_), to, port, std::move(payload), size, tag);
  }
  DenseStep& d_;
  Lane& lane_;
};

bool DenseStep::qualifies(const topology::Topology& topology, const CostModel<Rational>& costs,
                          const RunConfig& config) {
  return dynamic_cast<const UnitCosts<Rational>*>(&costs) != nullptr && config.time == TimeMode::UNIT &&
         config.checking == Checking::STRICT && config.ports.ports == 1 && !config.ports.half_duplex &&
         !config.horizon && !config.asynchrony && topology.num_nodes() < NONE && topology.network() == nullptr;
}

unsigned DenseStep::lanes(std::uint64_t nodes, const RunConfig& config) {
  const std::uint64_t threads = std::max(1U, config.threads);
  const std::uint64_t most = threads == 1 ? 1 : threads * std::max(1U, config.lanes_per_thread);
  const std::uint64_t fit = nodes / std::max<std::uint64_t>(1, config.nodes_per_thread);
  return static_cast<unsigned>(std::clamp<std::uint64_t>(fit, 1, most));
}

bool DenseStep::Arrivals::listed() const {
  return std::all_of(lanes.begin(), lanes.end(), [](const LaneArrivals& l) { return l.listed(); });
}

std::uint64_t DenseStep::Arrivals::count() const {
  std::uint64_t c = 0;
  for (const auto& l : lanes) c += l.count;
  return c;
}

void DenseStep::Arrivals::reset(std::size_t n, std::size_t lane_count, std::size_t list_capacity) {
  // Hundreds of megabytes on S_11, seconds to fault in: Ctrl-C is looked at along the way.
  assign_interruptibly(from, n, NONE);
  assign_interruptibly(payload, n, std::uint64_t{0});
  tag.reset(n, lane_count);
  length.reset(n, lane_count);
  port.reset(n, lane_count);
  lanes.resize(lane_count);
  for (auto& l : lanes) {
    l.sizes.clear();
    l.long_payloads.clear();
    l.receivers.clear();
    l.receivers.reserve(list_capacity);
    l.count = 0;
  }
  extras = false;
}

namespace {

/// The index of the range, among those beginning at @p begins (in order), that holds @p v.
std::size_t range_of(const std::vector<NodeId>& begins, std::uint32_t v) {
  return static_cast<std::size_t>(std::upper_bound(begins.begin(), begins.end(), v) - begins.begin() - 1);
}

}  // namespace

std::size_t DenseStep::source_of(std::uint32_t from) const {
  if (!own_.contains(from)) return lanes_.size() + range_of(part_begins_, from);
  return lane_begins_.size() == 1 ? 0 : range_of(lane_begins_, from);
}

DenseStep::Message DenseStep::message_to(const Arrivals& a, std::uint32_t to) const {
  Message m;
  const auto i = at(to);
  m.from = a.from[i];
  m.port = a.port.get(i);
  m.tag = a.tag.get(i);
  const auto length = a.length.get(i);
  if (a.extras) {
    const auto& la = a.lanes[source_of(m.from)];
    if (!la.sizes.empty()) {
      if (const auto s = la.sizes.find(to); s != la.sizes.end()) m.size = s->second;
    }
    if (length == LONG) {
      m.payload = la.long_payloads[a.payload[i]];
      return m;
    }
  }
  m.payload = std::string_view(reinterpret_cast<const char*>(&a.payload[i]), length);
  return m;
}

void DenseStep::put(Arrivals& a, std::size_t lane, std::uint32_t to, std::uint32_t from, Port port,
                    std::uint64_t tag, const Rational& size, std::string&& payload) {
  auto& la = a.lanes[lane];
  if (la.listed() && la.receivers.size() < la.receivers.capacity()) la.receivers.push_back(to);
  ++la.count;
  const auto i = at(to);
  a.port.put(lane, i, from, port);
  a.tag.put(lane, i, from, tag);
  if (size != 1) la.sizes[to] = size;
  std::atomic_ref<std::uint64_t> slot(a.payload[i]);
  if (payload.size() <= INLINE_BYTES) {
    std::uint64_t word = 0;
    std::memcpy(&word, payload.data(), payload.size());
    slot.store(word, std::memory_order_relaxed);
    a.length.put(lane, i, from, static_cast<std::uint8_t>(payload.size()));
  } else {
    slot.store(la.long_payloads.size(), std::memory_order_relaxed);
    a.length.put(lane, i, from, LONG);
    la.long_payloads.push_back(std::move(payload));
  }
}

void DenseStep::violation(Lane& lane, NodeId node, NodeId peer, std::string message) {
  auto key = std::pair{node, peer};
  message = violations::at_step(step_, std::to_string(step_)) + ": " + message;
  // The smallest (node, peer, message) wins, as among Worker's faults.
  if (!lane.violation || std::tie(key, message) < std::tie(lane.violation->first, lane.violation->second)) {
    lane.violation = {key, std::move(message)};
  }
}

void DenseStep::record(Lane& lane, EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag,
                       const Rational& size, std::string_view payload) {
  const Rational now(static_cast<std::int64_t>(step_));
  lane.trace.push_back({step_, 0, now, kind, node, peer, port, tag, size, payload.size(), std::string(payload)});
}

// A send is granted at once or refused: in unit time no transfer of this step ends before the
// step's reactions are over, so the receive port is busy exactly when an earlier sender of this
// step (in sender order, as Worker grants) takes it; which sender that is, resolve_refused() says.
void DenseStep::send(Lane& lane, std::uint32_t from, NodeId to, Port port, std::string&& payload,
                     const Rational& size, std::uint64_t tag) {
  const auto& topo = *topology_;
  if (!(size >= 0)) {
    violation(lane, from, from, violations::negative_size(topo, from, size));
    return;
  }
  if (lane.sends_now != 0) {
    violation(lane, from, to, violations::send_port_busy(topo, from, to, port, config_.ports));
    return;
  }
  ++lane.sends_now;
  lane.counters.max_concurrent_sends = 1;
  const auto receiver = static_cast<std::uint32_t>(to);
  if (!own_.contains(to)) {
    // Another worker's node: its worker grants or refuses the message when it arrives (trade).
    lane.counters.max_concurrent_receives = 1;
    if (config_.trace) record(lane, EventKind::SEND, from, to, port, tag, size, payload);
    lane.outbound[range_of(part_begins_, receiver)].add(receiver, from, port, tag, size, std::move(payload));
    ++lane.outbound_count;
    return;
  }
  auto& a = next();
  std::atomic_ref<std::uint32_t> slot(a.from[at(receiver)]);
  if (slot.load(std::memory_order_relaxed) != NONE) {
    lane.refused.push_back({receiver, from, port});
    return;
  }
  // Several lanes: the receiver may be another lane's, or another lane's sender may take it, so
  // the slot is claimed by compare-and-swap and whoever finds it taken is refused.
  if (lanes_.size() == 1) {
    slot.store(from, std::memory_order_relaxed);
  } else if (std::uint32_t empty = NONE; !slot.compare_exchange_strong(empty, from, std::memory_order_relaxed)) {
    lane.refused.push_back({receiver, from, port});
    return;
  }
  lane.counters.max_concurrent_receives = 1;
  if (config_.trace) record(lane, EventKind::SEND, from, to, port, tag, size, payload);
  if (send_notices_) sent_to_[at(from)] = receiver;
  put(a, static_cast<std::size_t>(&lane - lanes_.data()), receiver, from, port, tag, size, std::move(payload));
}

void DenseStep::deliver(Lane& lane, std::uint32_t u) {
  const auto& a = now();
  ++lane.counters.messages;
  if (!config_.trace && !a.extras) {
    lane.counters.payload_bytes += a.length.get(at(u));
    return;
  }
  const auto m = message_to(a, u);
  lane.counters.payload_bytes += m.payload.size();
  if (config_.trace) {
    record(lane, EventKind::RECEIVE, u, m.from, m.port, m.tag, m.size, m.payload);
    record(lane, EventKind::SEND_END, m.from, u, 0, m.tag, 0, {});
  }
}

void DenseStep::react(Lane& lane, std::uint32_t v, bool starting) {
  lane.delivered = 0;
  lane.completions.clear();
  if (!starting) {
    const auto& a = now();
    if (a.from[at(v)] != NONE) {
      const auto m = message_to(a, v);
      auto& d = lane.delivery;
      lane.delivered = 1;
      d.from = m.from;
      d.port = m.port;
      d.arrival_port = topology_->back_port(m.from, m.port);
      d.tag = m.tag;
      d.size = m.size;
      d.payload.assign(m.payload);
    }
    // v's last send arrives now exactly when its receiver's arrival names v (see sent_to_).
    if (const auto to = send_notices_ ? sent_to_[at(v)] : NONE; to != NONE && a.from[at(to)] == v) {
      lane.completions.push_back({Completion::Kind::SEND, a.tag.get(at(to)), to});
    }
    if (lane.delivered == 0 && lane.completions.empty()) return;
  }
  lane.sends_now = 0;
  NodeContext ctx(*this, lane, v, starting);
  lane.program->react(ctx);
}

void DenseStep::react_lane(std::size_t l, bool starting) {
  auto& lane = lanes_[l];
  try {
    const auto& a = now();
    // Every node that receives or whose send ends reacts, in node order; a scan of the lane's
    // nodes when that is most of them (the star collectives), the few listed otherwise.
    if (starting || !a.listed()) {
      for (auto v = static_cast<std::uint32_t>(lane.range.begin); v < lane.range.end; ++v) {
        throw_if_stopped_every(v);  // a step of S_12 takes seconds
        if (!starting && a.from[at(v)] != NONE) deliver(lane, v);
        react(lane, v, starting);
        trade_full(lane);
      }
      return;
    }
    // Each lane counts the messages it sent; the first, those from other workers' nodes.
    for (const auto u : a.lanes[l].receivers) deliver(lane, u);
    for (auto k = lanes_.size(); l == 0 && k < a.lanes.size(); ++k) {
      for (const auto u : a.lanes[k].receivers) deliver(lane, u);
    }
    const auto first = std::lower_bound(reacting_.begin(), reacting_.end(), lane.range.begin);
    const auto last = std::lower_bound(first, reacting_.end(), lane.range.end);
    for (auto it = first; it != last; ++it) {
      react(lane, *it, false);
      trade_full(lane);
    }
  } catch (...) {
    lane.error = std::current_exception();
  }
}

void DenseStep::settle_lane(std::size_t l, bool wide) {
  auto& lane = lanes_[l];
  auto& a = next();
  if (wide) {
    if (a.listed()) {
      // A receiver on two lanes' lists (a violating step) is filled by its holder's lane alone.
      for (const auto u : a.lanes[l].receivers) {
        if (lane.range.contains(a.from[at(u)])) fill(a, u);
      }
    } else {
      for (auto u = static_cast<std::uint32_t>(lane.range.begin); u < lane.range.end; ++u) {
        if (a.from[at(u)] != NONE) fill(a, u);
      }
    }
  }
  // This step's arrivals are read: the set is cleared for the step after next.
  auto& old = now();
  if (old.listed()) {
    for (const auto u : old.lanes[l].receivers) old.from[at(u)] = NONE;
  } else {
    const auto first = old.from.begin() + static_cast<std::ptrdiff_t>(lane.range.begin - own_.begin);
    std::fill(first, first + static_cast<std::ptrdiff_t>(lane.range.size()), NONE);
  }
}

void DenseStep::fill(Arrivals& a, std::uint32_t u) {
  const auto i = at(u);
  const auto from = a.from[i];
  const auto k = source_of(from);
  a.tag.fill(k, i, from);
  a.length.fill(k, i, from);
  a.port.fill(k, i, from);
}

// What arrived from other workers' nodes, while listed: the lanes' share (settle_lane) covers
// only the receivers they listed themselves.
void DenseStep::settle_from_workers(bool wide) {
  auto& a = next();
  auto& old = now();
  for (auto k = lanes_.size(); k < a.lanes.size(); ++k) {
    if (wide && a.listed()) {
      for (const auto u : a.lanes[k].receivers) {
        if (source_of(a.from[at(u)]) == k) fill(a, u);
      }
    }
    if (old.listed()) {
      for (const auto u : old.lanes[k].receivers) old.from[at(u)] = NONE;
    }
  }
}

// Every sender to a receiver but the smallest violates, as when one lane grants in sender order.
void DenseStep::resolve_refused() {
  std::vector<Attempt> attempts;
  for (auto& lane : lanes_) {
    attempts.insert(attempts.end(), lane.refused.begin(), lane.refused.end());
    lane.refused.clear();
  }
  if (attempts.empty()) return;
  auto& a = next();
  const auto refused = attempts.size();
  for (std::size_t i = 0; i < refused; ++i) {
    // The holder: a smaller sender than those refused on one lane, not always on several; its
    // message, port included, is the one in the slot (settled).
    const auto to = attempts[i].to;
    attempts.push_back({to, a.from[at(to)], a.port.get(at(to))});
  }
  std::sort(attempts.begin(), attempts.end(),
            [](const Attempt& x, const Attempt& y) { return std::tie(x.to, x.from) < std::tie(y.to, y.from); });
  attempts.erase(std::unique(attempts.begin(), attempts.end(),
                             [](const Attempt& x, const Attempt& y) { return x.to == y.to && x.from == y.from; }),
                 attempts.end());
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    if (i == 0 || attempts[i - 1].to != attempts[i].to) continue;  // the smallest sender is granted
    const auto& at = attempts[i];
    violation(lanes_.front(), at.to, at.from,
              violations::receive_port_busy(*topology_, at.from, at.to, at.port, config_.ports));
  }
}

void DenseStep::step(bool starting) {
  auto& a = now();
  const bool listed = !starting && a.listed();
  if (listed) {
    reacting_.clear();
    for (const auto& la : a.lanes) reacting_.insert(reacting_.end(), la.receivers.begin(), la.receivers.end());
    if (send_notices_) {
      for (const auto& la : a.lanes) {
        for (const auto u : la.receivers) reacting_.push_back(a.from[at(u)]);
      }
    }
    std::sort(reacting_.begin(), reacting_.end());
    reacting_.erase(std::unique(reacting_.begin(), reacting_.end()), reacting_.end());
  }
  threads_->each(lanes_.size(), [&](std::size_t l) { react_lane(l, starting); });
  for (const auto& lane : lanes_) {
    if (lane.error) std::rethrow_exception(lane.error);  // the lowest lane's: the first in node order
  }
  if (exchange_ != nullptr) trade_rest();
  auto& b = next();
  b.extras = std::any_of(b.lanes.begin(), b.lanes.end(),
                         [](const LaneArrivals& l) { return !l.sizes.empty() || !l.long_payloads.empty(); });
  bool wide = b.tag.settle();
  wide = b.length.settle() || wide;
  wide = b.port.settle() || wide;
  threads_->each(lanes_.size(), [&](std::size_t l) { settle_lane(l, wide); });
  settle_from_workers(wide);
  for (auto& la : a.lanes) {
    la.receivers.clear();
    la.count = 0;
    la.sizes.clear();
    la.long_payloads.clear();
  }
  a.tag.clear();
  a.length.clear();
  a.port.clear();
  a.extras = false;
  resolve_refused();
}

// A worker's messages from one round arrive before those of its next: each source's senders
// keep their order (Column::put), and a receiver taken out of sender order is sorted out with
// the refused sends (resolve_refused), as are those of the step's end.
bool DenseStep::trade(bool more) {
  for (std::size_t w = 0; w < out_.size(); ++w) {
    out_[w].clear();
    out_[w].header.has_now = more;
    for (auto& lane : lanes_) {
      lane.outbound[w].move_to(out_[w].requests);  // lanes in node order: the senders in order
    }
  }
  for (auto& lane : lanes_) lane.outbound_count = 0;
  exchange_->exchange(out_, in_);
  bool peers_more = false;
  DenseBatchReader::Message m;
  for (std::size_t w = 0; w < in_.size(); ++w) {
    if (w == self_) continue;
    peers_more = peers_more || in_[w].header.has_now;
    DenseBatchReader r(in_[w].received);
    const NodeRange theirs{part_begins_[w], w + 1 < part_begins_.size() ? part_begins_[w + 1] : topology_->num_nodes()};
    while (r.next(m)) {
      if (!own_.contains(m.to) || !theirs.contains(m.from)) wire::Reader::malformed("a message between wrong workers");
      put_arrival(lanes_.size() + w, m.to, m.from, m.port, m.tag, m.size, std::move(m.payload));
    }
    in_[w].clear();
  }
  return peers_more;
}

void DenseStep::trade_full(Lane& lane) {
  if (exchange_ != nullptr && lane.outbound_count >= config_.batch_messages) trade(true);
}

void DenseStep::trade_rest() {
  while (trade(false)) {
  }
}

// Messages from other workers' nodes come in rounds, before or after this worker's own sends to
// the same receiver: whichever finds it taken is refused, and resolve_refused() puts the senders
// in order, as on one lane.
void DenseStep::put_arrival(std::size_t source, std::uint32_t to, std::uint32_t from, Port port, std::uint64_t tag,
                            const Rational& size, std::string&& payload) {
  auto& a = next();
  auto& slot = a.from[at(to)];
  if (slot != NONE) {
    lanes_.front().refused.push_back({to, from, port});
    return;
  }
  slot = from;
  put(a, source, to, from, port, tag, size, std::move(payload));
}

bool DenseStep::conclude() {
  std::optional<Fault> fault;
  for (const auto& lane : lanes_) {
    if (!lane.violation) continue;
    Fault f{lane.violation->first.first, lane.violation->first.second, lane.violation->second};
    if (!fault || f.before(*fault)) fault = std::move(f);
  }
  bool more = next().count() > 0;
  if (exchange_ != nullptr) {
    for (auto& b : out_) {
      b.clear();
      b.header.violation = fault;
      b.header.has_next = more;
    }
    exchange_->exchange(out_, in_);
    for (auto& b : in_) {
      if (b.header.violation && (!fault || b.header.violation->before(*fault))) fault = b.header.violation;
      more = more || b.header.has_next;
      b.clear();
    }
  }
  if (fault) throw ModelViolation("strict port-model check: " + fault->message, fault->node);
  return more;
}

void DenseStep::start(const topology::Topology& topology, const RunConfig& config,
                      const std::vector<NodeProgram*>& programs, const std::vector<NodeRange>& ranges) {
  STARNET_ASSERT(!programs.empty() && programs.size() == ranges.size());
  topology_ = &topology;
  config_ = config;
  send_notices_ = programs.front()->reacts_to_sends();
  step_ = 0;
  event_times_ = 1;
  lanes_.clear();
  lanes_.resize(programs.size());
  lane_begins_.clear();
  for (std::size_t l = 0; l < programs.size(); ++l) {
    lanes_[l].range = ranges[l];
    lanes_[l].program = programs[l];
    lanes_[l].outbound.resize(part_begins_.size());
    for (auto& b : lanes_[l].outbound) b.expect_at_most(std::min(ranges[l].size(), config.batch_messages));
    lane_begins_.push_back(ranges[l].begin);
  }
  own_ = {ranges.front().begin, ranges.back().end};
  threads_.emplace(lanes_.size() > 1 ? std::max(1U, config.threads) : 1U);
  const auto n = static_cast<std::size_t>(own_.size());
  const auto sources = lanes_.size() + part_begins_.size();
  const std::size_t list_capacity = n / SPARSE_FRACTION / lanes_.size() + 1;
  for (auto& set : sets_) set.reset(n, sources, list_capacity);
  now_ = 0;
  sent_to_.assign(send_notices_ ? n : 0, NONE);
  out_.assign(part_begins_.size(), {});
  in_.assign(part_begins_.size(), {});
}

void DenseStep::loop() {
  bool starting = true;
  for (;;) {
    throw_if_stopped();
    step(starting);
    starting = false;
    if (!conclude()) return;
    now_ = 1 - now_;
    ++step_;
    ++event_times_;
  }
}

void DenseStep::run(const topology::Topology& topology, const RunConfig& config,
                    const std::vector<NodeProgram*>& programs, const std::vector<NodeRange>& ranges) {
  exchange_ = nullptr;
  part_begins_.clear();
  start(topology, config, programs, ranges);
  loop();
}

void DenseStep::run(const topology::Topology& topology, const RunConfig& config, NodeProgram& program,
                    const std::vector<NodeRange>& parts, unsigned self, Exchange<Rational>& exchange) {
  STARNET_ASSERT(self < parts.size() && !program.reacts_to_sends());
  exchange_ = &exchange;
  self_ = self;
  part_begins_.clear();
  for (const auto& p : parts) part_begins_.push_back(p.begin);
  start(topology, config, {&program}, {parts[self]});
  loop();
}

Counters DenseStep::counters() const {
  Counters c;
  for (const auto& lane : lanes_) c.merge(lane.counters);
  c.event_times = event_times_;
  return c;
}

std::vector<TraceEvent<Rational>> DenseStep::take_trace() {
  std::vector<TraceEvent<Rational>> out;
  if (lanes_.size() == 1) return std::move(lanes_.front().trace);
  for (auto& lane : lanes_) {
    out.insert(out.end(), std::make_move_iterator(lane.trace.begin()), std::make_move_iterator(lane.trace.end()));
    lane.trace.clear();
  }
  return out;
}

}  // namespace starnet::emulator
