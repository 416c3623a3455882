// The Monte-Carlo fast path (fast_path.hpp): the general engine's rounds, kept only as far as
// they decide a makespan of these four algorithms.
#include <starnet/algorithms/nonclairvoyant/fast_path.hpp>
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/core/rational.hpp>

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
  for (std::size_t i = 0; i < size; ++i) initial_.push_back(ReduceValue::initial(i));
  // What CheckedOperator::sequential() gives: the value every right reduction leaves.
  expected_ = initial_[0];
  for (std::size_t i = 1; i < size; ++i) expected_ = ReduceValue::combine(expected_, initial_[i]);
  value_.resize(size);
  news_.assign(size, 0);
  from_.assign(size, NONE);
  computing_.resize(size);
  queued_.resize(size);
  arrived_.resize(size);
  reduced_.resize(size);
  posted_.resize(size);
  asked_.resize(size);
  waiting_.resize(size);
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

void FastPath::schedule(double at, std::uint32_t node, std::uint32_t from) {
  // As the general engine's agenda: an end at the current time is due in the next round, before
  // any later time; the others in the first round of their time.
  if (at == now_) {
    soon_.push_back({at, node, from});
    return;
  }
  heap_.push_back({at, node, from});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

double FastPath::transfer_time(std::uint32_t from, std::uint32_t to) const {
  return costs_->transfer(from, graph_.find_port(from, to), to, ONE);
}

void FastPath::reduce(std::uint32_t v) {
  if (computing_[v] != 0) {
    ++queued_[v];
    return;
  }
  computing_[v] = 1;
  schedule(now_ + costs_->compute(v, ONE), v, NONE);
}

void FastPath::take_due() {
  // The first phase of a round: every end due is taken before any node reacts; a processor
  // that finishes a reduction starts its next waiting one at once.
  due_.clear();
  if (!soon_.empty()) {
    std::swap(due_, soon_);
  } else {
    now_ = heap_.front().at;
    do {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      due_.push_back(heap_.back());
      heap_.pop_back();
    } while (!heap_.empty() && heap_.front().at == now_);
  }
  touched_.clear();
  for (const End& e : due_) {
    if (news_[e.node] == 0) touched_.push_back(e.node);
    if (e.from == NONE) {
      news_[e.node] |= REDUCED;
      computing_[e.node] = 0;
      if (queued_[e.node] != 0) {
        --queued_[e.node];
        reduce(e.node);
      }
    } else {
      news_[e.node] |= DELIVERED;
      from_[e.node] = e.from;
    }
  }
  // Nodes react in id order; a round has few (one, mostly): insertion sort.
  for (std::size_t k = 1; k < touched_.size(); ++k) {
    const auto v = touched_[k];
    auto j = k;
    for (; j > 0 && touched_[j - 1] > v; --j) touched_[j] = touched_[j - 1];
    touched_[j] = v;
  }
}

template <class React>
double FastPath::loop(React&& react) {
  double makespan = 0;
  while (!heap_.empty() || !soon_.empty()) {
    take_due();
    makespan = now_;
    for (const auto v : touched_) react(v);
  }
  return makespan;
}

Emulation<double> FastPath::run(Algorithm a, const emulator::CostModel<double>& costs) {
  costs_ = &costs;
  now_ = 0;
  heap_.clear();
  soon_.clear();
  std::copy(initial_.begin(), initial_.end(), value_.begin());
  std::fill(computing_.begin(), computing_.end(), 0);
  std::fill(queued_.begin(), queued_.end(), 0);
  std::fill(news_.begin(), news_.end(), 0);  // a cost model that threw may have left a round behind
  const auto n = static_cast<std::uint32_t>(initial_.size());
  Emulation<double> out;
  if (a == Algorithm::BINOMIAL_STAT || a == Algorithm::FIBONACCI_STAT) {
    const Plan& plan = plans_[algorithm_index(a)];
    std::fill(arrived_.begin(), arrived_.end(), 0);
    std::fill(reduced_.begin(), reduced_.end(), 0);
    std::fill(posted_.begin(), posted_.end(), NONE);
    std::fill(waiting_.begin(), waiting_.end(), 0);
    for (std::uint32_t v = 0; v < n; ++v) start_static(plan, v);  // the first round: every node starts
    out.makespan = loop([&](std::uint32_t v) { react_static(plan, v); });
    out.verified = verified_static(plan);
  } else {
    const bool ordered = a == Algorithm::NONCOMMUT_TREE_DYN;
    slot_ = NONE;
    sends_ = 0;
    std::fill(by_lo_.begin(), by_lo_.end(), NONE);
    std::fill(by_hi_.begin(), by_hi_.end(), NONE);
    for (std::uint32_t v = 0; v < n; ++v) idle(v, ordered);
    out.makespan = loop([&](std::uint32_t v) { react_dynamic(v, ordered); });
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

void FastPath::react_static(const Plan& plan, std::uint32_t v) {
  const auto news = news_[v];
  news_[v] = 0;
  const auto children = plan.begin[v + 1] - plan.begin[v];
  if ((news & DELIVERED) != 0) {
    value_[v] = ReduceValue::combine(value_[v], value_[from_[v]]);
    reduce(v);
    if (++arrived_[v] < children) post(v, plan.children[plan.begin[v] + arrived_[v]]);
  }
  if ((news & REDUCED) != 0 && ++reduced_[v] == children && plan.parent[v] != NONE) send_static(v, plan.parent[v]);
}

void FastPath::post(std::uint32_t v, std::uint32_t child) {
  if (waiting_[child] != 0) {  // it asked before: it starts at the end of this round
    waiting_[child] = 0;
    transfer(child, v, asked_[child]);
    return;
  }
  posted_[v] = child;
}

void FastPath::send_static(std::uint32_t v, std::uint32_t parent) {
  const double duration = transfer_time(v, parent);
  if (posted_[parent] == v) {
    posted_[parent] = NONE;
    transfer(v, parent, duration);
    return;
  }
  asked_[v] = duration;
  waiting_[v] = 1;
}

bool FastPath::verified_static(const Plan& plan) const {
  const auto root = plan.root;
  const auto& v = value_[root];
  return reduced_[root] == plan.begin[root + 1] - plan.begin[root] && v.sum == expected_.sum &&
         v.lo == expected_.lo && v.hi == expected_.hi;
}

// ---------------------------------------------------------------------------------------------
// Tree-dyn and Non-Commut-Tree-dyn (tree_dyn.cpp): an idle processor looks for a partner; found,
// it sends its value there, which the partner reduces on receipt and is idle again after.

void FastPath::react_dynamic(std::uint32_t v, bool ordered) {
  const auto news = news_[v];
  news_[v] = 0;
  if ((news & DELIVERED) != 0) {
    const ReduceValue x = value_[from_[v]];
    value_[v] = x.hi + 1U == value_[v].lo ? ReduceValue::combine(x, value_[v]) : ReduceValue::combine(value_[v], x);
    reduce(v);
  }
  if ((news & REDUCED) != 0) idle(v, ordered);
}

void FastPath::idle(std::uint32_t v, bool ordered) {
  if (!ordered) {
    if (slot_ == NONE) {
      slot_ = v;
      return;
    }
    const auto waiting = slot_;
    slot_ = NONE;
    send_dynamic(v, waiting);
    return;
  }
  const ReduceValue& x = value_[v];
  // An idle neighbour on the left (holding [k, lo−1]) first, then on the right.
  const auto left = x.lo > 0 ? by_hi_[x.lo - 1U] : NONE;
  const auto right = x.hi + 1U < by_lo_.size() ? by_lo_[x.hi + 1U] : NONE;
  const auto partner = left != NONE ? left : right;
  if (partner == NONE) {
    by_lo_[x.lo] = v;
    by_hi_[x.hi] = v;
    return;
  }
  by_lo_[value_[partner].lo] = NONE;
  by_hi_[value_[partner].hi] = NONE;
  send_dynamic(v, partner);
}

void FastPath::send_dynamic(std::uint32_t v, std::uint32_t to) {
  ++sends_;
  transfer(v, to, transfer_time(v, to));
}

bool FastPath::verified_dynamic(bool ordered) const {
  // One processor holds everything at the end: the last one left idle.
  const auto root = ordered ? by_lo_[0] : slot_;
  if (root == NONE) return false;
  const auto& v = value_[root];
  const auto n = initial_.size();
  return v.sum == expected_.sum && (!ordered || v.is_whole(n)) && sends_ + 1 == n;
}

}  // namespace starnet::algorithms::nonclairvoyant
