#pragma once
/// @file
/// Binomial and Fibonacci reduction trees and the strategies derived from them, from Canon and
/// Antoniu (RR-7898, 2012), Section 7: Definition 12 and Proposition 13 (binomial tree),
/// Definition 15 and Proposition 16 (Fibonacci tree), Section 7.3 and Theorems 18–19
/// (binomial and Fibonacci strategies).
///
/// Problem: reduce n elements along a fixed tree shape, transfer times by Proposition 3.
/// Complexity: O(n) to build a tree, O(n log n) for a plan; the strategies run Algorithm 1,
/// Θ(n log n).
///
/// Definition 15 as our copy of the paper prints it ("a Fibonacci tree of order k−2 whose sink
/// is the parent of the sink of another Fibonacci tree of order k−1") contradicts Proposition
/// 16 and its proof (order 2 would be a chain of three machines, of length 2(d + c) instead of
/// d + max(d, c) + c). The proof attaches the order k−2 tree to the sink of the order k−1 tree;
/// fibonacci_tree() follows the proof, and a test records the discrepancy.
///
/// IMPORTANT: binomial_plan() and fibonacci_plan() accept only the sizes the trees have
/// (2^k, and the Fibonacci numbers F_(k+2)); the strategies accept any n.

#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <cstdint>
#include <vector>

namespace starnet::algorithms::trees {

/// Definition 12: order 0 is one machine; order k is an order k−1 tree whose sink is the
/// parent of the sink of another order k−1 tree.
/// @param order 0 ≤ order ≤ 30.
/// @return parent array of 2^order machines, sink 0 (parent −1), sub-trees laid out in turn.
/// @throws ScheduleError naming the order when out of range. O(2^order).
[[nodiscard]] std::vector<int> binomial_tree(int order);

/// Definition 15 as its proof uses it: orders −1 and 0 are one machine; order k > 0 is an
/// order k−1 tree whose sink is the parent of the sink of an order k−2 tree.
/// @param order −1 ≤ order ≤ 42.
/// @return parent array of F_(order+2) machines, sink 0.
/// @throws ScheduleError naming the order when out of range. O(F_(order+2)).
[[nodiscard]] std::vector<int> fibonacci_tree(int order);

/// The binomial tree on n = 2^k machines as a plan (length k(d + c), Proposition 13).
/// @throws ScheduleError naming n when it is not a power of two (or n < 1). O(n log n).
[[nodiscard]] ReductionPlan binomial_plan(int n, const CostModel& model);

/// The Fibonacci tree on n = F_(k+2) machines as a plan (length d + (k−1)·max(d, c) + c for
/// k ≥ 1, Proposition 16).
/// @throws ScheduleError naming n when it is not a Fibonacci number (or n < 1). O(n log n).
[[nodiscard]] ReductionPlan fibonacci_plan(int n, const CostModel& model);

/// Binomial strategy (Section 7.3): the tree Algorithm 1 builds when min(d, c) is set to 0
/// (it depends on nothing else, so (d, c) = (1, 0) is used), timed with the true costs. Binomial
/// for n = 2^k; a (1 + min(d, c)/max(d, c))-approximation (Theorem 18).
/// @throws ScheduleError naming n when n < 1. Θ(n log n).
[[nodiscard]] ReductionPlan binomial_strategy_plan(int n, const CostModel& model);

/// Fibonacci strategy (Section 7.3): the tree Algorithm 1 builds when d = c (it depends on
/// nothing else, so (1, 1) is used), timed with the true costs. Fibonacci for n = F_(k+2); a
/// 2-approximation (Theorem 19).
/// @throws ScheduleError naming n when n < 1. Θ(n log n).
[[nodiscard]] ReductionPlan fibonacci_strategy_plan(int n, const CostModel& model);

/// The parent arrays of the two strategies' trees, in Algorithm 1's insertion order (a prefix of
/// the tree for n is the tree for a smaller n). @throws ScheduleError naming n when n < 1.
[[nodiscard]] std::vector<int> binomial_strategy_tree(int n);
[[nodiscard]] std::vector<int> fibonacci_strategy_tree(int n);

}  // namespace starnet::algorithms::trees
