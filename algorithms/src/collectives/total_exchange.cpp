#include <starnet/algorithms/collectives/total_exchange.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/emulator/payload.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/star_graph.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <sstream>

namespace starnet::algorithms::collectives {

namespace sch = algorithms::schedule;
using topology::StarGraph;

namespace {
constexpr std::uint32_t UNSEEN = std::numeric_limits<std::uint32_t>::max();
}  // namespace

RightTables::RightTables(const CayleyGroup& g)
    : first_(g.first()),
      order_(g.order()),
      from_(static_cast<std::size_t>(g.last() - g.first() + 1) * g.order()),
      to_(from_.size()) {
  for (int k = g.first(); k <= g.last(); ++k) {
    for (std::uint32_t x = 0; x < order_; ++x) {
      throw_if_stopped_every(x);
      from_[index(k, x)] = g.times_inverse(k, x);
      to_[index(k, x)] = g.times_inverse(g.inverse(k), x);  // x·g_k = x·(g_{k⁻¹})⁻¹
    }
  }
}

std::uint64_t Geodesics::status() const {
  std::uint64_t s = 0;
  for (const auto d : dist) s += d;
  return s;
}

std::vector<int> Geodesics::word(std::uint32_t h) const {
  std::vector<int> w;
  for (std::uint32_t x = h; dist[x] > 0; x = parent[x]) w.push_back(last[x]);
  std::reverse(w.begin(), w.end());
  return w;
}

Geodesics geodesics(const CayleyGroup& g, const RightTables& right) {
  const auto n = static_cast<std::uint32_t>(g.order());
  Geodesics geo{std::vector<std::uint32_t>(n, UNSEEN), std::vector<std::uint32_t>(n, 0), std::vector<int>(n, 0), {}};
  geo.order.reserve(n);
  geo.dist[0] = 0;  // element 0 is the identity
  geo.order.push_back(0);
  for (std::size_t head = 0; head < geo.order.size(); ++head) {
    const auto x = geo.order[head];
    for (int k = g.first(); k <= g.last(); ++k) {
      const auto y = right.to(k, x);
      if (geo.dist[y] != UNSEEN) continue;
      geo.dist[y] = geo.dist[x] + 1;
      geo.parent[y] = x;
      geo.last[y] = k;
      geo.order.push_back(y);
    }
  }
  return geo;
}

namespace {

/// Fills packets, volume and route_begin from routes given per offset.
void finish(ExchangePlan& p, std::uint64_t order) {
  p.packets.assign(p.generators.size(), 0);
  for (const auto t : p.route_steps) ++p.packets[t];
  p.volume = p.route_steps.size();
  STARNET_ASSERT(p.route_begin.size() == order + 1);
}

}  // namespace

ExchangePlan one_packet_exchange(const CayleyGroup& g) {
  const RightTables right(g);
  const auto geo = geodesics(g, right);
  ExchangePlan p;
  p.status = geo.status();
  // Offsets in breadth-first order, each over its own block of dist(h) steps.
  std::vector<std::uint64_t> first_step(g.order(), 0);
  for (const auto h : geo.order) {
    first_step[h] = p.generators.size();
    const auto w = geo.word(h);
    p.generators.insert(p.generators.end(), w.begin(), w.end());
  }
  p.route_begin.assign(g.order() + 1, 0);
  for (std::uint32_t h = 0; h < g.order(); ++h) p.route_begin[h + 1] = p.route_begin[h] + geo.dist[h];
  p.route_steps.resize(p.route_begin.back());
  for (std::uint32_t h = 0; h < g.order(); ++h) {
    for (std::uint64_t i = 0; i < geo.dist[h]; ++i) {
      p.route_steps[p.route_begin[h] + i] = static_cast<std::uint32_t>(first_step[h] + i);
    }
  }
  finish(p, g.order());
  return p;
}

void exchange_step(const RightTables& right, int k, std::span<const std::uint16_t> before,
                   std::span<std::uint16_t> after) {
  for (std::size_t x = 0; x < before.size(); ++x) {
    const auto via = before[right.from(k, static_cast<std::uint32_t>(x))];
    after[x] = via != INFINITE_HOPS && via + 1 < before[x] ? static_cast<std::uint16_t>(via + 1) : before[x];
  }
}

ExchangePlan combining_exchange(const CayleyGroup& g, const std::vector<int>& generators) {
  for (const int k : generators) {
    if (k < g.first() || k > g.last()) {
      throw ScheduleError(fmt::format("{}: no generator {} (expected {}..{})", g.spec(), k, g.first(), g.last()));
    }
  }
  if (generators.size() >= INFINITE_HOPS) {
    throw ScheduleError(fmt::format("{}: a sequence of {} steps is too long", g.spec(), generators.size()));
  }
  const RightTables right(g);
  const auto n = static_cast<std::size_t>(g.order());
  const std::size_t steps = generators.size();
  // d[t][x]: the fewest steps among the first t whose product is x (the table of every t, for the
  // routes).
  std::vector<std::uint16_t> d((steps + 1) * n, INFINITE_HOPS);
  d[0] = 0;
  for (std::size_t t = 1; t <= steps; ++t) {
    throw_if_stopped("the combining exchange");
    exchange_step(right, generators[t - 1], std::span(d).subspan((t - 1) * n, n), std::span(d).subspan(t * n, n));
  }
  const auto final_hops = std::span(d).subspan(steps * n, n);
  ExchangePlan p;
  p.generators = generators;
  p.status = geodesics(g, right).status();
  p.route_begin.assign(n + 1, 0);
  for (std::size_t h = 0; h < n; ++h) {
    if (final_hops[h] == INFINITE_HOPS) {
      throw ScheduleError(fmt::format("{}: the sequence routes no packet of offset {} (it is not a uniform gossip)",
                                      g.spec(), h));
    }
    p.route_begin[h + 1] = p.route_begin[h] + final_hops[h];
  }
  p.route_steps.resize(p.route_begin.back());
  for (std::size_t h = 0; h < n; ++h) {
    // Backwards: step t is used when the route of x cannot do without it.
    auto x = static_cast<std::uint32_t>(h);
    auto slot = p.route_begin[h + 1];
    for (std::size_t t = steps; t > 0 && d[t * n + x] > 0; --t) {
      if (d[(t - 1) * n + x] == d[t * n + x]) continue;
      p.route_steps[--slot] = static_cast<std::uint32_t>(t - 1);
      x = right.from(generators[t - 1], x);
    }
    STARNET_ASSERT(slot == p.route_begin[h] && x == 0);
  }
  finish(p, g.order());
  return p;
}

sch::Schedule exchange_schedule(const CayleyGroup& g, const ExchangePlan& p) {
  if (g.order() > optimal::MAX_UNIFORM_SCHEDULE_NODES) {
    throw UsageError(fmt::format("{}: a total exchange is written as a chunk schedule up to {} nodes; this one has {}",
                                 g.spec(), optimal::MAX_UNIFORM_SCHEDULE_NODES, g.order()));
  }
  const auto n = static_cast<std::uint32_t>(g.order());
  const RightTables right(g);
  const auto geo = geodesics(g, right);
  // The inverse of h: its word read backwards with inverse letters.
  std::vector<std::uint32_t> inverse(n, 0);
  for (std::uint32_t h = 0; h < n; ++h) {
    const auto w = geo.word(h);
    std::uint32_t y = 0;
    for (auto it = w.rbegin(); it != w.rend(); ++it) y = right.from(*it, y);
    inverse[h] = y;
  }
  // users[t]: the offsets whose packets move at step t; last[h]: the step their route ends.
  std::vector<std::vector<std::uint32_t>> users(p.steps());
  std::vector<std::uint32_t> last(n, UNSEEN);
  for (std::uint32_t h = 1; h < n; ++h) {
    for (const auto t : p.route(h)) users[t].push_back(h);
    last[h] = p.route(h).back();
  }
  sch::ScheduleBuilder b(sch::ChunkRules(Collective::ALLTOALL, n, n, 0), /*scratch=*/n);
  std::vector<sch::TransferItem> items;
  for (std::uint32_t v = 0; v < n; ++v) {
    throw_if_stopped_every(v);
    items.clear();
    for (std::uint32_t h = 1; h < n; ++h) items.push_back({g.times(v, h), n + h, sch::ItemOp::COPY});
    if (!items.empty()) b.add_transfer(0, v, v, items);
  }
  for (std::uint32_t t = 0; t < p.steps(); ++t) {
    const int k = p.generators[t];
    for (std::uint32_t v = 0; v < n; ++v) {
      const auto to = right.to(k, v);
      items.clear();
      for (const auto h : users[t]) {
        // At its destination the packet of offset h comes from to·h⁻¹: it goes into that chunk.
        items.push_back({n + h, last[h] == t ? g.times(to, inverse[h]) : n + h, sch::ItemOp::COPY});
      }
      if (!items.empty()) b.add_transfer(t, v, to, items);
    }
  }
  return std::move(b).build();
}

std::string ExchangeReport::serialize() const { return fmt::format("{} {} {}", nodes, complete, wrong); }

ExchangeReport ExchangeReport::parse(const std::string& text) {
  std::istringstream in(text);
  ExchangeReport r;
  in >> r.nodes >> r.complete >> r.wrong;
  if (!in) {
    throw Error(fmt::format("total exchange report \"{}\" is malformed (expected three counts: nodes, complete, wrong)",
                            text));
  }
  return r;
}

void ExchangeReport::merge(const ExchangeReport& o) {
  nodes += o.nodes;
  complete += o.complete;
  wrong += o.wrong;
}

namespace {

/// The port along each generator of @p g, where it is the same at every node of @p range (the
/// star graph's by construction; other families' where their port order is the generators'), so
/// that a send names its port rather than having the engine search the sender's ports for the
/// neighbour (what send_to() does) once per message. Empty where some node's port differs.
std::vector<topology::Port> generator_ports(const CayleyGroup& g, const topology::Topology& t, const RightTables& right,
                                            emulator::NodeRange range) {
  std::vector<topology::Port> ports;
  if (dynamic_cast<const StarGraph*>(&t) != nullptr) {
    for (int k = g.first(); k <= g.last(); ++k) ports.push_back(StarGraph::port_of(k));
    return ports;
  }
  if (range.size() == 0) return ports;
  const auto first = static_cast<std::uint32_t>(range.begin);
  for (int k = g.first(); k <= g.last(); ++k) ports.push_back(t.find_port(first, right.to(k, first)));
  for (auto v = first; v < range.end; ++v) {
    throw_if_stopped_every(v);
    for (int k = g.first(); k <= g.last(); ++k) {
      const auto port = ports[static_cast<std::size_t>(k - g.first())];
      if (port == topology::Topology::NO_PORT || t.neighbor(v, port) != right.to(k, v)) return {};
    }
  }
  return ports;
}

/// exchange_program(): one object per partition (the file comment of the header).
class ExchangeProgram final : public emulator::NodeProgram {
 public:
  ExchangeProgram(const CayleyGroup& g, const ExchangePlan& p, const topology::Topology& t, emulator::NodeRange range)
      : g_(g),
        p_(p),
        right_(g),
        ports_(generator_ports(g, t, right_, range)),
        range_(range),
        exact_(std::all_of(p.packets.begin(), p.packets.end(), [](std::uint64_t c) { return c == 1; })),
        carried_(range.size(), 0),
        received_(range.size(), 0) {
    const auto n = static_cast<std::uint32_t>(g.order());
    offset_.assign(p.steps(), 0);
    starts_.assign(p.steps(), 0);
    ends_.assign(p.steps(), 0);
    for (std::uint32_t h = 1; h < n; ++h) {
      const auto route = p.route(h);
      for (const auto step : route) offset_[step] = h;
      ++starts_[route.front()];
      ++ends_[route.back()];
    }
    if (exact_) {
      // Each offset's word, last generator first, to name the origin of what arrives: v·h⁻¹.
      const auto geo = geodesics(g, right_);
      undo_begin_.assign(n + 1, 0);
      for (std::uint32_t h = 0; h < n; ++h) {
        const auto w = geo.word(h);
        undo_.insert(undo_.end(), w.rbegin(), w.rend());
        undo_begin_[h + 1] = undo_.size();
      }
    }
  }

  [[nodiscard]] bool sends_only() const override { return true; }
  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  void react(emulator::Context& ctx) override {
    const auto v = static_cast<std::uint32_t>(ctx.node());
    const auto i = static_cast<std::uint32_t>(v - range_.begin);
    const std::uint64_t step = ctx.step();
    for (const auto& m : ctx.received()) arrived(v, i, step - 1, m);
    if (step >= p_.steps()) return;
    const int k = p_.generators[step];
    std::uint64_t word = step;
    if (exact_) word = starts_[step] > 0 ? v : carried_[i];
    const Rational size(static_cast<std::int64_t>(p_.packets[step]));
    if (!ports_.empty()) {
      ctx.send(ports_[static_cast<std::size_t>(k - g_.first())], emulator::word_payload(word), size, step);
    } else {
      ctx.send_to(right_.to(k, v), emulator::word_payload(word), size, step);
    }
  }

  [[nodiscard]] std::string report() const override {
    ExchangeReport r;
    r.nodes = range_.size();
    r.wrong = wrong_;
    const auto due = g_.order() - 1;
    for (const auto x : received_) r.complete += x == due ? 1 : 0;
    return r.serialize();
  }

 private:
  void arrived(std::uint32_t v, std::uint32_t i, std::uint64_t sent, const emulator::Delivery& m) {
    const auto word = emulator::payload_word(m.payload);
    const bool right_sender = sent < p_.steps() && m.from == right_.from(p_.generators[sent], v);
    if (!right_sender || (!exact_ && word != sent)) {
      ++wrong_;
      return;
    }
    if (!exact_) {
      received_[i] += ends_[sent];
    } else if (ends_[sent] == 0) {
      carried_[i] = static_cast<std::uint32_t>(word);
    } else if (word == origin(v, offset_[sent])) {
      ++received_[i];
    } else {
      ++wrong_;
    }
  }

  /// v·h⁻¹: where the packet of offset h that ends at v started. With h = g_1⋯g_m, v·h⁻¹ is v
  /// times g_m⁻¹, …, g_1⁻¹ in turn: m lookups in the right tables, once per packet received,
  /// where a product (CayleyGroup::times) unranks and ranks permutations or divides per digit.
  [[nodiscard]] std::uint32_t origin(std::uint32_t v, std::uint32_t h) const {
    for (auto i = undo_begin_[h]; i < undo_begin_[h + 1]; ++i) v = right_.from(undo_[i], v);
    return v;
  }

  const CayleyGroup& g_;
  const ExchangePlan& p_;
  RightTables right_;
  std::vector<topology::Port> ports_;  // each generator's port, where one port serves every node
  emulator::NodeRange range_;
  bool exact_;
  std::vector<std::uint32_t> offset_;  // exact plans: the offset moving at each step
  std::vector<std::uint32_t> starts_;  // routes starting at each step
  std::vector<std::uint32_t> ends_;    // routes ending at each step
  std::vector<int> undo_;                   // exact plans: each offset's word, reversed, one after another
  std::vector<std::uint64_t> undo_begin_;   // offset h's word is undo_[undo_begin_[h] .. undo_begin_[h + 1])
  std::vector<std::uint32_t> carried_;
  std::vector<std::uint64_t> received_;
  std::uint64_t wrong_ = 0;
};

}  // namespace

std::unique_ptr<emulator::NodeProgram> exchange_program(const CayleyGroup& g, const ExchangePlan& plan,
                                                        const topology::Topology& topology, emulator::NodeRange range) {
  return std::make_unique<ExchangeProgram>(g, plan, topology, range);
}

ExchangeCheck check_exchange(const CayleyGroup& g, const ExchangePlan& plan) {
  const auto t = topology::make_topology(g.spec());
  ExchangeCheck c;
  c.as_schedule = g.order() <= optimal::MAX_UNIFORM_SCHEDULE_NODES;
  if (c.as_schedule) {
    const auto s = exchange_schedule(g, plan);
    const auto r = sch::run_schedule(s, *t, {});
    c.steps = static_cast<std::uint64_t>(r.run.makespan.num());
    c.messages = r.run.counters.messages;
    c.verified = r.verified && c.steps == plan.steps();
    if (!r.verified) {
      c.problem = r.report.first_problem();
    } else if (!c.verified) {
      c.problem = fmt::format("every packet delivered, but in {} steps where the plan has {}", c.steps, plan.steps());
    }
    return c;
  }
  const emulator::ProgramFactory programs = [&](emulator::NodeRange range) {
    return exchange_program(g, plan, *t, range);
  };
  const auto run = emulator::LocalEngine<Rational>().run(*t, emulator::UnitCosts<Rational>(), programs, {});
  ExchangeReport total;
  for (const auto& text : run.reports) total.merge(ExchangeReport::parse(text));
  c.steps = static_cast<std::uint64_t>(run.makespan.num());
  c.messages = run.counters.messages;
  c.verified = total.complete == g.order() && total.wrong == 0 && c.steps == plan.steps();
  if (!c.verified) {
    c.problem = fmt::format("{} of {} nodes received their N − 1 packets, {} wrong deliveries, {} steps of {}",
                            total.complete, g.order(), total.wrong, c.steps, plan.steps());
  }
  return c;
}

}  // namespace starnet::algorithms::collectives
