#include "idle_neighbours.hpp"

#include <starnet/algorithms/nonclairvoyant/reduce_value.hpp>
#include <starnet/algorithms/nonclairvoyant/tree_dyn.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

using emulator::Completion;
using emulator::Context;
using emulator::NodeId;
using emulator::NodeRange;

namespace {

/// What both dynamic programs share: per-processor values, the reduction on receipt, the final
/// check. A processor is idle when it holds its value and is neither receiving nor computing.
class DynamicReduction : public emulator::NodeProgram {
 public:
  explicit DynamicReduction(NodeRange range, bool ordered) : ordered_(ordered), values_(range.size()) {
    if (range.begin != 0) {
      throw ScheduleError("the dynamic reductions share one slot among all processors: run them on the local engine");
    }
    for (NodeId i = 0; i < range.size(); ++i) values_[i] = ReduceValue::initial(i);
  }

  void react(Context& ctx) override {
    const NodeId v = ctx.node();
    if (ctx.starting()) idle(ctx, v);
    for (const auto& m : ctx.received()) {
      const ReduceValue x = ReduceValue::decode(m.payload);
      // The sender's interval tells which side it goes on.
      values_[v] = x.hi + 1U == values_[v].lo ? ReduceValue::combine(x, values_[v]) : ReduceValue::combine(values_[v], x);
      ctx.compute(1);
    }
    for (const auto& c : ctx.completed()) {
      if (c.kind == Completion::Kind::COMPUTE) idle(ctx, v);
    }
  }

  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  [[nodiscard]] std::string report() const override {
    // One processor holds everything at the end: the last one left idle.
    const auto n = values_.size();
    const auto root = last_idle();
    const bool right = root && values_[*root].sum == ReduceValue::expected_sum(n) &&
                       (!ordered_ || values_[*root].is_whole(n)) && sends_ + 1 == n;
    return fmt::format("{} {} {}", right ? 1 : 0, root ? static_cast<std::int64_t>(*root) : -1, sends_);
  }

 protected:
  virtual void idle(Context& ctx, NodeId v) = 0;
  [[nodiscard]] virtual std::optional<NodeId> last_idle() const = 0;
  void send(Context& ctx, NodeId from, NodeId to) {
    ++sends_;
    ctx.send_to(to, values_[from].encode());
  }
  bool ordered_;
  std::vector<ReduceValue> values_;
  std::uint64_t sends_ = 0;
};

class TreeDyn final : public DynamicReduction {
 public:
  explicit TreeDyn(NodeRange range) : DynamicReduction(range, false) {}

 private:
  void idle(Context& ctx, NodeId v) override {
    if (!slot_) {
      slot_ = v;
      return;
    }
    const NodeId waiting = *slot_;
    slot_.reset();
    send(ctx, v, waiting);
  }
  [[nodiscard]] std::optional<NodeId> last_idle() const override { return slot_; }
  std::optional<NodeId> slot_;
};

class NonCommutTreeDyn final : public DynamicReduction {
 public:
  explicit NonCommutTreeDyn(NodeRange range)
      : DynamicReduction(range, true), by_lo_(range.size(), NONE), by_hi_(range.size(), NONE) {}

 private:
  static constexpr NodeId NONE = ~NodeId{0};
  void idle(Context& ctx, NodeId v) override {
    const NodeId partner =
        pair_with_neighbour(by_lo_, by_hi_, values_[v], v, NONE, [&](NodeId p) -> const ReduceValue& { return values_[p]; });
    if (partner == NONE) return;
    send(ctx, v, partner);
  }
  [[nodiscard]] std::optional<NodeId> last_idle() const override {
    if (by_lo_[0] == NONE) return std::nullopt;
    return by_lo_[0];
  }
  std::vector<NodeId> by_lo_;
  std::vector<NodeId> by_hi_;
};

}  // namespace

std::unique_ptr<emulator::NodeProgram> make_tree_dyn(NodeRange range) { return std::make_unique<TreeDyn>(range); }

std::unique_ptr<emulator::NodeProgram> make_noncommut_tree_dyn(NodeRange range) {
  return std::make_unique<NonCommutTreeDyn>(range);
}

}  // namespace starnet::algorithms::nonclairvoyant
