#pragma once
/// @file
/// The greedy reduction trees of Canon and Antoniu (RR-7898, 2012): Algorithm 1 (optimal,
/// Section 5, Theorem 4), Algorithm 2 (at most K concurrent transfers, Section 6.1,
/// Theorem 7) and Algorithm 3 (at most K reducers, Section 6.2, Theorems 9–10).
///
/// Problem: build the reduction tree (and for Algorithm 2 the transfer times) of minimum length
/// in the model of reduction_plan.hpp, optionally under a limit K.
/// The algorithms work in reversed time, as a broadcast from the sink: machine 0 (the paper's
/// machine 1) is the sink, machine i = 1..n−1 is inserted in turn and attached to the machine M
/// that can deliver to it the soonest, a min-heap on s_M (ties: smaller machine index).
/// Complexity: Θ(n log n) time, O(n) memory (the paper's Θ(n log n)).
///
/// Notation departing from the paper: machines are 0-based; the paper's "child c_i" of i is
/// parent[i] here; `arrival` is the paper's s_i at insertion (Algorithms 1, 3) or t_i
/// (Algorithm 2). Algorithm 2's final loop prints t_i ← t_n − t_i + c; the forward start of
/// the transfer that completes at reversed time t_i is t_n − t_i (the printed + c delays every
/// transfer by c and lengthens the schedule to t_n + c; tests/algorithms/trees records this).
///
/// IMPORTANT: optimality is the paper's theorem; the tests check it against the exhaustive
/// oracles of tree_brute_force.hpp for small n only.

#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <vector>

namespace starnet::algorithms::trees {

/// A tree as a greedy algorithm builds it, machines in insertion order.
struct GreedyTree {
  std::vector<int> parent;        ///< parent[0] = −1 (the sink), parent[i] < i
  std::vector<Rational> arrival;  ///< reversed time at which the transfer parent[i] ↔ i completes; arrival[0] = 0
  Rational length;                ///< max(arrival): the length of the algorithm's own schedule
};

/// Algorithm 1: the optimal tree (Theorem 4).
/// @param n number of elements, n ≥ 1.
/// @return the tree; its plan with Proposition 3's times (plan_asap) has the same length.
/// @throws ScheduleError naming n when n < 1. Θ(n log n).
[[nodiscard]] GreedyTree greedy_tree(int n, const CostModel& model);

/// Algorithm 2: at most @p k transfers at any instant (Theorem 7). arrival[i] is the paper's
/// t_i; the forward schedule starts i's transfer at length − arrival[i].
/// @param k 1 ≤ k ≤ max_concurrent_transfers_limit(n).
/// @throws ScheduleError naming n or K and the limit. Θ(n log n).
[[nodiscard]] GreedyTree greedy_transfers_tree(int n, int k, const CostModel& model);

/// Algorithm 3: at most @p k machines receive and reduce (Theorem 9); the reducers are the
/// first k machines inserted.
/// @param k 1 ≤ k ≤ max_reducers_limit(n).
/// @throws ScheduleError naming n or K and the limit. Θ(n log n).
[[nodiscard]] GreedyTree greedy_reducers_tree(int n, int k, const CostModel& model);

/// The most transfers that can run at once on n machines: ⌊n/2⌋, since each transfer occupies
/// two machines and a machine takes part in one transfer at a time (Section 6.1); 1 when n = 1.
[[nodiscard]] int max_concurrent_transfers_limit(int n);

/// The most machines that can reduce in a reduction of n elements: n − 1, since at least one
/// machine only sends (Section 6.2); 1 when n = 1.
[[nodiscard]] int max_reducers_limit(int n);

/// Algorithm 1 as a plan, transfer times by Proposition 3. Usage:
/// `auto plan = greedy_plan(10, CostModel(1, 1)); // plan.length == 5`
/// @throws ScheduleError as greedy_tree(). Θ(n log n).
[[nodiscard]] ReductionPlan greedy_plan(int n, const CostModel& model);

/// Algorithm 2 as a plan, with the algorithm's own transfer times (t_n − t_i, see above);
/// plan.limits.max_concurrent_transfers = k.
/// @throws ScheduleError as greedy_transfers_tree(). Θ(n log n).
[[nodiscard]] ReductionPlan greedy_transfers_plan(int n, int k, const CostModel& model);

/// Algorithm 3 as a plan, transfer times by Proposition 3; plan.limits.max_reducers = k.
/// @throws ScheduleError as greedy_reducers_tree(). Θ(n log n).
[[nodiscard]] ReductionPlan greedy_reducers_plan(int n, int k, const CostModel& model);

/// @throws ScheduleError "number of elements n = … (expected n >= 1)" when n < 1.
void check_elements(int n);

}  // namespace starnet::algorithms::trees
