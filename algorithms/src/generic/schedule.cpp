#include <starnet/algorithms/generic/schedule.hpp>
#include <starnet/emulator/payload.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace starnet::algorithms::generic {

using emulator::Context;
using emulator::NodeRange;
using emulator::TimeMode;

namespace {

bool is_slot(Operand o) { return o == Operand::SLOT_0 || o == Operand::SLOT_1; }
std::size_t slot_index(Operand o) { return o == Operand::SLOT_0 ? 0 : 1; }

std::string describe(const Transfer& t) { return fmt::format("transfer {} -> {} at step {}", t.from, t.to, t.step); }

}  // namespace

Schedule::Schedule(NodeId nodes, std::vector<Transfer> transfers,
                   std::vector<std::tuple<std::uint32_t, NodeId, Operand>> saves, std::vector<bool> relays)
    : transfers_(std::move(transfers)), relays_(std::move(relays)) {
  if (!relays_.empty() && relays_.size() != nodes) {
    throw ScheduleError(fmt::format("schedule: {} relay flags for {} nodes", relays_.size(), nodes));
  }
  for (const auto& t : transfers_) {
    if (t.from >= nodes || t.to >= nodes) {
      throw ScheduleError(fmt::format("schedule: {} names a node outside 0..{}", describe(t), nodes - 1));
    }
    if (t.from == t.to) throw ScheduleError(fmt::format("schedule: {} is a self-loop", describe(t)));
    // A relay sends and keeps only RELAY; any other node never does.
    const bool relayed = relay(t.from) || relay(t.to);
    const bool sends_ok =
        relay(t.from) ? t.source == Operand::RELAY : t.source != Operand::NONE && t.source != Operand::RELAY;
    const bool keeps_ok = relay(t.to) ? t.keep == Operand::RELAY : t.keep == Operand::NONE || is_slot(t.keep);
    if (!sends_ok || !keeps_ok || (relayed && t.message == NO_MESSAGE)) {
      throw ScheduleError(fmt::format("schedule: {} sends or keeps nothing usable{}", describe(t),
                                      relayed ? " (a relay sends and keeps whole messages only)" : ""));
    }
  }
  for (const auto& [step, v, slot] : saves) {
    if (v >= nodes || !is_slot(slot)) {
      throw ScheduleError(
          fmt::format("schedule: save at step {} on node {} is not a slot of a node in 0..{}", step, v, nodes - 1));
    }
    if (relay(v)) {
      throw ScheduleError(fmt::format("schedule: save at step {} on node {}, a relay (it holds no value)", step, v));
    }
  }
  std::sort(transfers_.begin(), transfers_.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.step, a.from, a.to) < std::tie(b.step, b.from, b.to);
  });
  for (std::size_t i = 1; i < transfers_.size(); ++i) {
    const auto& a = transfers_[i - 1];
    const auto& b = transfers_[i];
    if (a.step == b.step && a.from == b.from && a.to == b.to) {
      throw ScheduleError(fmt::format("schedule: {} is planned twice", describe(b)));
    }
  }
  steps_ = transfers_.empty() ? 0 : transfers_.back().step + 1;

  // Compressed rows: count, place in insertion order, then order each node's actions.
  offsets_.assign(nodes + 1, 0);
  for (const auto& t : transfers_) ++offsets_[t.from + 1], ++offsets_[t.to + 1];
  for (const auto& s : saves) ++offsets_[std::get<1>(s) + 1];
  for (NodeId v = 0; v < nodes; ++v) offsets_[v + 1] += offsets_[v];
  actions_.resize(offsets_[nodes]);
  std::vector<std::uint64_t> next(offsets_.begin(), offsets_.end() - 1);
  for (const auto& [step, v, slot] : saves) actions_[next[v]++] = {step, Action::Kind::SAVE, slot, Merge::COMBINE, v};
  for (const auto& t : transfers_) {
    actions_[next[t.from]++] = {t.step, Action::Kind::SEND, t.source, t.merge, t.to, t.message};
    actions_[next[t.to]++] = {t.step, Action::Kind::RECEIVE, t.keep, t.merge, t.from, t.message};
  }
  for (NodeId v = 0; v < nodes; ++v) {
    std::stable_sort(
        actions_.begin() + static_cast<std::ptrdiff_t>(offsets_[v]),
        actions_.begin() + static_cast<std::ptrdiff_t>(offsets_[v + 1]),
        [](const Action& a, const Action& b) { return std::tie(a.step, a.kind) < std::tie(b.step, b.kind); });
  }
  check_relays();
}

void Schedule::check_relays() const {
  if (relays_.empty()) return;
  std::unordered_map<std::uint32_t, bool> held;  // message → still to be sent on
  for (NodeId v = 0; v < nodes(); ++v) {
    if (!relay(v)) continue;
    held.clear();
    for (const Action& a : actions(v)) {
      if (a.kind == Action::Kind::RECEIVE && !held.emplace(a.message, true).second) {
        throw ScheduleError(
            fmt::format("schedule: relay {} receives message {} twice (at step {})", v, a.message, a.step));
      }
      if (a.kind != Action::Kind::SEND) continue;
      const auto it = held.find(a.message);
      if (it == held.end() || !it->second) {
        throw ScheduleError(fmt::format("schedule: relay {} sends message {} at step {}, which it {} (a relay forwards "
                                        "each message it receives once)",
                                        v, a.message, a.step, it == held.end() ? "has not received" : "sent already"));
      }
      it->second = false;
    }
    for (const auto& [message, pending] : held) {
      if (pending) throw ScheduleError(fmt::format("schedule: relay {} never sends on message {}", v, message));
    }
  }
}

Expectation expected_result(Collective c, Op op, std::span<const std::uint64_t> initial, NodeId root,
                            const std::vector<bool>& relays) {
  STARNET_ASSERT(root < initial.size() && (relays.empty() || relays.size() == initial.size()));
  if (c == Collective::BROADCAST) return {initial[root], false, root};
  std::optional<std::uint64_t> acc;
  for (std::size_t v = 0; v < initial.size(); ++v) {
    if (!relays.empty() && relays[v]) continue;
    acc = acc ? star::apply(op, *acc, initial[v]) : initial[v];
  }
  return {acc.value_or(0), c == Collective::REDUCE, root};
}

std::string ScheduleReport::serialize() const {
  return fmt::format("{} {} {} {} {}", nodes_checked, nodes_correct, first_wrong, plan_errors, first_error);
}

ScheduleReport ScheduleReport::parse(const std::string& text) {
  std::istringstream in(text);
  ScheduleReport r;
  in >> r.nodes_checked >> r.nodes_correct >> r.first_wrong >> r.plan_errors >> r.first_error;
  if (!in) throw Error("schedule report \"" + text + "\" is malformed");
  return r;
}

void ScheduleReport::merge(const ScheduleReport& other) {
  nodes_checked += other.nodes_checked;
  nodes_correct += other.nodes_correct;
  plan_errors += other.plan_errors;
  const auto first = [](std::int64_t a, std::int64_t b) { return a < 0 || (b >= 0 && b < a) ? b : a; };
  first_wrong = first(first_wrong, other.first_wrong);
  first_error = first(first_error, other.first_error);
}

namespace {

using emulator::payload_word;
using emulator::word_payload;

class ScheduleProgram final : public emulator::NodeProgram {
 public:
  ScheduleProgram(const Schedule& schedule, std::span<const std::uint64_t> initial, Op op, Expectation expectation,
                  TimeMode mode, NodeRange range)
      : schedule_(schedule),
        op_(op),
        expectation_(expectation),
        unit_(mode == TimeMode::UNIT),
        range_(range),
        state_(range.size()) {
    STARNET_ASSERT(initial.size() == schedule.nodes() && range.end <= schedule.nodes());
    for (NodeId v = range.begin; v < range.end; ++v) state_[v - range.begin].acc = initial[v];
  }

  void react(Context& ctx) override {
    const NodeId v = ctx.node();
    auto& st = state_[v - range_.begin];
    for (const auto& m : ctx.received()) early_[v].push_back({m.from, m.tag, payload_word(m.payload)});
    const auto actions = schedule_.actions(v);
    while (st.next < actions.size()) {
      const Action& a = actions[st.next];
      if (a.kind == Action::Kind::SAVE) {
        st.slot[slot_index(a.operand)] = st.acc;
      } else if (a.kind == Action::Kind::SEND) {
        if (unit_) {
          const std::uint64_t now = ctx.step();
          if (a.step > now) {
            // One step at a time: every time up to the send is then an event time, so step() is time.
            if (st.timer_for != now + 1) {
              ctx.sleep(1);
              st.timer_for = now + 1;
            }
            return;
          }
          if (a.step < now) error(v);  // the plan needed this send earlier than its data allowed
        }
        const std::uint64_t x = a.operand == Operand::RELAY ? forward(v, a.message)
                                : a.operand == Operand::ACC ? st.acc
                                                            : st.slot[slot_index(a.operand)];
        ctx.send_to(a.peer, word_payload(x), 1, a.step);
      } else if (!receive(v, st, a)) {
        return;
      }
      ++st.next;
    }
  }

  [[nodiscard]] std::string report() const override {
    ScheduleReport r = report_;
    for (NodeId v = range_.begin; v < range_.end; ++v) {
      const auto& st = state_[v - range_.begin];
      const bool left = st.next != schedule_.actions(v).size();
      const auto it = early_.find(v);
      const auto kept = relayed_.find(v);
      if (left || (it != early_.end() && !it->second.empty()) || (kept != relayed_.end() && !kept->second.empty())) {
        ++r.plan_errors;
        if (r.first_error < 0 || static_cast<std::int64_t>(v) < r.first_error)
          r.first_error = static_cast<std::int64_t>(v);
      }
      if ((expectation_.root_only && v != expectation_.root) || schedule_.relay(v)) continue;
      ++r.nodes_checked;
      if (st.acc == expectation_.value) {
        ++r.nodes_correct;
      } else if (r.first_wrong < 0) {
        r.first_wrong = static_cast<std::int64_t>(v);
      }
    }
    return r.serialize();
  }

 private:
  struct NodeState {
    std::uint32_t next = 0;  // index of the next action
    std::uint64_t acc = 0;
    std::array<std::uint64_t, 2> slot{};
    std::uint64_t timer_for = std::numeric_limits<std::uint64_t>::max();
  };
  struct Early {
    NodeId from;
    std::uint64_t tag;
    std::uint64_t x;
  };

  bool receive(NodeId v, NodeState& st, const Action& a) {
    const auto it = early_.find(v);
    if (it == early_.end()) return false;
    auto& box = it->second;
    const auto m =
        std::find_if(box.begin(), box.end(), [&](const Early& e) { return e.from == a.peer && e.tag == a.step; });
    if (m == box.end()) return false;
    if (a.operand == Operand::RELAY) {
      relayed_[v].emplace(a.message, m->x);  // kept whole, acc untouched
    } else {
      st.acc = a.merge == Merge::COMBINE ? star::apply(op_, st.acc, m->x) : m->x;
      if (a.operand != Operand::NONE && a.operand != Operand::ACC) st.slot[slot_index(a.operand)] = m->x;
    }
    box.erase(m);
    if (box.empty()) early_.erase(it);
    return true;
  }

  /// The message a relay sends on, taken from its store (the constructor saw it arrive first).
  std::uint64_t forward(NodeId v, std::uint32_t message) {
    auto& kept = relayed_[v];
    const auto it = kept.find(message);
    STARNET_ASSERT(it != kept.end());
    const std::uint64_t x = it->second;
    kept.erase(it);
    if (kept.empty()) relayed_.erase(v);
    return x;
  }

  void error(NodeId v) {
    ++report_.plan_errors;
    if (report_.first_error < 0) report_.first_error = static_cast<std::int64_t>(v);
  }

  const Schedule& schedule_;
  Op op_;
  Expectation expectation_;
  bool unit_;
  NodeRange range_;
  std::vector<NodeState> state_;
  std::unordered_map<NodeId, std::vector<Early>> early_;  // messages not yet received in plan order
  // A relay's messages received and not yet sent on, by message id.
  std::unordered_map<NodeId, std::unordered_map<std::uint32_t, std::uint64_t>> relayed_;
  ScheduleReport report_;
};

}  // namespace

std::unique_ptr<emulator::NodeProgram> make_schedule_program(const Schedule& schedule,
                                                             std::span<const std::uint64_t> initial, Op op,
                                                             Expectation expectation, TimeMode mode, NodeRange range) {
  return std::make_unique<ScheduleProgram>(schedule, initial, op, expectation, mode, range);
}

}  // namespace starnet::algorithms::generic
