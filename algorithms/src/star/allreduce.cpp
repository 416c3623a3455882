#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/emulator/payload.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <sstream>

namespace starnet::algorithms::star {

using emulator::Context;
using emulator::NodeId;
using emulator::NodeRange;
using topology::StarGraph;

std::string to_string(Op op) {
  switch (op) {
    case Op::SUM: return "sum";
    case Op::MIN: return "min";
    case Op::MAX: return "max";
    case Op::XOR: return "xor";
  }
  return "?";
}

Op parse_op(std::string_view text, std::string_view what) {
  for (const Op op : {Op::SUM, Op::MIN, Op::MAX, Op::XOR}) {
    if (text == to_string(op)) return op;
  }
  throw UsageError(fmt::format("{}: \"{}\" is not an operator (expected sum, min, max or xor)", what, text));
}

std::uint64_t apply(Op op, std::uint64_t a, std::uint64_t b) {
  switch (op) {
    case Op::SUM: return a + b;
    case Op::MIN: return std::min(a, b);
    case Op::MAX: return std::max(a, b);
    case Op::XOR: return a ^ b;
  }
  return a;
}

std::uint64_t Values::of(NodeId rank) const {
  if (!random) return rank + 1;
  // SplitMix64 of (seed, rank): reproducible on every machine and for every partitioning.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (rank + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

LevelStep level_of_step(std::uint64_t s) {
  int m = 2;
  while (allreduce_steps(m) <= s) ++m;
  return {m, static_cast<int>(s - allreduce_steps(m - 1))};
}

std::string StarReport::serialize() const {
  std::ostringstream out;
  out << nodes_checked << ' ' << nodes_correct << ' ' << duplicates << ' ' << items_received << ' ' << first_wrong
      << ' ' << level_first.size();
  for (std::size_t m = 0; m < level_first.size(); ++m) out << ' ' << level_first[m] << ' ' << level_last[m];
  return out.str();
}

StarReport StarReport::parse(const std::string& text) {
  std::istringstream in(text);
  StarReport r;
  std::size_t levels = 0;
  in >> r.nodes_checked >> r.nodes_correct >> r.duplicates >> r.items_received >> r.first_wrong >> levels;
  r.level_first.resize(levels);
  r.level_last.resize(levels);
  for (std::size_t m = 0; m < levels; ++m) in >> r.level_first[m] >> r.level_last[m];
  if (!in) throw Error("star collective report \"" + text + "\" is malformed");
  return r;
}

void StarReport::merge(const StarReport& other) {
  nodes_checked += other.nodes_checked;
  nodes_correct += other.nodes_correct;
  duplicates += other.duplicates;
  items_received += other.items_received;
  if (first_wrong < 0 || (other.first_wrong >= 0 && other.first_wrong < first_wrong)) first_wrong = other.first_wrong;
  const auto size = std::max(level_first.size(), other.level_first.size());
  level_first.resize(size, std::numeric_limits<std::uint64_t>::max());
  level_last.resize(size, 0);
  for (std::size_t m = 0; m < other.level_first.size(); ++m) {
    level_first[m] = std::min(level_first[m], other.level_first[m]);
    level_last[m] = std::max(level_last[m], other.level_last[m]);
  }
}

std::uint64_t reduce_sequentially(const StarGraph& g, Op op, const Values& values) {
  std::uint64_t acc = values.of(0);
  for (NodeId v = 1; v < g.size(); ++v) {
    throw_if_stopped_every(v);
    acc = apply(op, acc, values.of(v));
  }
  return acc;
}

namespace {

using emulator::payload_word;
using emulator::word_payload;

/// Levels seen by one partition: the steps its nodes sent and received messages of each level.
/// Written on every message, so held inline in its program, which keeps to cache lines of its own
/// (emulator::CACHE_LINE): in two small heap blocks beside those of the neighbouring lane's log,
/// two threads shared their lines, and S_10 on two threads took 1.15× the core time of one thread.
class LevelLog {
 public:
  explicit LevelLog(int n) : levels_(static_cast<std::size_t>(n + 1)) {
    STARNET_ASSERT(levels_ <= MOST);
    first_.fill(std::numeric_limits<std::uint64_t>::max());
    last_.fill(0);
  }
  void sent(int level, std::uint64_t step) {
    auto& f = first_[static_cast<std::size_t>(level)];
    f = std::min(f, step);
  }
  void arrived(int level, std::uint64_t step) {
    auto& l = last_[static_cast<std::size_t>(level)];
    l = std::max(l, step);
  }
  void fill(StarReport& r) const {
    r.level_first.assign(first_.begin(), first_.begin() + static_cast<std::ptrdiff_t>(levels_));
    r.level_last.assign(last_.begin(), last_.begin() + static_cast<std::ptrdiff_t>(levels_));
  }

 private:
  static constexpr std::size_t MOST = StarGraph::MAX_N + 1;
  std::size_t levels_;
  std::array<std::uint64_t, MOST> first_;
  std::array<std::uint64_t, MOST> last_;
};

class alignas(emulator::CACHE_LINE) AllReduceProgram final : public emulator::NodeProgram {
 public:
  AllReduceProgram(const StarGraph& g, Op op, Values values, std::uint64_t expected, NodeRange range)
      : n_(g.n()),
        op_(op),
        expected_(expected),
        range_(range),
        log_(g.n()) {
    // Each array written once, with a look at a stop request along the way (S_11: 320 MB each).
    result_.reserve(range.size());
    for (NodeId v = range.begin; v < range.end; ++v) {
      throw_if_stopped_every(v);
      result_.push_back(values.of(v));
    }
    assign_interruptibly(forward_, range.size(), std::uint64_t{0});
  }

  void react(Context& ctx) override {
    const auto i = ctx.node() - range_.begin;
    const std::uint64_t step = ctx.step();
    if (step != step_) at_step(step);
    for (const auto& m : ctx.received()) {
      // Sent at step − 1: along the level's top link it is a sub-star's result to forward.
      const std::uint64_t x = payload_word(m.payload);
      if (sent_.offset == 0) forward_[i] = x;
      result_[i] = apply(op_, result_[i], x);
      log_.arrived(sent_.level, step);
    }
    if (step >= allreduce_steps(n_)) return;
    const LevelStep& now = now_;
    log_.sent(now.level, step);
    // Tagged with the step, as every stepped schedule tags its messages (chunk_program.hpp).
    ctx.send(StarGraph::port_of(now.link()), word_payload(now.offset == 0 ? result_[i] : forward_[i]), 1, step);
  }

  [[nodiscard]] bool sends_only() const override { return true; }
  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  [[nodiscard]] std::string report() const override {
    StarReport r;
    r.nodes_checked = range_.size();
    for (std::size_t i = 0; i < result_.size(); ++i) r.count(range_.begin + i, result_[i] == expected_);
    log_.fill(r);
    return r.serialize();
  }

 private:
  /// Every node of a step reacts with the same step: its level and that of the step before are
  /// found once (a search over the levels, 10 % of an S_8 run's instructions when done per node).
  void at_step(std::uint64_t step) {
    step_ = step;
    if (step > 0) sent_ = level_of_step(step - 1);
    if (step < allreduce_steps(n_)) now_ = level_of_step(step);
  }

  int n_;
  Op op_;
  std::uint64_t expected_;
  NodeRange range_;
  std::vector<std::uint64_t> result_;
  std::vector<std::uint64_t> forward_;
  static_assert(ALLREDUCE_PROGRAM_BYTES_PER_NODE == 2 * sizeof(std::uint64_t), "the memory estimate's figure");
  LevelLog log_;
  std::uint64_t step_ = std::numeric_limits<std::uint64_t>::max();
  LevelStep sent_;  // of step_ − 1
  LevelStep now_;   // of step_
};

/// Broadcast state of a node at level m: which of the m sub-stars S_{m−1} of its S_m it holds
/// (bit j: the j-th block of (m−1)! ranks), and the block it received along link m.
class alignas(emulator::CACHE_LINE) BroadcastProgram final : public emulator::NodeProgram {
 public:
  BroadcastProgram(const StarGraph& g, NodeRange range)
      : g_(g), range_(range), held_(range.size(), 0), forward_(range.size(), 0), log_(g.n()) {}

  void react(Context& ctx) override {
    const NodeId v = ctx.node();
    const auto i = v - range_.begin;
    const std::uint64_t step = ctx.step();
    for (const auto& m : ctx.received()) {
      const LevelStep sent = level_of_step(step - 1);
      const auto [begin, end] = range_of(m.payload);
      items_ += end - begin;
      log_.arrived(sent.level, step);
      const std::uint64_t block = StarGraph::factorial(sent.level - 1);
      const std::uint64_t mine = g_.substar_begin(static_cast<StarGraph::vertex_descriptor>(v), sent.level);
      if (end - begin != block || begin % block != 0 || begin < mine || end > mine + block * sent.level) {
        ++bad_;  // not a whole sub-star S_{m−1} of this node's S_m
        continue;
      }
      const auto bit = static_cast<std::uint16_t>(1U << ((begin - mine) / block));
      if ((held_[i] & bit) != 0) ++duplicates_;
      held_[i] |= bit;
      if (sent.offset == 0) forward_[i] = static_cast<std::uint32_t>(begin);
    }
    if (step >= allreduce_steps(g_.n())) return;
    const LevelStep now = level_of_step(step);
    const std::uint64_t block = StarGraph::factorial(now.level - 1);
    if (now.offset == 0) {
      // Entering level m: the node must hold its whole S_{m−1}; it becomes one block of S_m.
      const auto sub = g_.substar_begin(static_cast<StarGraph::vertex_descriptor>(v), now.level - 1);
      const auto mine = g_.substar_begin(static_cast<StarGraph::vertex_descriptor>(v), now.level);
      const bool whole = now.level == 2 || held_[i] == (1U << (now.level - 1)) - 1;
      if (!whole) ++bad_;
      held_[i] = static_cast<std::uint16_t>(1U << ((sub - mine) / block));
      log_.sent(now.level, step);
      ctx.send(StarGraph::port_of(now.level), range_text(sub, sub + block));
    } else {
      log_.sent(now.level, step);
      ctx.send(StarGraph::port_of(now.link()), range_text(forward_[i], forward_[i] + block));
    }
  }

  [[nodiscard]] bool sends_only() const override { return true; }
  [[nodiscard]] bool reacts_to_sends() const override { return false; }

  [[nodiscard]] std::string report() const override {
    StarReport r;
    r.nodes_checked = range_.size();
    r.duplicates = duplicates_;
    r.items_received = items_;
    const int n = g_.n();
    const std::uint32_t all = n == 1 ? 0U : (1U << n) - 1;
    // At the end a node holds all n blocks S_{n−1} of S_n, i.e. all n! items, none twice.
    for (std::size_t i = 0; i < held_.size(); ++i) {
      r.count(range_.begin + i, held_[i] == all && bad_ == 0 && duplicates_ == 0);
    }
    log_.fill(r);
    return r.serialize();
  }

 private:
  static std::string range_text(std::uint64_t begin, std::uint64_t end) {
    const auto b = static_cast<std::uint32_t>(begin);
    const auto e = static_cast<std::uint32_t>(end);
    std::string s(8, '\0');
    std::memcpy(s.data(), &b, 4);
    std::memcpy(s.data() + 4, &e, 4);
    return s;
  }
  static std::pair<std::uint64_t, std::uint64_t> range_of(const std::string& s) {
    std::uint32_t b = 0;
    std::uint32_t e = 0;
    STARNET_ASSERT(s.size() == 8);
    std::memcpy(&b, s.data(), 4);
    std::memcpy(&e, s.data() + 4, 4);
    return {b, e};
  }

  const StarGraph& g_;
  NodeRange range_;
  std::vector<std::uint16_t> held_;
  std::vector<std::uint32_t> forward_;
  static_assert(BROADCAST_PROGRAM_BYTES_PER_NODE == sizeof(std::uint16_t) + sizeof(std::uint32_t),
                "the memory estimate's figure");
  LevelLog log_;
  std::uint64_t items_ = 0;
  std::uint64_t duplicates_ = 0;
  std::uint64_t bad_ = 0;
};

}  // namespace

std::unique_ptr<emulator::NodeProgram> make_allreduce_program(const StarGraph& g, Op op, Values values,
                                                              std::uint64_t expected, NodeRange range) {
  return std::make_unique<AllReduceProgram>(g, op, values, expected, range);
}

std::unique_ptr<emulator::NodeProgram> make_broadcast_program(const StarGraph& g, NodeRange range) {
  return std::make_unique<BroadcastProgram>(g, range);
}

}  // namespace starnet::algorithms::star
