#include "dense_step.hpp"
#include "violations.hpp"

#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <tuple>

namespace starnet::emulator {
namespace {

constexpr std::uint8_t LONG = 0xFF;
constexpr std::size_t INLINE_BYTES = sizeof(std::uint64_t);

}  // namespace

static_assert(DenseStep::BYTES_PER_NODE == 2 * (sizeof(std::uint32_t) + sizeof(std::uint64_t)),
              "the figure the memory estimate of the star collectives builds on (api/src/engine.cpp)");

/// The reacting node's view: the same checks and messages as Worker's, for sends only.
class DenseStep::NodeContext final : public Context {
 public:
  NodeContext(DenseStep& d, std::uint32_t v, bool starting) : Context(*d.topology_), d_(d) {
    node_ = v;
    step_ = d.step_;
    starting_ = starting;
    received_ = d.deliveries_;
    completed_ = d.completions_;
  }
  void send(Port port, std::string payload, Rational size, std::uint64_t tag) override {
    const auto& topo = *d_.topology_;
    if (port >= topo.degree(node_)) {
      d_.violation(node_, node_, violations::no_such_port(topo, node_, port));
      return;
    }
    d_.send(static_cast<std::uint32_t>(node_), topo.neighbor(node_, port), port, std::move(payload), size, tag);
  }
  void send_to(NodeId to, std::string payload, Rational size, std::uint64_t tag) override {
    const auto& topo = *d_.topology_;
    const auto port = topo.find_port(node_, to);
    if (port == topology::Topology::NO_PORT) {
      d_.violation(node_, to, violations::no_such_link(topo, node_, to));
      return;
    }
    d_.send(static_cast<std::uint32_t>(node_), to, port, std::move(payload), size, tag);
  }
  // A program that only sends (sends_only()) never calls these; one that does broke its word.
  void compute(Rational, std::uint64_t) override { broke("compute()"); }
  void sleep(Rational, std::uint64_t) override { broke("sleep()"); }
  void accept(NodeId) override { broke("accept()"); }
  [[nodiscard]] unsigned free_send_ports() const override { return d_.sends_now_ == 0 ? 1U : 0U; }

 private:
  [[noreturn]] static void broke(const char* call) {
    throw ScheduleError(fmt::format("a node program that declares sends_only() called {}", call));
  }
  DenseStep& d_;
};

bool DenseStep::applies(const topology::Topology& topology, const CostModel<Rational>& costs, const RunConfig& config,
                        const NodeProgram& program) {
  return program.sends_only() && dynamic_cast<const UnitCosts<Rational>*>(&costs) != nullptr &&
         config.time == TimeMode::UNIT && config.checking == Checking::STRICT && config.ports.ports == 1 &&
         !config.ports.half_duplex && !config.horizon && topology.num_nodes() < NONE;
}

void DenseStep::Arrivals::reset(std::size_t n) {
  from.assign(n, NONE);
  tag.reset(n);
  payload.assign(n, 0);
  length.reset(n);
  port.reset(n);
  sizes.clear();
  long_payloads.clear();
  receivers.clear();
  receivers.reserve(n / SPARSE_FRACTION + 1);
  count = 0;
}

void DenseStep::Arrivals::add(std::uint32_t to) {
  if (listed() && receivers.size() < receivers.capacity()) receivers.push_back(to);
  ++count;
}

template <class F>
void DenseStep::Arrivals::each(F&& f) const {
  if (listed()) {
    for (const auto u : receivers) f(u);
    return;
  }
  for (std::uint32_t u = 0; u < from.size(); ++u) {
    if (from[u] != NONE) f(u);
  }
}

void DenseStep::Arrivals::clear() {
  if (listed()) {
    for (const auto u : receivers) from[u] = NONE;
  } else {
    std::fill(from.begin(), from.end(), NONE);
  }
  receivers.clear();
  count = 0;
  tag.clear();
  length.clear();
  port.clear();
  sizes.clear();
  long_payloads.clear();
}

DenseStep::Message DenseStep::message_to(const Arrivals& a, std::uint32_t to) const {
  Message m;
  m.from = a.from[to];
  m.port = a.port.get(to);
  m.tag = a.tag.get(to);
  if (!a.sizes.empty()) {
    if (const auto s = a.sizes.find(to); s != a.sizes.end()) m.size = s->second;
  }
  const auto length = a.length.get(to);
  m.payload = length == LONG ? std::string_view(a.long_payloads[a.payload[to]])
                             : std::string_view(reinterpret_cast<const char*>(&a.payload[to]), length);
  return m;
}

void DenseStep::put(Arrivals& a, std::uint32_t to, std::uint32_t from, Port port, std::uint64_t tag,
                    const Rational& size, std::string&& payload) {
  a.from[to] = from;
  a.add(to);
  a.port.put(to, port);
  a.tag.put(to, tag);
  if (size != 1) a.sizes[to] = size;
  if (payload.size() <= INLINE_BYTES) {
    std::uint64_t word = 0;
    std::memcpy(&word, payload.data(), payload.size());
    a.payload[to] = word;
    a.length.put(to, static_cast<std::uint8_t>(payload.size()));
  } else {
    a.payload[to] = a.long_payloads.size();
    a.length.put(to, LONG);
    a.long_payloads.push_back(std::move(payload));
  }
}

void DenseStep::violation(NodeId node, NodeId peer, std::string message) {
  auto key = std::pair{node, peer};
  message = violations::at_step(step_, std::to_string(step_)) + ": " + message;
  // The smallest (node, peer, message) wins, as among Worker's faults.
  if (!violation_ || std::tie(key, message) < std::tie(violation_->first, violation_->second)) {
    violation_ = {key, std::move(message)};
  }
}

void DenseStep::record(EventKind kind, NodeId node, NodeId peer, Port port, std::uint64_t tag, const Rational& size,
                       std::string_view payload) {
  const Rational now(static_cast<std::int64_t>(step_));
  trace_.push_back({step_, 0, now, kind, node, peer, port, tag, size, payload.size(), std::string(payload)});
}

// A send is granted at once or refused: in unit time no transfer of this step ends before the
// step's reactions are over, so the receive port is busy exactly when an earlier sender of this
// step (in sender order, as Worker grants) already took it.
void DenseStep::send(std::uint32_t from, NodeId to, Port port, std::string&& payload, const Rational& size,
                     std::uint64_t tag) {
  const auto& topo = *topology_;
  if (!(size >= 0)) {
    violation(from, from, violations::negative_size(topo, from, size));
    return;
  }
  if (sends_now_ != 0) {
    violation(from, to, violations::send_port_busy(topo, from, to, port, config_.ports));
    return;
  }
  ++sends_now_;
  counters_.max_concurrent_sends = 1;
  const auto receiver = static_cast<std::uint32_t>(to);
  if (next_.from[receiver] != NONE) {
    violation(to, from, violations::receive_port_busy(topo, from, to, port, config_.ports));
    return;
  }
  counters_.max_concurrent_receives = 1;
  if (config_.trace) record(EventKind::SEND, from, to, port, tag, size, payload);
  if (send_notices_) sent_to_[from] = receiver;
  put(next_, receiver, from, port, tag, size, std::move(payload));
}

void DenseStep::deliver() {
  counters_.messages += now_.count;
  if (!config_.trace && now_.long_payloads.empty()) {
    now_.each([&](std::uint32_t u) { counters_.payload_bytes += now_.length.get(u); });
    return;
  }
  now_.each([&](std::uint32_t u) {
    const auto m = message_to(now_, u);
    counters_.payload_bytes += m.payload.size();
    if (config_.trace) {
      record(EventKind::RECEIVE, u, m.from, m.port, m.tag, m.size, m.payload);
      record(EventKind::SEND_END, m.from, u, 0, m.tag, 0, {});
    }
  });
}

void DenseStep::react(std::uint32_t v, bool starting) {
  deliveries_.clear();
  completions_.clear();
  if (!starting) {
    if (now_.from[v] != NONE) {
      const auto m = message_to(now_, v);
      auto& d = deliveries_.emplace_back();
      d.from = m.from;
      d.port = m.port;
      d.tag = m.tag;
      d.size = m.size;
      d.payload.assign(m.payload);
    }
    // v's last send arrives now exactly when its receiver's arrival names v (see sent_to_).
    if (send_notices_ && sent_to_[v] != NONE && now_.from[sent_to_[v]] == v) {
      completions_.push_back({Completion::Kind::SEND, now_.tag.get(sent_to_[v]), sent_to_[v]});
    }
    if (deliveries_.empty() && completions_.empty()) return;
  }
  sends_now_ = 0;
  NodeContext ctx(*this, v, starting);
  program_->react(ctx);
}

void DenseStep::react_all(bool starting) {
  const auto n = static_cast<std::uint32_t>(topology_->num_nodes());
  // Every node that receives or whose send ends reacts, in node order; a scan of all nodes when
  // that is most of them (the star collectives), the few otherwise.
  if (starting || !now_.listed()) {
    for (std::uint32_t v = 0; v < n; ++v) {
      throw_if_stopped_every(v);  // a step of S_12 takes seconds
      react(v, starting);
    }
    return;
  }
  reacting_.assign(now_.receivers.begin(), now_.receivers.end());
  if (send_notices_) {
    for (const auto u : now_.receivers) reacting_.push_back(now_.from[u]);
  }
  std::sort(reacting_.begin(), reacting_.end());
  reacting_.erase(std::unique(reacting_.begin(), reacting_.end()), reacting_.end());
  for (const auto v : reacting_) react(v, false);
}

void DenseStep::run(const topology::Topology& topology, const RunConfig& config, NodeProgram& program) {
  topology_ = &topology;
  program_ = &program;
  config_ = config;
  send_notices_ = program.reacts_to_sends();
  step_ = 0;
  counters_ = {};
  counters_.event_times = 1;
  trace_.clear();
  violation_.reset();
  const auto n = static_cast<std::size_t>(topology.num_nodes());
  now_.reset(n);
  next_.reset(n);
  sent_to_.assign(send_notices_ ? n : 0, NONE);
  bool starting = true;
  for (;;) {
    throw_if_stopped();
    deliver();
    react_all(starting);
    starting = false;
    if (violation_) throw ModelViolation("strict port-model check: " + violation_->second);
    if (next_.count == 0) return;
    std::swap(now_, next_);
    next_.clear();
    ++step_;
    ++counters_.event_times;
  }
}

}  // namespace starnet::emulator
