// The Monte-Carlo fast path (fast_path.hpp): the general engine's rounds, kept only as far as
// they decide a makespan of these four algorithms.
#include "idle_neighbours.hpp"

#include <starnet/algorithms/nonclairvoyant/fast_path.hpp>
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace starnet::algorithms::nonclairvoyant {

namespace {

/// The size of every value sent and the work of every reduction, as the programs give them.
const Rational ONE(1);

}  // namespace

FastPath::FastPath(int n) : graph_(static_cast<emulator::NodeId>(std::max(n, 1))) {
  for (const auto a : {Algorithm::BINOMIAL_STAT, Algorithm::FIBONACCI_STAT}) {
    const auto tree = static_plan(a, n);  // throws for n < 1
    Plan& plan = plans_[algorithm_index(a)];
    plan.root = static_cast<std::uint32_t>(tree.root);
    for (int v = 0; v < n; ++v) {
      const int p = tree.parent[static_cast<std::size_t>(v)];
      plan.parent.push_back(p < 0 ? NONE : static_cast<std::uint32_t>(p));
      plan.begin.push_back(static_cast<std::uint32_t>(plan.children.size()));
      for (const int c : tree.children[static_cast<std::size_t>(v)]) plan.children.push_back(static_cast<std::uint32_t>(c));
    }
    plan.begin.push_back(static_cast<std::uint32_t>(plan.children.size()));
  }
  const auto size = static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < size; ++i) fresh_.push_back(Node{ReduceValue::initial(i), 0, 0, NONE, 0, 0, 0, NONE});
  nodes_ = fresh_;
  // What CheckedOperator::sequential() gives: the value every right reduction leaves.
  expected_ = fresh_[0].value;
  for (std::size_t i = 1; i < size; ++i) expected_ = ReduceValue::combine(expected_, fresh_[i].value);
  waiting_.resize(size);
  asked_.resize(size);
  by_lo_.resize(size);
  by_hi_.resize(size);
  heap_.reserve(size);
  touched_.reserve(size);
}

// ---------------------------------------------------------------------------------------------
// The rounds.

namespace {

/// A min-heap on the end time.
struct Later {
  template <class End>
  bool operator()(const End& a, const End& b) const {
    return a.at > b.at;
  }
};

}  // namespace

inline void FastPath::schedule(double at, std::uint32_t node, std::uint32_t from) {
  // As the general engine's agenda: an end at the current time is due in the next round, before
  // any later time; the others in the first round of their time.
  if (at == now_) {
    soon_.push_back({at, node, from});
    return;
  }
  heap_.push_back({at, node, from});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

inline double FastPath::transfer_time(std::uint32_t from, std::uint32_t to) const {
  return costs_->transfer(from, graph_.find_port(from, to), to, ONE);
}

inline void FastPath::reduce(std::uint32_t v) {
  Node& x = nodes_[v];
  if (x.computing != 0) {
    ++x.queued;
    return;
  }
  x.computing = 1;
  schedule(now_ + (compute_ != nullptr ? compute_[v] : costs_->compute(v, ONE)), v, NONE);
}

inline void FastPath::take(const End& e) {
  // The first phase of a round: every end due is taken before any node reacts; a processor
  // that finishes a reduction starts its next waiting one at once.
  Node& x = nodes_[e.node];
  if (e.from == NONE) {
    x.news |= REDUCED;
    x.computing = 0;
    if (x.queued != 0) {
      --x.queued;
      reduce(e.node);
    }
  } else {
    x.news |= DELIVERED;
    x.from = e.from;
  }
}

template <class React>
double FastPath::loop(React&& react) {
  double makespan = 0;
  for (;;) {
    // Most rounds have one end, hence one node that reacts: taken and answered at once.
    if (soon_.size() == 1) {
      const End e = soon_.front();
      soon_.clear();
      take(e);
      react(e.node);
      continue;
    }
    if (!soon_.empty()) {
      std::swap(due_, soon_);
      soon_.clear();
    } else if (!heap_.empty()) {
      now_ = heap_.front().at;
      makespan = now_;
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      const End e = heap_.back();
      heap_.pop_back();
      if (heap_.empty() || heap_.front().at != now_) {
        take(e);  // what it schedules is at now_ (soon_) or later
        react(e.node);
        continue;
      }
      due_.clear();
      due_.push_back(e);
      do {
        std::pop_heap(heap_.begin(), heap_.end(), Later{});
        due_.push_back(heap_.back());
        heap_.pop_back();
      } while (!heap_.empty() && heap_.front().at == now_);
    } else {
      return makespan;
    }
    // Several ends: all taken, then the nodes react in id order (insertion sort: they are few).
    touched_.clear();
    for (const End& e : due_) {
      if (nodes_[e.node].news == 0) touched_.push_back(e.node);
      take(e);
    }
    for (std::size_t k = 1; k < touched_.size(); ++k) {
      const auto v = touched_[k];
      auto j = k;
      for (; j > 0 && touched_[j - 1] > v; --j) touched_[j] = touched_[j - 1];
      touched_[j] = v;
    }
    for (const auto v : touched_) react(v);
  }
}

Emulation<double> FastPath::run(Algorithm a, const emulator::CostModel<double>& costs,
                                std::span<const double> compute) {
  if (!compute.empty() && compute.size() != fresh_.size()) {
    throw UsageError(fmt::format("fast path: {} computation costs for {} processors", compute.size(), fresh_.size()));
  }
  costs_ = &costs;
  compute_ = compute.empty() ? nullptr : compute.data();
  now_ = 0;
  heap_.clear();
  soon_.clear();
  const auto n = static_cast<std::uint32_t>(fresh_.size());
  // Every field, news too: a cost model that threw may have left a round behind.
  std::copy(fresh_.begin(), fresh_.end(), nodes_.begin());
  Emulation<double> out;
  if (a == Algorithm::BINOMIAL_STAT || a == Algorithm::FIBONACCI_STAT) {
    const Plan& plan = plans_[algorithm_index(a)];
    std::fill(waiting_.begin(), waiting_.end(), 0);
    for (std::uint32_t v = 0; v < n; ++v) start_static(plan, v);  // the first round: every node starts
    out.makespan = loop([&](std::uint32_t v) { react_static(plan, v); });
    out.verified = verified_static(plan);
  } else {
    const bool ordered = a == Algorithm::NONCOMMUT_TREE_DYN;
    slot_ = NONE;
    sends_ = 0;
    if (ordered) {
      std::fill(by_lo_.begin(), by_lo_.end(), NONE);
      std::fill(by_hi_.begin(), by_hi_.end(), NONE);
      for (std::uint32_t v = 0; v < n; ++v) idle<true>(v);
      out.makespan = loop([&](std::uint32_t v) { react_dynamic<true>(v); });
    } else {
      for (std::uint32_t v = 0; v < n; ++v) idle<false>(v);
      out.makespan = loop([&](std::uint32_t v) { react_dynamic<false>(v); });
    }
    out.verified = verified_dynamic(ordered);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Binomial-stat and Fibonacci-stat: trees::make_plan_program(plan, CheckedOperator,
// AS_SOON_AS_READY) — one posted reception at a time, in plan order; a machine sends to its
// parent once its children's values are all reduced.

void FastPath::start_static(const Plan& plan, std::uint32_t v) {
  if (plan.begin[v] != plan.begin[v + 1]) {
    post(v, plan.children[plan.begin[v]]);
  } else if (plan.parent[v] != NONE) {
    send_static(v, plan.parent[v]);
  }
}

inline void FastPath::react_static(const Plan& plan, std::uint32_t v) {
  Node& x = nodes_[v];
  const auto news = x.news;
  x.news = 0;
  const auto children = plan.begin[v + 1] - plan.begin[v];
  if ((news & DELIVERED) != 0) {
    x.value = ReduceValue::combine(x.value, nodes_[x.from].value);
    reduce(v);
    if (++x.arrived < children) post(v, plan.children[plan.begin[v] + x.arrived]);
  }
  if ((news & REDUCED) != 0 && ++x.reduced == children && plan.parent[v] != NONE) send_static(v, plan.parent[v]);
}

inline void FastPath::post(std::uint32_t v, std::uint32_t child) {
  if (waiting_[child] != 0) {  // it asked before: it starts at the end of this round
    waiting_[child] = 0;
    transfer(child, v, asked_[child]);
    return;
  }
  nodes_[v].posted = child;
}

inline void FastPath::send_static(std::uint32_t v, std::uint32_t parent) {
  const double duration = transfer_time(v, parent);
  Node& p = nodes_[parent];
  if (p.posted == v) {
    p.posted = NONE;
    transfer(v, parent, duration);
    return;
  }
  asked_[v] = duration;
  waiting_[v] = 1;
}

bool FastPath::verified_static(const Plan& plan) const {
  const auto root = plan.root;
  const auto& v = nodes_[root].value;
  return nodes_[root].reduced == plan.begin[root + 1] - plan.begin[root] && v.sum == expected_.sum &&
         v.lo == expected_.lo && v.hi == expected_.hi;
}

// ---------------------------------------------------------------------------------------------
// Tree-dyn and Non-Commut-Tree-dyn (tree_dyn.cpp): an idle processor looks for a partner; found,
// it sends its value there, which the partner reduces on receipt and is idle again after.

template <bool ORDERED>
inline void FastPath::react_dynamic(std::uint32_t v) {
  Node& self = nodes_[v];
  const auto news = self.news;
  self.news = 0;
  if ((news & DELIVERED) != 0) {
    combine_into(v, self.from);
    reduce(v);
  }
  if ((news & REDUCED) != 0) idle<ORDERED>(v);
}

template <bool ORDERED>
inline void FastPath::idle(std::uint32_t v) {
  if constexpr (!ORDERED) {
    if (slot_ == NONE) {
      slot_ = v;
      return;
    }
    const auto waiting = slot_;
    slot_ = NONE;
    send_dynamic(v, waiting);
    return;
  }
  const auto partner = pair_with_neighbour(by_lo_, by_hi_, nodes_[v].value, v, NONE,
                                           [&](std::uint32_t p) -> const ReduceValue& { return nodes_[p].value; });
  if (partner == NONE) return;
  send_dynamic(v, partner);
}

inline void FastPath::combine_into(std::uint32_t v, std::uint32_t from) {
  // The sender's interval tells which side it goes on.
  Node& self = nodes_[v];
  const ReduceValue x = nodes_[from].value;
  self.value = x.hi + 1U == self.value.lo ? ReduceValue::combine(x, self.value) : ReduceValue::combine(self.value, x);
}

inline void FastPath::send_dynamic(std::uint32_t v, std::uint32_t to) {
  ++sends_;
  const double arrival = now_ + transfer_time(v, to);
  if (compute_ != nullptr && arrival != now_) {
    // The receiver waits for nothing else and nobody looks at it until its reduction ends:
    // its delivery's round only reduces, so the reduction's end is filed at once, the same sum
    // (now + d) + c — unless it ends at the arrival's time, where rounds must order it.
    const double end = arrival + compute_[to];
    if (end != arrival) {
      combine_into(to, v);
      nodes_[to].computing = 1;
      heap_.push_back({end, to, NONE});
      std::push_heap(heap_.begin(), heap_.end(), Later{});
      return;
    }
  }
  schedule(arrival, to, v);
}

bool FastPath::verified_dynamic(bool ordered) const {
  // One processor holds everything at the end: the last one left idle.
  const auto root = ordered ? by_lo_[0] : slot_;
  if (root == NONE) return false;
  const auto& v = nodes_[root].value;
  const auto n = fresh_.size();
  return v.sum == expected_.sum && (!ordered || v.is_whole(n)) && sends_ + 1 == n;
}

}  // namespace starnet::algorithms::nonclairvoyant
