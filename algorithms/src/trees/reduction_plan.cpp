#include <starnet/algorithms/trees/plan_validator.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>

namespace starnet::algorithms::trees {
namespace {

/// A rooted tree read from a parent array: the children of v, in increasing label order, are
/// kids[first[v] .. first[v + 1]); `bfs` is a breadth-first order (parents before children).
struct Tree {
  int root = -1;
  std::vector<int> first;
  std::vector<int> kids;
  std::vector<int> bfs;

  [[nodiscard]] std::span<int> children(int v) {
    const auto i = static_cast<std::size_t>(v);
    return {kids.data() + first[i], kids.data() + first[i + 1]};
  }
  [[nodiscard]] std::span<const int> children(int v) const {
    const auto i = static_cast<std::size_t>(v);
    return {kids.data() + first[i], kids.data() + first[i + 1]};
  }
};

Tree read_tree(std::span<const int> parent) {
  const int n = static_cast<int>(parent.size());
  if (n < 1) throw ScheduleError("reduction tree: n = 0 machines (expected n >= 1)");
  Tree t;
  t.first.assign(static_cast<std::size_t>(n) + 1, 0);
  for (int i = 0; i < n; ++i) {
    const int p = parent[static_cast<std::size_t>(i)];
    if (p == -1) {
      if (t.root != -1) {
        throw ScheduleError("reduction tree: machines " + std::to_string(t.root) + " and " + std::to_string(i) +
                            " both have parent -1 (expected exactly one root)");
      }
      t.root = i;
    } else if (p < 0 || p >= n || p == i) {
      throw ScheduleError("reduction tree: machine " + std::to_string(i) + " has parent " + std::to_string(p) +
                          " (expected -1 for the root or another machine in 0.." + std::to_string(n - 1) + ")");
    } else {
      ++t.first[static_cast<std::size_t>(p) + 1];
    }
  }
  if (t.root == -1) throw ScheduleError("reduction tree: no machine has parent -1 (expected exactly one root)");
  for (std::size_t v = 0; v < static_cast<std::size_t>(n); ++v) t.first[v + 1] += t.first[v];
  t.kids.resize(static_cast<std::size_t>(n - 1));
  std::vector<int> fill(t.first.begin(), t.first.end() - 1);
  for (int i = 0; i < n; ++i) {
    if (i != t.root) t.kids[static_cast<std::size_t>(fill[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])]++)] = i;
  }
  t.bfs.reserve(static_cast<std::size_t>(n));
  t.bfs.push_back(t.root);
  for (std::size_t i = 0; i < t.bfs.size(); ++i) {
    for (const int child : t.children(t.bfs[i])) t.bfs.push_back(child);
  }
  if (t.bfs.size() != static_cast<std::size_t>(n)) {
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (const int v : t.bfs) seen[static_cast<std::size_t>(v)] = true;
    const auto lost = std::find(seen.begin(), seen.end(), false) - seen.begin();
    throw ScheduleError("reduction tree: machine " + std::to_string(lost) + " does not lead to root " +
                        std::to_string(t.root) + " (its parent links form a cycle)");
  }
  return t;
}

/// Sorts transfers by (start, from). Start times share small denominators in practice, so they
/// are compared as exact 64-bit integer multiples of 1/lcm(denominators) when those fit: this
/// sort is a fifth of the cost of a plan for n = 10^6 otherwise.
void sort_transfers(std::vector<Transfer>& transfers) {
  std::int64_t scale = 1;
  bool exact = true;
  for (const Transfer& t : transfers) {
    // A start beyond 64 bits: the times are compared as Rationals below.
    exact = t.start.is_small() && !__builtin_mul_overflow(scale / std::gcd(scale, t.start.den()), t.start.den(), &scale);
    if (!exact) break;
  }
  struct Key {
    std::int64_t time;
    int from;
    int index;
  };
  std::vector<Key> keys;
  keys.reserve(transfers.size());
  for (std::size_t i = 0; exact && i < transfers.size(); ++i) {
    const Rational& s = transfers[i].start;
    std::int64_t time = 0;
    exact = !__builtin_mul_overflow(s.num(), scale / s.den(), &time);
    keys.push_back({time, transfers[i].from, static_cast<int>(i)});
  }
  if (!exact) {
    std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
      return a.start != b.start ? a.start < b.start : a.from < b.from;
    });
    return;
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return a.time != b.time ? a.time < b.time : a.from < b.from;
  });
  std::vector<Transfer> sorted;
  sorted.reserve(transfers.size());
  for (const Key& k : keys) sorted.push_back(transfers[static_cast<std::size_t>(k.index)]);
  transfers = std::move(sorted);
}

/// Completes a plan from a tree whose children are in reception order, whose transfer from
/// kids[j] starts at start_at[j], and which ends at @p length: renumbers the machines into the
/// placement, a pre-order with children in reception order (Section 4.1).
ReductionPlan finish(std::string algorithm, const CostModel& model, const Tree& tree,
                     const std::vector<Rational>& start_at, const Rational& length, PlanLimits limits) {
  const std::size_t n = tree.bfs.size();
  ReductionPlan plan;
  plan.algorithm = std::move(algorithm);
  plan.model = model;
  plan.root = 0;
  plan.parent.assign(n, -1);
  plan.children.resize(n);
  plan.transfers.reserve(n - 1);
  struct Visit {
    int node;    // input label
    int parent;  // placed id of its parent
    std::size_t slot;  // its position in tree.kids, where its start time is
  };
  std::vector<Visit> stack{{tree.root, -1, 0}};
  for (int me = 0; !stack.empty(); ++me) {
    const Visit v = stack.back();
    stack.pop_back();
    if (v.parent >= 0) {
      plan.parent[static_cast<std::size_t>(me)] = v.parent;
      plan.children[static_cast<std::size_t>(v.parent)].push_back(me);  // visited in reception order
      plan.transfers.push_back({me, v.parent, start_at[v.slot]});
    }
    const auto begin = static_cast<std::size_t>(tree.first[static_cast<std::size_t>(v.node)]);
    const auto end = static_cast<std::size_t>(tree.first[static_cast<std::size_t>(v.node) + 1]);
    plan.children[static_cast<std::size_t>(me)].reserve(end - begin);
    for (std::size_t j = end; j > begin; --j) stack.push_back({tree.kids[j - 1], me, j - 1});  // first child on top
  }
  sort_transfers(plan.transfers);
  plan.length = length;
  plan.limits = limits;
  return plan;
}

}  // namespace

CostModel::CostModel(Rational d, Rational c) : d_(d), c_(c) {
  if (d_ < 0) throw ScheduleError("transfer cost d = " + d_.to_string() + " (expected d >= 0)");
  if (c_ < 0) throw ScheduleError("computation cost c = " + c_.to_string() + " (expected c >= 0)");
}

void asap_starts(std::span<const Rational> ready_sorted, const CostModel& model, std::span<Rational> starts) {
  STARNET_ASSERT(starts.size() == ready_sorted.size());
  for (std::size_t j = 0; j < ready_sorted.size(); ++j) {
    starts[j] = j == 0 ? ready_sorted[0] : std::max(ready_sorted[j], starts[j - 1] + model.d());
  }
}

Rational completion_time(std::span<const Rational> starts_in_order, const CostModel& model) {
  Rational done = 0;
  for (const Rational& s : starts_in_order) done = std::max(done, s + model.d()) + model.c();
  return done;
}

ReductionPlan plan_asap(std::string algorithm, const CostModel& model, std::span<const int> parent,
                        PlanLimits limits) {
  Tree tree = read_tree(parent);
  const std::size_t n = parent.size();
  std::vector<Rational> ready(n);
  std::vector<Rational> start_at(tree.kids.size());  // by position in tree.kids
  std::vector<std::pair<Rational, int>> senders;
  std::vector<Rational> ready_sorted;
  for (auto it = tree.bfs.rbegin(); it != tree.bfs.rend(); ++it) {
    const auto kids = tree.children(*it);
    if (kids.empty()) continue;  // a leaf is ready at 0
    senders.clear();
    for (const int child : kids) senders.emplace_back(ready[static_cast<std::size_t>(child)], child);
    std::sort(senders.begin(), senders.end());  // by readiness, ties by smaller label
    ready_sorted.clear();
    for (std::size_t j = 0; j < senders.size(); ++j) {
      ready_sorted.push_back(senders[j].first);
      kids[j] = senders[j].second;
    }
    const std::span<Rational> starts(start_at.data() + (kids.data() - tree.kids.data()), kids.size());
    asap_starts(ready_sorted, model, starts);
    ready[static_cast<std::size_t>(*it)] = completion_time(starts, model);
  }
  return finish(std::move(algorithm), model, tree, start_at, ready[static_cast<std::size_t>(tree.root)], limits);
}

ReductionPlan plan_at(std::string algorithm, const CostModel& model, std::span<const int> parent,
                      std::span<const Rational> start, PlanLimits limits) {
  Tree tree = read_tree(parent);
  if (start.size() != parent.size()) {
    throw ScheduleError(algorithm + ": " + std::to_string(start.size()) + " transfer start times for " +
                        std::to_string(parent.size()) + " machines (expected one per machine)");
  }
  const std::vector<Rational> times(start.begin(), start.end());
  std::vector<Rational> start_at(tree.kids.size());  // by position in tree.kids
  std::vector<Rational> complete(times.size());
  for (auto it = tree.bfs.rbegin(); it != tree.bfs.rend(); ++it) {
    const auto kids = tree.children(*it);
    std::stable_sort(kids.begin(), kids.end(),
                     [&](int a, int b) { return times[static_cast<std::size_t>(a)] < times[static_cast<std::size_t>(b)]; });
    const std::span<Rational> starts(start_at.data() + (kids.data() - tree.kids.data()), kids.size());
    for (std::size_t j = 0; j < kids.size(); ++j) starts[j] = times[static_cast<std::size_t>(kids[j])];
    complete[static_cast<std::size_t>(*it)] = completion_time(starts, model);
  }
  ReductionPlan plan = finish(algorithm, model, tree, start_at, complete[static_cast<std::size_t>(tree.root)], limits);
  if (const PlanCheck check = check_plan(plan); !check.valid) {
    throw ScheduleError(algorithm + ": " + check.problem + " (machines numbered as in the plan's placement)");
  }
  return plan;
}

}  // namespace starnet::algorithms::trees
