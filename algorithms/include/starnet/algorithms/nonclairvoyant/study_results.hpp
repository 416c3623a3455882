#pragma once
/// @file
/// What the Monte-Carlo studies of Section 5 of Benoit, Canon and Marchal (CCPE 2014) give back —
/// Figure 4's points, the grid of Figures 5 and 6, a cell's spread over the laws, and the notes
/// that check the paper's statements — and the paper's axes, apart from the studies that compute
/// them (studies.hpp, which defines every quantity here).

#include <starnet/algorithms/nonclairvoyant/algorithm_outcome.hpp>
#include <starnet/algorithms/stochastic/distribution_kind.hpp>
#include <starnet/algorithms/stochastic/summary.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// The paper's axes and our default grid sizes (7 CVs per decade: 0.01, 0.1, 1 and 10 are points;
/// an odd number of μ_c/μ_d values, symmetric in log scale around 1).
inline constexpr double CV_MIN = 0.01;
inline constexpr double CV_MAX = 10;
inline constexpr double COST_RATIO_MIN = 0.1;
inline constexpr double COST_RATIO_MAX = 10;
inline constexpr int DEFAULT_CV_POINTS = 22;
inline constexpr int DEFAULT_COST_RATIO_POINTS = 15;
inline constexpr std::uint64_t FIGURE4_RUNS = 1'000'000;
inline constexpr std::uint64_t GRID_RUNS = 1'000;

/// A statement of the paper's text about a figure, checked on our data.
struct StudyNote {
  std::string figure;   ///< "4", "5(a)", "5(b)", "6(a)", "6(b)"
  std::string claim;    ///< the paper's words
  bool agrees = false;  ///< whether our data meet the criterion stated in `finding`
  std::string finding;  ///< our numbers, and the criterion used
};

/// One CV of Figure 4: per algorithm (ALL_ALGORITHMS order) its summary and verified runs.
struct Figure4Point {
  double cv = 0;
  std::vector<AlgorithmOutcome> outcomes;
};

struct Figure4Result {
  int n = 64;
  std::uint64_t runs = 0;
  std::uint64_t seed = 1;
  std::vector<Figure4Point> points;
  double wall_seconds = 0;
  /// Whether every run of every point was verified.
  [[nodiscard]] bool all_verified() const;
};

/// One law at one (CV, μ_c/μ_d) of the Figure 5/6 grid.
struct GridCell {
  bool skipped = false;  ///< the CV is outside the law's range: nothing was run
  std::array<stochastic::Summary, 4> summary{};  ///< ALL_ALGORITHMS order
  std::array<std::uint64_t, 4> verified{};
  /// Figure 5(a): mean(Fibonacci-stat) / mean(Tree-dyn). @pre !skipped.
  [[nodiscard]] double fibonacci_over_tree_dyn() const;
  /// Figure 5(b): the lowest mean among Binomial-stat, Fibonacci-stat and Non-Commut-Tree-dyn
  /// (ties: that order). @pre !skipped.
  [[nodiscard]] Algorithm best_noncommutative() const;
};

struct GridResult {
  int n = 64;
  std::uint64_t runs = 0;
  std::uint64_t seed = 1;
  std::vector<double> cvs;
  std::vector<double> cost_ratios;  ///< μ_c/μ_d (μ_d = 1)
  std::vector<stochastic::DistributionKind> distributions;
  std::vector<GridCell> cells;  ///< [(law · |cvs| + cv index) · |cost_ratios| + ratio index]
  double wall_seconds = 0;
  [[nodiscard]] const GridCell& at(std::size_t law, std::size_t cv, std::size_t ratio) const;
  /// Cells skipped because the law's CV range excludes the CV.
  [[nodiscard]] std::uint64_t skipped() const;
  /// Whether every run of every cell that was run was verified.
  [[nodiscard]] bool all_verified() const;
};

/// Figure 6 at one (CV, μ_c/μ_d): the spread of the laws (definitions in the file header).
struct CellSpread {
  int laws = 0;     ///< laws run at this cell
  int skipped = 0;  ///< laws whose CV range excludes the cell's CV
  double ratio_min = 0;
  double ratio_max = 0;
  stochastic::DistributionKind argmin = stochastic::DistributionKind::GAMMA;
  stochastic::DistributionKind argmax = stochastic::DistributionKind::GAMMA;
  /// (max r − min r)/max |r − 1|; NaN when every r is exactly 1; NaN when no law ran.
  double dispersion = std::numeric_limits<double>::quiet_NaN();
  Algorithm modal_best = Algorithm::BINOMIAL_STAT;  ///< most frequent best method (ties: paper order)
  int modal_count = 0;
  double inconsistency = std::numeric_limits<double>::quiet_NaN();  ///< (laws − modal_count)/laws
};

/// @pre cv < result.cvs.size(), ratio < result.cost_ratios.size().
[[nodiscard]] CellSpread spread(const GridResult& result, std::size_t cv, std::size_t ratio);

}  // namespace starnet::algorithms::nonclairvoyant
