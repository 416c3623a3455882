#include <starnet/algorithms/steady_state/schedule_program.hpp>
#include <starnet/emulator/costs.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <unordered_map>
#include <utility>

namespace starnet::algorithms::steady_state {

using emulator::Completion;
using emulator::Context;
using emulator::NodeId;
using emulator::NodeRange;
using emulator::Port;

namespace {

std::uint64_t splitmix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t contribution(std::uint64_t op, std::int64_t i) {
  return splitmix(splitmix(op) ^ static_cast<std::uint64_t>(i));
}

/// Stands for a message that was not there: its interval is adjacent to nothing.
IntervalValue missing(std::uint64_t op) { return {op, -2, -2, 0}; }

/// ⌈hi⌉ − ⌊lo⌋: the instances a transfer of the range [lo, hi) touches.
mpz_class instances(const mpq_class& lo, const mpq_class& hi) {
  mpz_class first;
  mpz_class end;
  mpz_fdiv_q(first.get_mpz_t(), lo.get_num_mpz_t(), lo.get_den_mpz_t());
  mpz_cdiv_q(end.get_mpz_t(), hi.get_num_mpz_t(), hi.get_den_mpz_t());
  return end - first;
}

/// A count the emulation keeps in 64 bits (operations, periods, repetitions).
std::int64_t to_int64(const mpz_class& z, std::string_view what) {
  if (!z.fits_slong_p()) {
    throw ScheduleError(fmt::format("{} = {} is beyond the 64-bit counts an emulation keeps", what, z.get_str()));
  }
  return z.get_si();
}

}  // namespace

IntervalValue expected_value(std::uint64_t op, std::int32_t first, std::int32_t last) {
  IntervalValue v{op, first, last, 0};
  for (std::int64_t i = first; i <= last; ++i) v.sum += contribution(op, i);
  return v;
}

std::optional<IntervalValue> combine(const IntervalValue& left, const IntervalValue& right) {
  if (left.op != right.op || static_cast<std::int64_t>(left.last) + 1 != right.first || left.first < 0) {
    return std::nullopt;
  }
  return IntervalValue{left.op, left.first, right.last, left.sum + right.sum};
}

std::string ScheduleEmulation::failure() const {
  if (report.failures > 0) return fmt::format("{} failure(s); first: {}", report.failures, report.first_failure);
  if (report.left_over > 0) {
    return fmt::format("{} message(s) still held by the nodes after the clean-up", report.left_over);
  }
  if (report.completed != plan.completed) {
    return fmt::format("the nodes completed {} operations, the schedule promises {}", report.completed.get_str(),
                       plan.completed.get_str());
  }
  return {};
}

/// The schedule as the nodes see it, in the emulator's units.
struct ScheduleEmulator::Script {
  struct Send {
    int task = 0;
    int type = 0;
    Port port = 0;
    int first_period = 0;
    Rational lo;    ///< instance range [lo, hi) of its batch
    Rational hi;
    Rational size;  ///< unit-size messages: (hi − lo)·size(type)
    std::uint64_t op_offset = 0;
  };
  struct Compute {
    int task = 0;
    int first_period = 0;
    Rational work;  ///< count·work(k,l,m), so that it takes count·time(task) at the node's speed
    std::uint64_t count = 0;
    std::uint64_t op_offset = 0;
  };
  /// What a node starts at one offset of every period.
  struct Action {
    Rational offset;
    std::vector<int> sends;     ///< one matching's transfers on the node's link, in order
    std::vector<int> computes;  ///< at offset 0
  };

  const SteadyStateProblem* problem = nullptr;
  Rational period;
  std::uint64_t operations = 0;  ///< per period and sink
  mpz_class work_per_period;     ///< message instances, transfers and computations
  /// The operation counts and offsets fit 64 bits. A period of LP-sized counts (decimal costs
  /// give periods of 10^44 s) need not: it is emulated only when the horizon spans none of it.
  bool counts_fit = true;
  std::vector<std::pair<std::int32_t, std::int32_t>> interval;  ///< per type: what its values cover
  std::vector<Send> sends;
  std::vector<Compute> computes;
  std::vector<std::vector<Action>> agenda;  ///< per node, by offset
};

namespace {

using Script = ScheduleEmulator::Script;

class ScheduleProgram final : public emulator::NodeProgram {
 public:
  /// Runs periods 0 … periods−1, each item in @p repetitions periods from its start period.
  ScheduleProgram(const Script& script, std::int64_t repetitions, std::int64_t periods, NodeRange range)
      : s_(script),
        problem_(*script.problem),
        repetitions_(repetitions),
        periods_(periods),
        range_(range),
        nodes_(range.size()),
        sink_ops_(problem_.sinks().size()) {}

  void react(Context& ctx) override {
    Node& n = nodes_[ctx.node() - range_.begin];
    if (ctx.starting()) arm(ctx, n, 0, 0);
    for (const auto& d : ctx.received()) receive(ctx.node(), n, d.payload);
    for (const auto& c : ctx.completed()) {
      if (c.kind == Completion::Kind::SEND) {
        STARNET_ASSERT(n.next < n.queue.size() && n.queue[n.next].first == static_cast<int>(c.tag));
        if (++n.next < n.queue.size()) start_send(ctx, n, n.queue[n.next]);
      } else if (c.kind == Completion::Kind::COMPUTE) {
        finish_compute(ctx.node(), n);
      }
    }
    // After the deliveries: what arrived at a period's end is used from that time on.
    for (const auto& c : ctx.completed()) {
      if (c.kind == Completion::Kind::TIMER) fire(ctx, n);
    }
  }

  /// Adds this partition's counts to @p report and @p sink_ops.
  void collect(ScheduleRunReport& report, std::vector<std::vector<std::uint64_t>>& sink_ops) const {
    report.delivered += delivered_;
    report.verified += verified_;
    if (report.failures == 0 && failures_ > 0) report.first_failure = first_failure_;
    report.failures += failures_;
    for (const auto& n : nodes_) {
      report.left_over += n.held.size();
      for (const auto& r : n.running) report.left_over += r.results.size();
    }
    for (std::size_t k = 0; k < sink_ops_.size(); ++k) {
      sink_ops[k].insert(sink_ops[k].end(), sink_ops_[k].begin(), sink_ops_[k].end());
    }
  }

 private:
  struct Held {
    IntervalValue value;
    Rational received;  ///< fraction of the message received so far
  };
  struct Running {
    int item = 0;
    std::vector<IntervalValue> results;
  };
  struct Node {
    std::int64_t period = 0;  ///< the action the pending timer is for
    std::size_t action = 0;
    Rational timer_at;
    std::vector<std::pair<int, std::int64_t>> queue;  ///< (send, batch) of the current matching
    std::size_t next = 0;
    std::unordered_map<std::uint64_t, Held> held;  ///< by key(type, op)
    std::deque<Running> running;                   ///< computations in progress, in order
  };

  [[nodiscard]] bool active(int first_period, std::int64_t q) const {
    return q >= first_period && q < first_period + repetitions_;
  }
  [[nodiscard]] bool active(const Script::Action& a, std::int64_t q) const {
    return std::any_of(a.sends.begin(), a.sends.end(),
                       [&](int t) { return active(s_.sends[static_cast<std::size_t>(t)].first_period, q); }) ||
           std::any_of(a.computes.begin(), a.computes.end(),
                       [&](int c) { return active(s_.computes[static_cast<std::size_t>(c)].first_period, q); });
  }
  [[nodiscard]] std::uint64_t key(int type, std::uint64_t op) const {
    return op * s_.interval.size() + static_cast<std::uint64_t>(type);
  }
  [[nodiscard]] std::uint64_t op_of(std::int64_t batch, std::uint64_t offset, std::int64_t j) const {
    return static_cast<std::uint64_t>(batch) * s_.operations + offset + static_cast<std::uint64_t>(j);
  }
  [[nodiscard]] IntervalValue leaf_value(int type, std::uint64_t op) const {
    const auto [first, last] = s_.interval[static_cast<std::size_t>(type)];
    return expected_value(op, first, last);
  }

  template <class Describe>
  void fail(Describe describe) {
    if (failures_++ == 0) first_failure_ = describe();
  }

  /// Sets the timer for the first action at or after (q, i) that has something to do.
  void arm(Context& ctx, Node& n, std::int64_t q, std::size_t i) {
    const auto& agenda = s_.agenda[ctx.node()];
    for (; q < periods_; ++q, i = 0) {
      for (; i < agenda.size(); ++i) {
        if (!active(agenda[i], q)) continue;
        const Rational at = s_.period * Rational(q) + agenda[i].offset;
        ctx.sleep(at - n.timer_at);
        n.timer_at = at;
        n.period = q;
        n.action = i;
        return;
      }
    }
  }

  void fire(Context& ctx, Node& n) {
    const std::int64_t q = n.period;
    const auto& a = s_.agenda[ctx.node()][n.action];
    std::vector<std::pair<int, std::int64_t>> queue;
    for (const int t : a.sends) {
      const auto& send = s_.sends[static_cast<std::size_t>(t)];
      if (active(send.first_period, q)) queue.emplace_back(t, q - send.first_period);
    }
    if (!queue.empty()) {
      // A send of the previous matching still in flight makes this one a ModelViolation (strict).
      n.queue = std::move(queue);
      n.next = 0;
      start_send(ctx, n, n.queue.front());
    }
    for (const int c : a.computes) {
      const auto& comp = s_.computes[static_cast<std::size_t>(c)];
      if (active(comp.first_period, q)) start_compute(ctx, n, c, q - comp.first_period, q);
    }
    arm(ctx, n, q, n.action + 1);
  }

  /// Takes input @p type of operation @p op held whole on the node (or a leaf's value).
  IntervalValue take(NodeId v, Node& n, int type, std::uint64_t op, bool erase, int task, std::int64_t batch) {
    if (problem_.is_leaf({type, v})) return leaf_value(type, op);
    const auto it = n.held.find(key(type, op));
    if (it == n.held.end() || it->second.received != 1) {
      fail([&] {
        return fmt::format("{} lacks {} of operation {} for {} (batch {})", problem_.node_name(v),
                           s_.problem->types()[static_cast<std::size_t>(type)].label, op, problem_.task_label(task),
                           batch);
      });
      return missing(op);
    }
    const IntervalValue value = it->second.value;
    if (erase) n.held.erase(it);
    return value;
  }

  void start_send(Context& ctx, Node& n, std::pair<int, std::int64_t> what) {
    const auto& t = s_.sends[static_cast<std::size_t>(what.first)];
    const std::int64_t first = t.lo.floor();
    const std::int64_t end = t.hi.ceil();
    std::string payload;
    payload.reserve(HEADER + static_cast<std::size_t>(end - first) * VALUE);
    put(payload, static_cast<std::int32_t>(t.type));
    put_rational(payload, t.lo);
    put_rational(payload, t.hi);
    for (std::int64_t j = first; j < end; ++j) {
      // The piece that reaches the end of instance j is its last: the sender no longer needs it.
      const bool last_piece = t.hi >= Rational(j + 1);
      const IntervalValue v =
          take(ctx.node(), n, t.type, op_of(what.second, t.op_offset, j), last_piece, t.task, what.second);
      put(payload, v.op);
      put(payload, v.first);
      put(payload, v.last);
      put(payload, v.sum);
    }
    ctx.send(t.port, std::move(payload), t.size, static_cast<std::uint64_t>(what.first));
  }

  void receive(NodeId v, Node& n, const std::string& payload) {
    std::size_t at = 0;
    const auto type = get<std::int32_t>(payload, at);
    const Rational lo = get_rational(payload, at);
    const Rational hi = get_rational(payload, at);
    const int sink = problem_.sink_index({type, v});
    for (std::int64_t j = lo.floor(); at < payload.size(); ++j) {
      IntervalValue value;
      value.op = get<std::uint64_t>(payload, at);
      value.first = get<std::int32_t>(payload, at);
      value.last = get<std::int32_t>(payload, at);
      value.sum = get<std::uint64_t>(payload, at);
      const Rational piece = std::min(hi, Rational(j + 1)) - std::max(lo, Rational(j));
      const auto k = key(type, value.op);
      auto [it, fresh] = n.held.try_emplace(k, Held{value, 0});
      Held& h = it->second;
      if (!fresh && h.value != value) {
        fail([&] {
          return fmt::format("{} receives two pieces of {} of operation {} that disagree", problem_.node_name(v),
                             s_.problem->types()[static_cast<std::size_t>(type)].label, value.op);
        });
      }
      h.received += piece;
      if (h.received > 1) {
        fail([&] {
          return fmt::format("{} receives more than one {} of operation {}", problem_.node_name(v),
                             s_.problem->types()[static_cast<std::size_t>(type)].label, value.op);
        });
      }
      if (h.received == 1 && sink >= 0) {
        deliver(v, sink, type, h.value);
        n.held.erase(it);
      }
    }
  }

  void start_compute(Context& ctx, Node& n, int item, std::int64_t batch, std::int64_t q) {
    const auto& c = s_.computes[static_cast<std::size_t>(item)];
    const Task& task = problem_.tasks()[static_cast<std::size_t>(c.task)];
    // Named copies, not a structured binding: the message lambda below captures them, which
    // clang 14 refuses for a binding.
    const std::int32_t first = s_.interval[static_cast<std::size_t>(task.type)].first;
    const std::int32_t last = s_.interval[static_cast<std::size_t>(task.type)].second;
    Running r{item, {}};
    r.results.reserve(c.count);
    for (std::uint64_t j = 0; j < c.count; ++j) {
      const std::uint64_t op = op_of(batch, c.op_offset, static_cast<std::int64_t>(j));
      const IntervalValue left = take(ctx.node(), n, task.left, op, true, c.task, batch);
      const IntervalValue right = take(ctx.node(), n, task.right, op, true, c.task, batch);
      const auto v = combine(left, right);
      if (!v || v->first != first || v->last != last) {
        fail([&] {
          return fmt::format("{} in period {} combines [{},{}] and [{},{}] of operation {} (not v[{},{}])",
                             problem_.task_label(c.task), q, left.first, left.last, right.first, right.last, op, first,
                             last);
        });
      }
      r.results.push_back(v ? *v : missing(op));
    }
    n.running.push_back(std::move(r));
    ctx.compute(c.work, static_cast<std::uint64_t>(item));
  }

  void finish_compute(NodeId v, Node& n) {
    STARNET_ASSERT(!n.running.empty());
    const Running r = std::move(n.running.front());
    n.running.pop_front();
    const int type = problem_.tasks()[static_cast<std::size_t>(s_.computes[static_cast<std::size_t>(r.item)].task)].type;
    const int sink = problem_.sink_index({type, v});
    for (const auto& value : r.results) {
      if (sink >= 0) {
        deliver(v, sink, type, value);
      } else if (!n.held.try_emplace(key(type, value.op), Held{value, 1}).second) {
        fail([&] {
          return fmt::format("{} computes {} of operation {} twice", problem_.node_name(v),
                             s_.problem->types()[static_cast<std::size_t>(type)].label, value.op);
        });
      }
    }
  }

  void deliver(NodeId v, int sink, int type, const IntervalValue& value) {
    ++delivered_;
    if (value == leaf_value(type, value.op)) {
      ++verified_;
      sink_ops_[static_cast<std::size_t>(sink)].push_back(value.op);
      return;
    }
    fail([&] {
      return fmt::format("{} receives {} of operation {} as [{},{}] with a wrong value", problem_.node_name(v),
                         s_.problem->types()[static_cast<std::size_t>(type)].label, value.op, value.first,
                         value.last);
    });
  }

  static constexpr std::size_t HEADER = 4 + 4 * 8;
  static constexpr std::size_t VALUE = 8 + 4 + 4 + 8;

  template <class T>
  static void put(std::string& out, T x) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &x, sizeof(T));
    out.append(bytes, sizeof(T));
  }
  template <class T>
  static T get(const std::string& in, std::size_t& at) {
    STARNET_ASSERT(at + sizeof(T) <= in.size());
    T x;
    std::memcpy(&x, in.data() + at, sizeof(T));
    at += sizeof(T);
    return x;
  }
  /// num and den; a value beyond 64 bits as den 0 (no small value has it), then its text.
  static void put_rational(std::string& out, const Rational& r) {
    if (r.is_small()) {
      put(out, r.num());
      put(out, r.den());
      return;
    }
    const std::string text = r.to_string();
    put(out, std::int64_t{0});
    put(out, std::int64_t{0});
    put(out, static_cast<std::uint64_t>(text.size()));
    out += text;
  }
  static Rational get_rational(const std::string& in, std::size_t& at) {
    const auto num = get<std::int64_t>(in, at);
    const auto den = get<std::int64_t>(in, at);
    if (den != 0) return {num, den};
    const auto length = static_cast<std::size_t>(get<std::uint64_t>(in, at));
    STARNET_ASSERT(at + length <= in.size());
    at += length;
    return Rational::parse(std::string_view(in).substr(at - length, length), "instance range");
  }

  const Script& s_;
  const SteadyStateProblem& problem_;
  std::int64_t repetitions_;
  std::int64_t periods_;
  NodeRange range_;
  std::vector<Node> nodes_;
  std::vector<std::vector<std::uint64_t>> sink_ops_;  ///< operations verified at each sink
  std::uint64_t delivered_ = 0;
  std::uint64_t verified_ = 0;
  std::uint64_t failures_ = 0;
  std::string first_failure_;
};

/// Operations that every sink received.
mpz_class count_completed(std::vector<std::vector<std::uint64_t>>& sink_ops, ScheduleRunReport& report) {
  std::unordered_map<std::uint64_t, std::size_t> sinks_per_op;
  for (auto& ops : sink_ops) {
    std::sort(ops.begin(), ops.end());
    if (const auto dup = std::adjacent_find(ops.begin(), ops.end()); dup != ops.end()) {
      if (report.failures++ == 0) report.first_failure = fmt::format("operation {} is delivered twice to a sink", *dup);
    }
    for (const auto op : ops) ++sinks_per_op[op];
  }
  std::uint64_t complete = 0;
  for (const auto& [op, sinks] : sinks_per_op) complete += sinks == sink_ops.size();
  return mpz_class(static_cast<unsigned long>(complete));
}

}  // namespace

ScheduleEmulator::ScheduleEmulator(const SteadyStateProblem& problem, const PeriodicSchedule& schedule)
    : problem_(problem),
      schedule_(schedule),
      topology_(std::shared_ptr<const topology::Platform>(std::shared_ptr<const topology::Platform>(), &problem.platform())),
      script_(std::make_unique<Script>()) {
  Script& s = *script_;
  s.problem = &problem;
  s.period = to_rational(schedule.period);
  const auto count = [&s](const mpz_class& z) -> std::uint64_t {
    if (z.fits_ulong_p()) return z.get_ui();
    s.counts_fit = false;
    return 0;
  };
  s.operations = count(schedule.operations_per_period);
  for (int t = 0; t < static_cast<int>(problem.types().size()); ++t) {
    const auto& type = problem.types()[static_cast<std::size_t>(t)];
    s.interval.emplace_back(type.first >= 0 ? type.first : t, type.first >= 0 ? type.last : t);
  }
  // off(T): the operations of a batch that the earlier trees of the same sink carry.
  std::vector<mpz_class> served(problem.sinks().size());
  std::vector<std::uint64_t> offset;
  for (const auto& tree : schedule.trees) {
    auto& sum = served[static_cast<std::size_t>(tree.sink)];
    offset.push_back(count(sum));
    sum += tree.weight;
  }
  for (std::size_t k = 0; k < served.size(); ++k) {
    if (served[k] != schedule.operations_per_period) {
      throw ScheduleError(fmt::format("sink {} is served {} operations per period, not operations_per_period = {}",
                                      problem.location_label(problem.sinks()[k]), served[k].get_str(),
                                      schedule.operations_per_period.get_str()));
    }
  }

  s.agenda.resize(problem.platform().num_nodes());
  // Actions are created in increasing offsets: computations at 0, then the matchings in order.
  const auto action_at = [&](Vertex v, const Rational& at) -> Script::Action& {
    auto& agenda = s.agenda[v];
    if (agenda.empty() || agenda.back().offset != at) agenda.push_back({at, {}, {}});
    return agenda.back();
  };
  for (std::size_t c = 0; c < schedule.computations.size(); ++c) {
    const auto& comp = schedule.computations[c];
    const Task& task = problem.tasks()[static_cast<std::size_t>(comp.task)];
    const mpq_class speed = to_mpq(problem.platform().graph()[comp.node].speed);
    STARNET_ASSERT(comp.amount.get_den() == 1);  // w(T) tasks
    s.computes.push_back({comp.task, comp.start_period, to_rational(comp.amount * task.time * speed),
                          count(comp.amount.get_num()), offset[static_cast<std::size_t>(comp.tree)]});
    s.work_per_period += comp.amount.get_num() + 1;
    action_at(comp.node, 0).computes.push_back(static_cast<int>(c));
  }
  std::map<std::pair<int, int>, mpq_class> sent;  // (tree, task) -> instances covered so far in a period
  mpq_class start = 0;
  for (const auto& m : schedule.matchings) {
    const Rational offset_here = to_rational(start);
    for (const auto& tr : m.transfers) {
      auto& lo = sent[{tr.tree, tr.task}];
      const mpq_class hi = lo + tr.amount;
      const auto port = topology_.port_to(tr.from, tr.to);
      STARNET_ASSERT(port.has_value());
      s.sends.push_back({tr.task, tr.type, *port, tr.start_period, to_rational(lo),
                         to_rational(hi),
                         to_rational(tr.amount * problem.types()[static_cast<std::size_t>(tr.type)].size),
                         offset[static_cast<std::size_t>(tr.tree)]});
      s.work_per_period += instances(lo, hi) + 1;
      action_at(tr.from, offset_here).sends.push_back(static_cast<int>(s.sends.size() - 1));
      lo = hi;
    }
    start += m.duration;
  }
}

ScheduleEmulator::~ScheduleEmulator() = default;

ScheduleEmulator& ScheduleEmulator::optimal_throughput(mpq_class throughput) {
  throughput_ = std::move(throughput);
  return *this;
}

ScheduleEmulator& ScheduleEmulator::trace(bool on) {
  trace_ = on;
  return *this;
}

const ScheduleEmulation& ScheduleEmulator::run(const mpq_class& horizon) {
  ScheduleEmulation e;
  e.plan = plan_phases(schedule_, throughput_.value_or(schedule_.throughput()), horizon);
  const mpz_class periods = e.plan.repetitions > 0 ? e.plan.whole_periods : mpz_class(0);
  if (periods * script_->work_per_period > MAX_EMULATION_WORK) {
    throw ScheduleError(fmt::format("horizon K = {} spans {} periods of {} messages and tasks each, more than the "
                                    "{} an emulation may take: choose a shorter horizon",
                                    horizon.get_str(), periods.get_str(), script_->work_per_period.get_str(),
                                    MAX_EMULATION_WORK));
  }
  if (periods > 0 && !script_->counts_fit) {  // a period's work bounds its counts: never expected
    throw ScheduleError(fmt::format("horizon K = {} spans {} periods of {} operations each, beyond the 64-bit "
                                    "operation numbers an emulation keeps",
                                    horizon.get_str(), periods.get_str(), schedule_.operations_per_period.get_str()));
  }
  const mpz_class r = e.plan.whole_periods - 2 * e.plan.startup_periods - 1;
  e.guaranteed = r > 0 ? mpz_class(r * schedule_.operations_per_period) : mpz_class(0);

  const auto repetitions = to_int64(e.plan.repetitions, "repetitions");
  const auto run_periods = to_int64(periods, "periods");
  emulator::RunConfig config;
  config.checking = emulator::Checking::STRICT;
  config.time = emulator::TimeMode::TIMED;
  config.trace = trace_;
  config.horizon = to_rational(horizon);
  const emulator::TopologyCosts<Rational> costs(topology_);
  e.run = emulator::LocalEngine<Rational>().run(
      topology_, costs,
      [&](NodeRange range) { return std::make_unique<ScheduleProgram>(*script_, repetitions, run_periods, range); }, config);

  std::vector<std::vector<std::uint64_t>> sink_ops(problem_.sinks().size());
  for (const auto& program : e.run.programs) {
    const auto* p = dynamic_cast<const ScheduleProgram*>(program.get());
    STARNET_ASSERT(p != nullptr);
    p->collect(e.report, sink_ops);
  }
  e.report.completed = count_completed(sink_ops, e.report);
  e.ratio = e.plan.bound > 0 ? mpq_class(mpq_class(e.report.completed) / e.plan.bound) : mpq_class(0);
  result_ = std::move(e);
  return result_;
}

}  // namespace starnet::algorithms::steady_state
