#pragma once
/// @file
/// Closed forms and bounds on reduction lengths from Canon and Antoniu (RR-7898, 2012):
/// Lemma 5 and Proposition 6 (bounds on the optimum), Proposition 8 / Corollary 11 (Algorithms
/// 2 and 3), Propositions 13 and 16 (binomial and Fibonacci trees), Theorem 18 (ratio of the
/// binomial strategy). All exact; O(log n) or O(1) each.
///
/// Proposition 8 (and Corollary 11) as printed — (⌊log₂K + 1⌋ + ⌈n/K − 2⌉)(d + c) — is false:
/// for n = 6, K = 3, c = 0 it gives 2d, below Lemma 5's 3d. Its proof counts the machines left
/// after the doubling phase as n − 2^(⌊log₂K⌋+1) < n − 2K, but 2^(⌊log₂K⌋+1) ≤ 2K. Counting the
/// same step schedule correctly gives limited_length_upper_bound() below.
///
/// IMPORTANT: these are the paper's statements (corrected where noted); the tests check each
/// one against the algorithms, they are not used to build plans.

#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <cstdint>

namespace starnet::algorithms::trees {

/// ⌈log₂ n⌉ and ⌊log₂ n⌋ for n ≥ 1. @throws ScheduleError naming n when n < 1.
[[nodiscard]] int ceil_log2(std::int64_t n);
[[nodiscard]] int floor_log2(std::int64_t n);

/// The Fibonacci number F_k (F_0 = 0, F_1 = F_2 = 1). @throws ScheduleError naming k unless 0 ≤ k ≤ 92.
[[nodiscard]] std::int64_t fibonacci_number(int k);

/// Lemma 5: the optimal length for n elements is ≥ ⌈log₂ n⌉·max(d, c).
/// @throws ScheduleError naming n when n < 1.
[[nodiscard]] Rational optimal_length_lower_bound(int n, const CostModel& model);

/// Proposition 6: the optimal length for n elements is ≤ ⌈log₂ n⌉·(d + c).
/// @throws ScheduleError naming n when n < 1.
[[nodiscard]] Rational optimal_length_upper_bound(int n, const CostModel& model);

/// Proposition 8 / Corollary 11, corrected: with at most K concurrent transfers (Algorithm 2)
/// or K reducers (Algorithm 3), 1 ≤ K ≤ ⌊n/2⌋, the length is at most
/// (⌊log₂K⌋ + 1 + ⌈(n − 2^(⌊log₂K⌋+1)) / K⌉)·(d + c): the step schedule of the proof, whose
/// ⌊log₂K⌋ + 1 doubling steps reach 2^(⌊log₂K⌋+1) machines and whose later steps reach K more
/// each. 0 when n = 1.
/// @throws ScheduleError naming n or K when n < 1 or K is outside 1..max(1, ⌊n/2⌋).
[[nodiscard]] Rational limited_length_upper_bound(int n, int k, const CostModel& model);

/// Proposition 13: a binomial tree of order k ≥ 0 reduces 2^k elements in k(d + c).
/// @throws ScheduleError naming the order when it is negative.
[[nodiscard]] Rational binomial_tree_length(int order, const CostModel& model);

/// Proposition 16: a Fibonacci tree of order k ≥ 1 reduces F_(k+2) elements in
/// d + (k − 1)·max(d, c) + c; orders −1 and 0 (one element) take 0.
/// @throws ScheduleError naming the order when it is below −1.
[[nodiscard]] Rational fibonacci_tree_length(int order, const CostModel& model);

/// Theorem 18: the binomial strategy is a (1 + min(d, c)/max(d, c))-approximation (1 when
/// d = c = 0). Theorem 19's ratio for the Fibonacci strategy is the constant 2.
[[nodiscard]] Rational binomial_strategy_ratio_bound(const CostModel& model);

}  // namespace starnet::algorithms::trees
