#include <starnet/algorithms/trees/greedy_trees.hpp>

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace starnet::algorithms::trees {
namespace {

/// The machines that can still deliver, by (s_M, M): the paper's argmin with ties to the
/// smaller index.
using SlotHeap = std::priority_queue<std::pair<Rational, int>, std::vector<std::pair<Rational, int>>, std::greater<>>;

void check_limit(int n, int k, int limit, const std::string& what, const std::string& why) {
  if (k < 1) throw ScheduleError("K = " + std::to_string(k) + " " + what + " (expected K >= 1)");
  if (k > limit) {
    throw ScheduleError("K = " + std::to_string(k) + " " + what + " exceeds the limit " + std::to_string(limit) +
                        " for n = " + std::to_string(n) + " (" + why + ")");
  }
}

void check_transfer_limit(int n, int k) {
  check_elements(n);
  check_limit(n, k, max_concurrent_transfers_limit(n), "concurrent transfers",
              "at most floor(n/2) transfers can run at once: each occupies two machines and a machine takes part "
              "in one transfer at a time");
}

void check_reducer_limit(int n, int k) {
  check_elements(n);
  check_limit(n, k, max_reducers_limit(n), "reducers", "at most n - 1 machines can receive: one machine only sends");
}

/// Algorithms 1 and 3: only the first `reducers` machines ever receive.
GreedyTree greedy_with_reducers(int n, int reducers, const CostModel& model) {
  GreedyTree t;
  t.parent.assign(static_cast<std::size_t>(n), -1);
  t.arrival.assign(static_cast<std::size_t>(n), Rational(0));
  const Rational step = model.c() + model.d();  // compute, then transfer (reversed time)
  const Rational period = model.max_cost();     // the next computation overlaps this transfer
  SlotHeap heap;
  heap.emplace(0, 0);
  for (int i = 1; i < n; ++i) {
    const auto [s, machine] = heap.top();
    heap.pop();
    const Rational arrival = s + step;
    t.parent[static_cast<std::size_t>(i)] = machine;
    t.arrival[static_cast<std::size_t>(i)] = arrival;
    t.length = std::max(t.length, arrival);
    heap.emplace(s + period, machine);
    if (i < reducers) heap.emplace(arrival, i);
  }
  return t;
}

}  // namespace

void check_elements(int n) {
  if (n < 1) throw ScheduleError("number of elements n = " + std::to_string(n) + " (expected n >= 1)");
}

int max_concurrent_transfers_limit(int n) { return std::max(1, n / 2); }

int max_reducers_limit(int n) { return std::max(1, n - 1); }

GreedyTree greedy_tree(int n, const CostModel& model) {
  check_elements(n);
  return greedy_with_reducers(n, n, model);
}

GreedyTree greedy_reducers_tree(int n, int k, const CostModel& model) {
  check_reducer_limit(n, k);
  return greedy_with_reducers(n, k, model);
}

GreedyTree greedy_transfers_tree(int n, int k, const CostModel& model) {
  check_transfer_limit(n, k);
  GreedyTree t;
  t.parent.assign(static_cast<std::size_t>(n), -1);
  t.arrival.assign(static_cast<std::size_t>(n), Rational(0));
  SlotHeap heap;
  heap.emplace(0, 0);
  for (int i = 1; i < n; ++i) {
    const auto [s, machine] = heap.top();
    heap.pop();
    // Line 8: the transfer waits for the one K insertions earlier to complete (none before machine 1).
    const Rational slot_free = i - k >= 1 ? t.arrival[static_cast<std::size_t>(i - k)] : Rational(0);
    const Rational arrival = std::max(s + model.c(), slot_free) + model.d();
    t.parent[static_cast<std::size_t>(i)] = machine;
    t.arrival[static_cast<std::size_t>(i)] = arrival;
    t.length = std::max(t.length, arrival);
    heap.emplace(std::max(s + model.c(), arrival - model.c()), machine);  // line 10
    heap.emplace(arrival, i);
  }
  return t;
}

ReductionPlan greedy_plan(int n, const CostModel& model) {
  return plan_asap("greedy", model, greedy_tree(n, model).parent);
}

ReductionPlan greedy_transfers_plan(int n, int k, const CostModel& model) {
  const GreedyTree t = greedy_transfers_tree(n, k, model);
  std::vector<Rational> start(t.arrival.size());
  for (std::size_t i = 1; i < start.size(); ++i) start[i] = t.length - t.arrival[i];  // the paper prints "+ c"
  PlanLimits limits;
  limits.max_concurrent_transfers = k;
  return plan_at("greedy-transfers", model, t.parent, start, limits);
}

ReductionPlan greedy_reducers_plan(int n, int k, const CostModel& model) {
  PlanLimits limits;
  limits.max_reducers = k;
  return plan_asap("greedy-reducers", model, greedy_reducers_tree(n, k, model).parent, limits);
}

}  // namespace starnet::algorithms::trees
