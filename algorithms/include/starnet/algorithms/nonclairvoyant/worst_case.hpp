#pragma once
/// @file
/// The worst-case instances of the proofs of Section 4 built as fixed costs and run on the
/// emulator: the approximation ratios of Table I, reached exactly or approached as n grows.
///
/// Paper: A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for
/// heterogeneous platforms", CCPE 2014, Section 4 (Theorems 1–2, Table I, Figures 2(b) and 3).
/// d = min d_ij, D = max d_ij, c = min c_i, C = max c_i; Table I assumes c ≤ d.
///
///   instance              algorithms                 costs                                   ratio
///   theorem1-low-overlap  Binomial-stat, Tree-dyn    d_ij = d (i<j), D (i>j);               (C+D)/d, exactly
///                                                    c_i = C (i even), c = 0 (i odd)
///   theorem1-high-overlap Binomial-stat, Tree-dyn    the same with c = d                    (C+D)⌈log₂n⌉/OPT → (C+D)/c·log₂φ
///   theorem2-root         Fibonacci-stat             the k transfers into the root cost D,  kD/(d⌈log₂n⌉) → D/(d log₂φ)
///                                                    all others d; c = C = 0 (Figure 2(b))
///   theorem2-all-max      Fibonacci-stat             its tree's transfers D, its reducers C, max(C,D)/c, exactly (c = d, C = D)
///                                                    everything else d, c
///   figure3-noncommut     Non-Commut-Tree-dyn        n = 8, d_ij = D (i>j, and 0→6),       (4D−ε)/(3d) → 4D/(3d)
///                                                    d (else), d_32 = d_54 = D − ε; c = 0
///
/// The optimum: OPT_hom(n, d, c), the length of Canon–Antoniu's optimal Algorithm 1 with every
/// cost at its minimum, is a lower bound for the instance (a schedule's length never decreases
/// when a cost grows); a witness schedule — Algorithm 1's tree with processors relabelled so that
/// it meets only minimum costs — is emulated on the instance. When its length equals the lower
/// bound the optimum is certified; every instance here is built so that it does.
/// Witness labellings: edges from lower to higher labels and reducers on odd labels (Theorem 1,
/// "from P_i to P_j with j > i, and only machines with odd index perform computations"); the
/// root of Fibonacci-stat a leaf (theorem2-root); reducers on Fibonacci-stat's leaves
/// (theorem2-all-max).
///
/// Complexity: O(n log n) per emulation; transfer costs are rules (no n² matrix).
/// IMPORTANT: Binomial-stat and Tree-dyn meet the Theorem 1 scenario only because equal times are
/// broken by processor id (the emulator reacts in node-id order); the tests check it by running.

#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/algorithms/nonclairvoyant/worst_case_instance.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>
#include <starnet/core/rational.hpp>

#include <string>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// Theorem 1's scenario on n = 2^m processors. c = 0 gives the first ratio (C+D)/d; c = d the
/// second, (C+D)⌈log₂n⌉/OPT_hom, below the printed (C+D)/c·(1 + 1/log₂n)·log₂φ and approaching
/// (C+D)/c·log₂φ.
/// @param log2_n m, 1 ≤ m ≤ 16.
/// @throws InputError naming m or a cost when m is out of range, d ≤ 0, D < d, C < c, c < 0, or c
///         is neither 0 nor d.
[[nodiscard]] WorstCaseInstance theorem1_instance(int log2_n, Rational d, Rational D, Rational c, Rational C);

/// Theorem 2's first ratio, from the Figure 2(b) argument: Fibonacci-stat's root receives k values
/// one after the other, each at cost D; every other transfer costs d and reductions are free.
/// Fibonacci-stat takes kD, the optimum d⌈log₂n⌉ (n = 8: the paper's 4D/3d).
/// @param n 2 ≤ n ≤ 65536.
/// @throws InputError naming n or a cost when n is out of range, d ≤ 0 or D < d.
[[nodiscard]] WorstCaseInstance theorem2_root_instance(int n, Rational d, Rational D);

/// Theorem 2's second ratio max(C, D)/min(c, d), reached exactly: on n = F_(k+2) processors,
/// Fibonacci-stat's transfers cost D and its reducers C = D; everything else costs d = c.
/// Fibonacci-stat takes (k+1)D and the optimum (k+1)d.
/// @param order k, 1 ≤ k ≤ 22.
/// @throws InputError naming the order or a cost when out of range, d ≤ 0 or D < d.
[[nodiscard]] WorstCaseInstance theorem2_all_max_instance(int order, Rational d, Rational D);

/// Figure 3: Non-Commut-Tree-dyn on 8 processors, d_ij = D for i > j and d otherwise, except that
/// P3 → P2 and P5 → P4 take D − ε so that P2 and P4 pair before P0 and P6: four steps of about D
/// against the optimum 3d; ratio (4D − ε)/(3d), approaching the paper's 4D/(3d) as ε → 0.
/// Departure from the text: the paper's costs assume the last step goes from P6 to P0 (i > j);
/// our Non-Commut-Tree-dyn lets the processor that becomes idle send to the waiting neighbour,
/// so the last step is P0 → P6, which is given cost D as well (otherwise the run takes 3D + d − ε).
/// @throws InputError naming a cost when d ≤ 0, ε ≤ 0 or D − ε < d.
[[nodiscard]] WorstCaseInstance figure3_instance(Rational d, Rational D, Rational epsilon);

/// The instances `starnet montecarlo --worst-case` runs: each construction at growing sizes
/// (d = c = 1 or c = 0, D = 4, C = 3 or 4, ε = 1/10, 1/100, 1/1000). O(Σ n log n).
[[nodiscard]] std::vector<WorstCaseInstance> table1_instances();

/// Emulates every algorithm of @p instance and its witness.
/// @throws Error when an emulation breaks the model (a bug).
[[nodiscard]] std::vector<WorstCaseOutcome> run_worst_case(const WorstCaseInstance& instance);

}  // namespace starnet::algorithms::nonclairvoyant
