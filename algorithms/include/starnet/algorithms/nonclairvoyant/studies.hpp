#pragma once
/// @file
/// The Monte-Carlo studies of Section 5 — Figures 4, 5(a), 5(b), 6(a), 6(b) — and what their data
/// say about the statements the paper's text makes about those figures.
///
/// Paper: A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for
/// heterogeneous platforms", CCPE 2014, Section 5 (HeteroPar 2013, Section 4, for Figure 4).
///
/// - Figure 4: n = 64, gamma costs, μ_d = 1, μ_c = 0, CV log-spaced over [0.01, 10], the four
///   algorithms; mean and 10 %/90 % quantiles per point (1,000,000 runs per point in the paper).
/// - Figure 5: gamma, μ_d = 1, one CV for both costs (σ_c/μ_c = σ_d/μ_d), a grid CV × μ_c/μ_d
///   (log-spaced, [0.01, 10] × [0.1, 10]); (a) mean(Fibonacci-stat)/mean(Tree-dyn), (b) the best
///   mean among the methods that support a non-commutative ⊕ (Binomial-stat, Fibonacci-stat,
///   Non-Commut-Tree-dyn). 1,000 runs per cell in the paper.
/// - Figure 6: the grid of Figure 5 for the ten laws of Table II. Per cell, over the laws whose CV
///   range contains the cell's CV (the others are skipped and counted):
///     (a) dispersion = (max r − min r) / max |r − 1|, r = mean(Fibonacci-stat)/mean(Tree-dyn)
///         per law (Section 5's definition; > 1 iff the laws disagree on which is faster);
///     (b) inconsistency = (L − m)/L, with L the laws used and m how many of them share the most
///         frequent best method (Section 5: "the proportion of the distributions for which the
///         expected best method differs from the most frequent one"; with all ten laws this is
///         the paper's k/10; a skipped law counts neither way).
///
/// Seeds: every cell of a study uses the same --seed (run r of algorithm a draws from
/// RandomStream(seed, r, a) whatever the cell), i.e. common random numbers across cells, which
/// keeps contours and crossovers free of independent noise.
///
/// Notes: figure4_notes(), figure5_notes() and figure6_notes() test the text's statements on the
/// data with the criteria documented on each (and in docs/montecarlo.md); nothing is hard-coded.
///
/// Complexity: runs × cells × 4 emulations of O(n log n) each; memory O(runs) per cell.
/// IMPORTANT: "similar", "around half" and "significant" are the paper's words; the thresholds
/// given below are our reading of them, fixed before the data were looked at.

#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/nonclairvoyant/study_results.hpp>
#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/algorithms/stochastic/summary.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// Our reading of the text's words (see the notes' criteria). The findings print these values,
/// except AROUND_FACTOR, which they name "sqrt(2)".
inline constexpr double SIMILAR_MEANS = 0.05;        ///< "similar", "equally", "equivalent": means within 5 %
inline constexpr double SIMILAR_SPREADS = 0.10;      ///< "similar dispersion": 10–90 % widths within 10 %
inline constexpr double SIGNIFICANT_SE = 3;          ///< a difference counts beyond 3 standard errors
inline constexpr double EQUAL_WITHIN_SE = 4;         ///< equal in theory (mean vs exact, r(x) vs r(1/x)): within 4 SE
inline constexpr double STABLE_GROWTH = 0.05;        ///< "stable": mean within 5 % of its smallest-CV value
inline constexpr double SIGNIFICANT_GROWTH = 1.25;   ///< "decreases significantly": all means × ≥ 1.25 past CV 1
inline constexpr double CLOSE_TO_10_CV = 5;          ///< "CV close to 10": the largest CV is at least 5
inline constexpr double LIMITED_VARIABILITY_CV = 1;  ///< "the variability is limited": CV ≤ 1
inline constexpr double LARGE_DISPERSION_CV = 1;     ///< "the cost dispersion is large": CV ≥ 1
inline constexpr double MOSTLY_BEST = 0.90;          ///< "has the best performance" in an area: in ≥ 90 % of it
inline constexpr double MOSTLY_BELOW_ONE = 0.90;     ///< "95% of the dispersions are below 1": ≥ 90 %
inline constexpr double MEDIAN_TOLERANCE = 0.1;      ///< "the median dispersion is 0.27": within 0.1 of it
inline constexpr double MOSTLY_IN_AREAS = 0.75;      ///< "mostly three areas": ≥ 75 % of divergent cells
inline constexpr double MOSTLY_ON_FRONTIERS = 0.80;  ///< "restricted to the frontiers": ≥ 80 % on one
/// "around" a value: within a factor √2 of it.
inline constexpr double AROUND_FACTOR = std::numbers::sqrt2;

/// @p points values from @p first to @p last, evenly spaced in log scale, both ends included
/// (exactly: the ends are @p first and @p last themselves).
/// @throws InputError naming the value when points < 2, first ≤ 0 or last ≤ first.
[[nodiscard]] std::vector<double> log_spaced(double first, double last, int points);

/// What every study takes besides its axes.
struct StudyOptions {
  int n = 64;
  std::uint64_t runs = GRID_RUNS;
  std::uint64_t seed = 1;
  unsigned threads = 0;  ///< 0: TBB's default
  bool fast_path = true;  ///< MonteCarlo::fast_path(): the same data either way
  /// Called from time to time with the runs done so far and the study's total.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

/// Figure 4 at the given CVs: gamma costs, μ_d = 1, μ_c = 0, the four algorithms.
/// @throws InputError / UsageError as MonteCarlo (a CV < 0, n out of range, runs = 0).
[[nodiscard]] Figure4Result figure4_study(std::span<const double> cvs, const StudyOptions& options);

/// Checks Section 5's statements on Figure 4 (each note states its criterion), in this order:
/// Tree-dyn best and Fibonacci-stat worst at every CV (no contrary difference beyond
/// SIGNIFICANT_SE standard errors); Binomial-stat similar to Tree-dyn below CV 0.1 and the two
/// static methods equal, with similar spreads, above CV 1 (SIMILAR_MEANS, SIMILAR_SPREADS);
/// Non-Commut-Tree-dyn second above CV 0.3; all methods equivalent at the largest CV if it is at
/// least CLOSE_TO_10_CV; the CV up to which each mean stays within STABLE_GROWTH of its
/// smallest-CV value; the growth beyond CV 1 (SIGNIFICANT_GROWTH); and, at CV = 1 (gamma =
/// exponential), Tree-dyn against the exact Markov chain and the expectation printed in
/// HeteroPar 2013 (EQUAL_WITHIN_SE). A statement whose CVs the study does not reach is left out.
[[nodiscard]] std::vector<StudyNote> figure4_notes(const Figure4Result& result);

/// The grid of Figures 5 (one law: gamma) and 6 (the ten laws): at each (CV, μ_c/μ_d), each law
/// whose range contains the CV runs the four algorithms with μ_d = 1, μ_c = ratio, the same CV.
/// @throws InputError / UsageError as MonteCarlo; InputError when an axis or the law list is empty.
[[nodiscard]] GridResult grid_study(std::span<const double> cvs, std::span<const double> cost_ratios,
                                    std::span<const stochastic::DistributionKind> distributions,
                                    const StudyOptions& options);

/// Checks Section 5's statements on Figure 5 using law @p law of @p result (gamma in the paper):
/// where Fibonacci-stat beats Tree-dyn (from about μ_c/μ_d = 1/2 — the ratio's crossing of 1,
/// interpolated in log(μ_c/μ_d) between grid points, within AROUND_FACTOR of 1/2 — at the
/// smallest CV, and only at CV ≤ LIMITED_VARIABILITY_CV); the horizontal symmetry r(x) = r(1/x)
/// (no pair apart by more than EQUAL_WITHIN_SE standard errors); the 10 % row; 5(b):
/// Non-Commut-Tree-dyn best in ≥ MOSTLY_BEST of the cells with CV ≥ LARGE_DISPERSION_CV,
/// Binomial-stat → Fibonacci-stat at about μ_c/μ_d = 1/2 (interpolated the same way),
/// Fibonacci-stat never best on the 10 % row.
[[nodiscard]] std::vector<StudyNote> figure5_notes(const GridResult& result, std::size_t law);

/// Checks Section 5's statements on Figure 6: the share of dispersions below 1 (paper: 95 %;
/// criterion ≥ MOSTLY_BELOW_ONE), their median (paper: 0.27; criterion within MEDIAN_TOLERANCE),
/// the three areas of divergence (≥ MOSTLY_IN_AREAS of the cells with dispersion > 1 in them),
/// the exponential law behind the CV > 5 area, and 6(b)'s inconsistencies lying on the frontiers
/// of the modal-best map (≥ MOSTLY_ON_FRONTIERS).
[[nodiscard]] std::vector<StudyNote> figure6_notes(const GridResult& result);

}  // namespace starnet::algorithms::nonclairvoyant
