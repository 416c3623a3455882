#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/star_graph.hpp>
#include <starnet/core/interrupt.hpp>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <unordered_set>

namespace starnet::algorithms::optimal {

using topology::StarGraph;
using Clock = std::chrono::steady_clock;

namespace {

/// S_n's nodes with their class (last symbol − 1) and neighbours, and every legal step.
class CosetSpace {
 public:
  explicit CosetSpace(int n) : g_(n), order_(g_.size()), words_((order_ + 63) / 64) {
    if (n < 3 || n > MAX_COSET_N) {
      throw UsageError(fmt::format("star:{}: the coset search handles star:3..star:{} (n!² bits per state)", n,
                                   MAX_COSET_N));
    }
    cls_.resize(order_);
    neighbor_.resize(static_cast<std::size_t>(n - 1) * order_);
    for (std::uint32_t v = 0; v < order_; ++v) {
      cls_[v] = g_.label(v)[n - 1] - 1;
      for (int k = 2; k <= n; ++k) neighbor_[(k - 2) * order_ + v] = static_cast<std::uint32_t>(g_.neighbor(v, StarGraph::port_of(k)));
    }
    // Every class on its own dimension in 2..n−1 (an odometer), then all on n.
    CosetStep step(static_cast<std::size_t>(n), 2);
    if (n > 3) {
      for (;;) {
        steps_.push_back(step);
        std::size_t i = 0;
        while (i < step.size() && step[i] == n - 1) step[i++] = 2;
        if (i == step.size()) break;
        ++step[i];
      }
    } else {
      steps_.push_back(step);
    }
    steps_.emplace_back(static_cast<std::size_t>(n), n);
  }

  [[nodiscard]] const std::vector<CosetStep>& steps() const { return steps_; }
  [[nodiscard]] std::uint64_t order() const { return order_; }
  [[nodiscard]] std::size_t words() const { return words_; }
  [[nodiscard]] const StarGraph& graph() const { return g_; }
  [[nodiscard]] std::uint32_t partner(std::uint32_t v, const CosetStep& s) const {
    return neighbor_[static_cast<std::size_t>(s[cls_[v]] - 2) * order_ + v];
  }
  /// Whether @p s is a legal step: every node receives one message.
  [[nodiscard]] bool legal(const CosetStep& s) const {
    std::vector<char> got(order_, 0);
    for (std::uint32_t v = 0; v < order_; ++v) {
      if (got[partner(v, s)]++ != 0) return false;
    }
    return true;
  }

  using State = std::vector<std::uint64_t>;  ///< node v's knowledge at words [v·words, (v+1)·words)
  [[nodiscard]] State initial() const {
    State s(order_ * words_, 0);
    for (std::uint32_t v = 0; v < order_; ++v) s[v * words_ + v / 64] |= std::uint64_t{1} << (v % 64);
    return s;
  }
  /// Node v learns what the node sending to it knows (steps are matchings: its own partner).
  void apply(const State& in, const CosetStep& s, State& out) const {
    out.resize(in.size());
    for (std::uint32_t v = 0; v < order_; ++v) {
      const auto u = partner(v, s);
      for (std::size_t w = 0; w < words_; ++w) out[v * words_ + w] = in[v * words_ + w] | in[u * words_ + w];
    }
  }
  [[nodiscard]] static std::uint64_t known(const State& s) {
    std::uint64_t c = 0;
    for (const auto w : s) c += static_cast<std::uint64_t>(std::popcount(w));
    return c;
  }

 private:
  StarGraph g_;
  std::uint64_t order_;
  std::size_t words_;
  std::vector<int> cls_;
  std::vector<std::uint32_t> neighbor_;
  std::vector<CosetStep> steps_;
};

struct StateHash {
  std::size_t operator()(const CosetSpace::State& s) const {
    std::size_t h = 0;
    for (const auto w : s) h = h * 0x9E3779B97F4A7C15ULL + w;
    return h;
  }
};

struct Node {
  std::vector<std::uint32_t> path;  ///< indices into CosetSpace::steps()
  CosetSpace::State state;
  std::uint64_t known = 0;
};

}  // namespace

CosetResult coset_search(int n, std::size_t width, int max_steps, double seconds) {
  const auto start = Clock::now();
  const CosetSpace space(n);
  const auto full = space.order() * space.order();
  const auto& steps = space.steps();
  CosetResult r;
  std::vector<Node> level{{{}, space.initial(), space.order()}};
  const auto late = [&] {
    throw_if_stopped("the coset search");
    return seconds > 0 && std::chrono::duration<double>(Clock::now() - start).count() >= seconds;
  };
  for (int t = 0; t < max_steps && !level.empty(); ++t) {
    if (late()) {
      r.timed_out = true;
      break;
    }
    // What each child knows, without keeping its state (S_6: 65 kB a state, 4,097 children each).
    const std::size_t children = level.size() * steps.size();
    std::vector<std::uint64_t> known(children);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, children), [&](const tbb::blocked_range<std::size_t>& range) {
      CosetSpace::State scratch;
      for (std::size_t m = range.begin(); m != range.end(); ++m) {
        space.apply(level[m / steps.size()].state, steps[m % steps.size()], scratch);
        known[m] = CosetSpace::known(scratch);
      }
    });
    r.explored += children;
    std::vector<std::size_t> order;
    for (std::size_t m = 0; m < children; ++m) {
      if (known[m] > level[m / steps.size()].known) order.push_back(m);  // a step adding nothing is useless
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return known[a] > known[b]; });
    const auto child = [&](std::size_t m) {
      Node c{level[m / steps.size()].path, {}, known[m]};
      c.path.push_back(static_cast<std::uint32_t>(m % steps.size()));
      space.apply(level[m / steps.size()].state, steps[m % steps.size()], c.state);
      return c;
    };
    if (!order.empty() && known[order.front()] == full) {
      for (const auto i : child(order.front()).path) r.steps.push_back(steps[i]);
      r.proved_minimal = width == 0;
      break;
    }
    // Distinct states only, those that know most first.
    std::unordered_set<CosetSpace::State, StateHash> seen;
    std::vector<Node> kept;
    for (const auto m : order) {
      auto c = child(m);
      if (!seen.insert(c.state).second) continue;
      kept.push_back(std::move(c));
      if (width > 0 && kept.size() == width) break;
      if (width == 0 && kept.size() * space.order() * space.words() * sizeof(std::uint64_t) > MAX_COSET_BYTES) {
        r.too_many_states = true;
        break;
      }
    }
    if (r.too_many_states) break;
    r.widest = std::max(r.widest, kept.size());
    level = std::move(kept);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

schedule::Schedule coset_schedule(int n, const std::vector<CosetStep>& steps) {
  const CosetSpace space(n);
  const auto order = static_cast<std::uint32_t>(space.order());
  const auto words = space.words();
  schedule::ScheduleBuilder builder(schedule::ChunkRules(schedule::Collective::ALLGATHER, order, order, 0), 0);
  auto state = space.initial();
  CosetSpace::State next;
  std::vector<schedule::TransferItem> items;
  for (std::size_t t = 0; t < steps.size(); ++t) {
    const auto& s = steps[t];
    if (s.size() != static_cast<std::size_t>(n) ||
        std::any_of(s.begin(), s.end(), [n](int k) { return k < 2 || k > n; }) || !space.legal(s)) {
      throw UsageError(fmt::format("coset step {}: expected one dimension in 2..{} per last symbol, every node "
                                   "receiving one message",
                                   t + 1, n));
    }
    for (std::uint32_t v = 0; v < order; ++v) {
      const auto u = space.partner(v, s);
      items.clear();
      for (std::uint32_t x = 0; x < order; ++x) {
        const bool mine = (state[v * words + x / 64] >> (x % 64) & 1) != 0;
        const bool theirs = (state[u * words + x / 64] >> (x % 64) & 1) != 0;
        if (mine && !theirs) items.push_back({x, x, schedule::ItemOp::COPY});
      }
      if (!items.empty()) builder.add_transfer(static_cast<std::uint32_t>(t), v, u, items);  // nothing new: idle
    }
    space.apply(state, s, next);
    std::swap(state, next);
  }
  return std::move(builder).build();
}

}  // namespace starnet::algorithms::optimal
