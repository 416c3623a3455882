#include <starnet/algorithms/schedule/chunk_program.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace starnet::algorithms::schedule {

using emulator::Context;
using emulator::Delivery;
using emulator::NodeId;
using emulator::NodeRange;

// The report's field list, written once for both directions of the codec.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ChunkReport, nodes_checked, chunks_checked, chunks_correct, errors, error_step,
                                   error_node, error, nodes_stuck, stuck_node, stuck, wrong_node, wrong)

std::string ChunkReport::serialize() const { return nlohmann::json(*this).dump(); }

ChunkReport ChunkReport::parse(const std::string& text) {
  try {
    return nlohmann::json::parse(text).get<ChunkReport>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("schedule report is malformed ({}): {}", e.what(), text.substr(0, 200)));
  }
}

void ChunkReport::merge(const ChunkReport& o) {
  nodes_checked += o.nodes_checked;
  chunks_checked += o.chunks_checked;
  chunks_correct += o.chunks_correct;
  if (o.errors > 0 && (errors == 0 || std::tie(o.error_step, o.error_node) < std::tie(error_step, error_node))) {
    error_step = o.error_step, error_node = o.error_node, error = o.error;
  }
  errors += o.errors;
  if (o.nodes_stuck > 0 && (nodes_stuck == 0 || o.stuck_node < stuck_node)) stuck_node = o.stuck_node, stuck = o.stuck;
  nodes_stuck += o.nodes_stuck;
  if (o.wrong_node >= 0 && (wrong_node < 0 || o.wrong_node < wrong_node)) wrong_node = o.wrong_node, wrong = o.wrong;
}

std::string ChunkReport::first_problem() const {
  if (errors > 0) return error;
  if (nodes_stuck > 0) return stuck;
  if (wrong_node >= 0) return wrong;
  return {};
}

namespace {

constexpr std::uint32_t NEVER = std::numeric_limits<std::uint32_t>::max();

class ChunkProgram final : public emulator::NodeProgram {
 public:
  ChunkProgram(const Schedule& schedule, const ChunkValues& values, const ChunkRunOptions& options, NodeRange range)
      : s_(schedule),
        values_(values),
        range_(range),
        slots_(schedule.slots()),
        chunk_size_(options.chunk_size),
        wait_for_step_(options.time == emulator::TimeMode::UNIT && schedule.form() == Form::STEPPED),
        words_(range.size() * slots_),
        held_(range.size() * slots_),
        failed_(range.size()),
        timer_for_(range.size(), NEVER) {
    cursor_offsets_.reserve(range.size() + 1);
    cursor_offsets_.push_back(0);
    action_offsets_.reserve(range.size() + 1);
    action_offsets_.push_back(0);
    for (NodeId v = range.begin; v < range.end; ++v) {
      const auto u = static_cast<std::uint32_t>(v);
      cursor_offsets_.push_back(cursor_offsets_.back() + s_.threads(u));
      action_offsets_.push_back(action_offsets_.back() + s_.actions(u).size());
      s_.rules().for_each_input(u, [&](std::uint32_t slot, std::uint64_t id) {
        words_[index(v, slot)] = values_.of(id);
        held_[index(v, slot)] = 1;
      });
    }
    cursors_.resize(cursor_offsets_.back());
    for (NodeId v = range.begin; v < range.end; ++v) {
      for (std::uint32_t t = 0; t < s_.threads(static_cast<std::uint32_t>(v)); ++t) {
        cursors_[cursor_offsets_[v - range.begin] + t] = s_.thread_range(static_cast<std::uint32_t>(v), t).first;
      }
    }
    if (schedule.form() == Form::PROGRAMMED) done_.resize(action_offsets_.back());
  }

  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  void react(Context& ctx) override {
    const NodeId v = ctx.node();
    const std::size_t i = v - range_.begin;
    incoming_ = ctx.received();
    taken_.assign(incoming_.size(), 0);
    if (!failed_[i]) advance(ctx, v, i);
    for (std::size_t k = 0; k < incoming_.size(); ++k) {
      if (!taken_[k]) early_[v].push_back({incoming_[k].from, incoming_[k].tag, incoming_[k].payload});
    }
  }

  [[nodiscard]] std::string report() const override {
    ChunkReport r = report_;
    for (NodeId v = range_.begin; v < range_.end; ++v) {
      const std::size_t i = v - range_.begin;
      if (!failed_[i]) note_stuck(r, v, i);
      ++r.nodes_checked;
      s_.rules().for_each_output(static_cast<std::uint32_t>(v), [&](std::uint32_t slot, std::uint64_t id, bool reduced) {
        ++r.chunks_checked;
        const std::uint64_t want = reduced ? values_.reduced(static_cast<std::uint32_t>(id)) : values_.of(id);
        const bool held = held_[index(v, slot)] != 0;
        if (held && words_[index(v, slot)] == want) {
          ++r.chunks_correct;
        } else if (r.wrong_node < 0) {
          r.wrong_node = static_cast<std::int64_t>(v);
          r.wrong = held ? fmt::format("node {} ends with {:#x} in {}, expected {:#x} ({})", name(v),
                                       words_[index(v, slot)], s_.chunk_name(slot), want, describe(id, reduced))
                         : fmt::format("node {} ends without {}, expected {:#x} ({})", name(v), s_.chunk_name(slot),
                                       want, describe(id, reduced));
        }
      });
    }
    return r.serialize();
  }

 private:
  struct Early {
    NodeId from;
    std::uint64_t tag;
    std::string payload;
  };

  [[nodiscard]] std::size_t index(NodeId v, std::uint32_t slot) const { return (v - range_.begin) * slots_ + slot; }
  [[nodiscard]] std::string name(NodeId v) const { return topology_ ? topology_->node_name(v) : std::to_string(v); }

  [[nodiscard]] std::string describe(std::uint64_t id, bool reduced) const {
    if (reduced) return fmt::format("the {} over all nodes of input chunk {}", star::to_string(values_.op()), id);
    const auto inputs = s_.rules().inputs();
    return fmt::format("input chunk {} of node {}", id % inputs,
                       name(s_.rules().member(static_cast<std::uint32_t>(id / inputs))));
  }

  [[nodiscard]] std::string describe(const Action& a) const {
    const std::string at = s_.form() == Form::STEPPED ? fmt::format(" of step {}", a.key)
                                                      : fmt::format(" (channel {}, message {})", a.key >> 24,
                                                                    a.key & 0xFFFFFF);
    switch (a.kind) {
      case Action::Kind::SEND: return fmt::format("the send to node {}{}", name(a.peer), at);
      case Action::Kind::RECV: return fmt::format("the receive from node {}{}", name(a.peer), at);
      case Action::Kind::LOCAL: return fmt::format("a local operation{}", s_.form() == Form::STEPPED ? at : "");
    }
    return {};
  }

  void fail(Context& ctx, NodeId v, std::string what) {
    failed_[v - range_.begin] = 1;
    const auto step = ctx.step();
    if (report_.errors++ == 0 || std::tie(step, v) < std::tie(report_.error_step, report_.error_node)) {
      report_.error_step = step;
      report_.error_node = static_cast<std::int64_t>(v);
      report_.error = fmt::format("step {}: {}", step, what);
    }
  }

  [[nodiscard]] bool done(std::size_t i, std::uint32_t action) const { return done_[action_offsets_[i] + action] != 0; }

  /// Performs every action of node v that can be performed now.
  void advance(Context& ctx, NodeId v, std::size_t i) {
    topology_ = &ctx.topology();
    const auto u = static_cast<std::uint32_t>(v);
    const auto actions = s_.actions(u);
    const std::uint32_t threads = s_.threads(u);
    bool progressed = true;
    while (progressed) {
      progressed = false;
      for (std::uint32_t t = 0; t < threads; ++t) {
        auto& cursor = cursors_[cursor_offsets_[i] + t];
        const std::uint32_t end = s_.thread_range(u, t).second;
        while (cursor < end) {
          const Action& a = actions[cursor];
          if (a.dep != NO_DEP && !done(i, a.dep)) break;
          const int outcome = perform(ctx, v, i, a);
          if (outcome < 0) return;  // failed
          if (outcome == 0) break;  // waits
          if (!done_.empty()) done_[action_offsets_[i] + cursor] = 1;
          ++cursor;
          progressed = true;
        }
      }
      if (threads == 1) break;  // one thread cannot unblock itself
    }
  }

  /// 1: done; 0: must wait; −1: failed.
  int perform(Context& ctx, NodeId v, std::size_t i, const Action& a) {
    switch (a.kind) {
      case Action::Kind::SEND: return send(ctx, v, i, a);
      case Action::Kind::RECV: return receive(ctx, v, a);
      case Action::Kind::LOCAL: return local(ctx, v, a);
    }
    return -1;
  }

  int send(Context& ctx, NodeId v, std::size_t i, const Action& a) {
    const std::uint64_t now = ctx.step();
    if (wait_for_step_ && a.key > now) {
      // One step at a time: every time up to the send is then an event time, so step() is time.
      if (timer_for_[i] != now + 1) {
        ctx.sleep(1);
        timer_for_[i] = static_cast<std::uint32_t>(now + 1);
      }
      return 0;
    }
    const auto items = s_.items(a.items);
    std::string payload(items.size() * sizeof(std::uint64_t), '\0');
    for (std::size_t k = 0; k < items.size(); ++k) {
      const auto slot = items[k].a;
      if (!held_[index(v, slot)]) {
        fail(ctx, v, fmt::format("node {} sends {} in {}, but does not hold it", name(v), s_.chunk_name(slot), describe(a)));
        return -1;
      }
      std::memcpy(payload.data() + k * sizeof(std::uint64_t), &words_[index(v, slot)], sizeof(std::uint64_t));
    }
    ctx.send_to(a.peer, std::move(payload), chunk_size_ * Rational(static_cast<std::int64_t>(items.size())), a.key);
    return 1;
  }

  int receive(Context& ctx, NodeId v, const Action& a) {
    const std::string* payload = nullptr;
    for (std::size_t k = 0; k < incoming_.size() && !payload; ++k) {
      if (!taken_[k] && incoming_[k].from == a.peer && incoming_[k].tag == a.key) {
        taken_[k] = 1;
        payload = &incoming_[k].payload;
      }
    }
    std::string kept;
    if (!payload) {
      const auto it = early_.find(v);
      if (it == early_.end()) return 0;
      auto& box = it->second;
      const auto m = std::find_if(box.begin(), box.end(), [&](const Early& e) { return e.from == a.peer && e.tag == a.key; });
      if (m == box.end()) return 0;
      kept = std::move(m->payload);
      box.erase(m);
      if (box.empty()) early_.erase(it);
      payload = &kept;
    }
    for (const Item& it : s_.items(a.items)) {
      std::uint64_t x = 0;
      std::memcpy(&x, payload->data() + it.a * sizeof x, sizeof x);
      if (!store(ctx, v, it.b, x, it.op, a)) return -1;
    }
    return 1;
  }

  int local(Context& ctx, NodeId v, const Action& a) {
    const auto items = s_.items(a.items);
    // Read every source before writing: the items act as one operation.
    scratch_.clear();
    for (const Item& it : items) {
      if (!held_[index(v, it.a)]) {
        fail(ctx, v, fmt::format("node {} reads {} in {}, but does not hold it", name(v), s_.chunk_name(it.a), describe(a)));
        return -1;
      }
      scratch_.push_back(words_[index(v, it.a)]);
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (!store(ctx, v, items[k].b, scratch_[k], items[k].op, a)) return -1;
    }
    return 1;
  }

  bool store(Context& ctx, NodeId v, std::uint32_t slot, std::uint64_t x, ItemOp op, const Action& a) {
    const auto at = index(v, slot);
    if (op == ItemOp::COPY) {
      words_[at] = x;
      held_[at] = 1;
      return true;
    }
    if (!held_[at]) {
      fail(ctx, v, fmt::format("node {} reduces into {} in {}, but does not hold it", name(v),
                         s_.chunk_name(slot), describe(a)));
      return false;
    }
    words_[at] = star::apply(values_.op(), words_[at], x);
    return true;
  }

  void note_stuck(ChunkReport& r, NodeId v, std::size_t i) const {
    const auto u = static_cast<std::uint32_t>(v);
    const auto actions = s_.actions(u);
    for (std::uint32_t t = 0; t < s_.threads(u); ++t) {
      const auto cursor = cursors_[cursor_offsets_[i] + t];
      if (cursor == s_.thread_range(u, t).second) continue;
      ++r.nodes_stuck;
      if (r.stuck_node < 0 || static_cast<std::int64_t>(v) < r.stuck_node) {
        const Action& a = actions[cursor];
        r.stuck_node = static_cast<std::int64_t>(v);
        r.stuck = a.dep != NO_DEP && !done(i, a.dep)
                      ? fmt::format("deadlock: node {} (thread {}) never reached {}: it waits for its own action {}",
                                    name(v), t, describe(a), a.dep)
                      : fmt::format("deadlock: node {} (thread {}) never completed {}", name(v), t, describe(a));
      }
      return;
    }
  }

  const Schedule& s_;
  const ChunkValues& values_;
  NodeRange range_;
  std::uint32_t slots_;
  Rational chunk_size_;
  bool wait_for_step_;
  std::vector<std::uint64_t> words_;
  std::vector<std::uint8_t> held_;
  std::vector<std::uint8_t> failed_;
  std::vector<std::uint32_t> timer_for_;
  std::vector<std::uint32_t> cursor_offsets_;
  std::vector<std::uint64_t> action_offsets_;
  std::vector<std::uint32_t> cursors_;
  std::vector<std::uint8_t> done_;  // programmed form: actions performed (for dependencies)
  std::unordered_map<NodeId, std::vector<Early>> early_;  // messages that came before their receive
  std::span<const Delivery> incoming_;
  std::vector<std::uint8_t> taken_;
  std::vector<std::uint64_t> scratch_;
  ChunkReport report_;
  const topology::Topology* topology_ = nullptr;
};

}  // namespace

std::unique_ptr<emulator::NodeProgram> make_chunk_program(const Schedule& schedule, const ChunkValues& values,
                                                          const ChunkRunOptions& options, NodeRange range) {
  return std::make_unique<ChunkProgram>(schedule, values, options, range);
}

}  // namespace starnet::algorithms::schedule
