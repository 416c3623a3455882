#include <starnet/algorithms/trees/plan_program.hpp>
#include <starnet/emulator/payload.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <cstring>

namespace starnet::algorithms::trees {

using emulator::Completion;
using emulator::Context;
using emulator::NodeId;
using emulator::NodeRange;

std::string Operator::sequential(std::uint64_t n) const {
  std::string acc = initial(0);
  for (std::uint64_t i = 1; i < n; ++i) acc = combine(acc, initial(i));
  return acc;
}

namespace {

class Sum final : public Operator {
 public:
  [[nodiscard]] std::string name() const override { return "sum"; }
  [[nodiscard]] bool commutative() const override { return true; }
  [[nodiscard]] std::string initial(std::uint64_t i) const override { return emulator::word_payload(i + 1); }
  [[nodiscard]] std::string combine(const std::string& a, const std::string& b) const override {
    return emulator::word_payload(emulator::payload_word(a) + emulator::payload_word(b));
  }
  [[nodiscard]] std::string show(const std::string& v) const override {
    return std::to_string(emulator::payload_word(v));
  }
};

class Concat final : public Operator {
 public:
  [[nodiscard]] std::string name() const override { return "concat"; }
  [[nodiscard]] bool commutative() const override { return false; }
  [[nodiscard]] std::string initial(std::uint64_t i) const override { return fmt::format("[{}]", i); }
  [[nodiscard]] std::string combine(const std::string& a, const std::string& b) const override { return a + b; }
  [[nodiscard]] std::string show(const std::string& v) const override { return v; }
};

class PlanProgram final : public emulator::NodeProgram {
 public:
  PlanProgram(const ReductionPlan& plan, const Operator& op, Timing timing, NodeRange range)
      : plan_(plan), op_(op), timing_(timing), range_(range), state_(range.size()) {
    if (range.end > static_cast<NodeId>(plan.n())) {
      throw ScheduleError(fmt::format("plan on {} machines run on {} nodes", plan.n(), range.end));
    }
    for (const auto& t : plan.transfers) {
      if (range.contains(static_cast<NodeId>(t.from))) state_[t.from - range.begin].start = t.start;
    }
  }

  void react(Context& ctx) override {
    const NodeId v = ctx.node();
    Machine& m = state_[v - range_.begin];
    const auto& children = plan_.children[v];
    if (ctx.starting()) {
      m.value = op_.initial(v);
      if (timing_ == Timing::AT_PLANNED_TIMES) {
        for (const int child : children) ctx.accept(static_cast<NodeId>(child));
        if (plan_.parent[v] >= 0) ctx.sleep(m.start);
      } else if (!children.empty()) {
        ctx.accept(static_cast<NodeId>(children.front()));
      }
    }
    for (const auto& d : ctx.received()) {
      m.value = op_.combine(m.value, d.payload);
      ctx.compute(1);
      // The next reception may overlap this reduction (Fibonacci-stat relies on it), but
      // receptions stay in plan order: a later child's zero-time transfer must not overtake.
      if (timing_ == Timing::AS_SOON_AS_READY && ++m.arrived < children.size()) {
        ctx.accept(static_cast<NodeId>(children[m.arrived]));
      }
    }
    for (const auto& c : ctx.completed()) {
      if (c.kind == Completion::Kind::COMPUTE) ++m.reduced;
      if (c.kind == Completion::Kind::TIMER) {
        m.due = true;
        m.due_step = ctx.step();
      }
    }
    const bool complete = m.reduced == children.size();
    const bool may_send = timing_ == Timing::AS_SOON_AS_READY || m.due;
    if (complete && may_send && !m.sent && plan_.parent[v] >= 0) {
      // Completing in a later round of the planned time (zero-cost reductions) is on time.
      if (timing_ == Timing::AT_PLANNED_TIMES && ctx.step() != m.due_step) ++late_;
      m.sent = true;
      // A machine's value is never read again once sent (report() reads the root's only).
      ctx.send_to(static_cast<NodeId>(plan_.parent[v]), std::move(m.value));
    }
  }

  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  [[nodiscard]] std::string report() const override {
    const auto root = static_cast<NodeId>(plan_.root);
    const bool mine = range_.contains(root);
    const bool done = mine && state_[root - range_.begin].reduced == plan_.children[root].size();
    // late, root flag, then the root's value (which may hold any byte) to the end.
    return fmt::format("{} {} ", late_, done ? 1 : (mine ? 0 : 2)) + (mine ? state_[root - range_.begin].value : "");
  }

 private:
  struct Machine {
    std::string value;
    Rational start = 0;
    std::size_t arrived = 0;
    std::size_t reduced = 0;
    bool due = false;
    std::uint64_t due_step = 0;
    bool sent = false;
  };
  const ReductionPlan& plan_;
  const Operator& op_;
  Timing timing_;
  NodeRange range_;
  std::vector<Machine> state_;
  std::uint64_t late_ = 0;
};

}  // namespace

std::unique_ptr<Operator> make_operator(std::string_view name, std::string_view what) {
  if (name == "sum") return std::make_unique<Sum>();
  if (name == "concat") return std::make_unique<Concat>();
  throw UsageError(Setting{std::string(what), std::string(name)}, "not an operator (expected sum or concat)");
}

std::unique_ptr<emulator::NodeProgram> make_plan_program(const ReductionPlan& plan, const Operator& op, Timing timing,
                                                         NodeRange range) {
  return std::make_unique<PlanProgram>(plan, op, timing, range);
}

PlanRunReport PlanRunReport::merge(const std::vector<std::string>& reports) {
  PlanRunReport r;
  for (const auto& text : reports) {
    const auto first = text.find(' ');
    const auto second = text.find(' ', first + 1);
    if (first == std::string::npos || second == std::string::npos) throw Error("plan run report is malformed");
    r.late += std::stoull(text.substr(0, first));
    const char flag = text[first + 1];
    if (flag != '2') {
      r.root_done = flag == '1';
      r.root_value = text.substr(second + 1);
    }
  }
  return r;
}

}  // namespace starnet::algorithms::trees
