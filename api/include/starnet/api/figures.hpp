#pragma once
/// @file
/// The data of the studies' figures, one table per figure for both faces: the command line writes
/// it as the datablock its gnuplot script draws (tools/plot.hpp), the Python module returns it as
/// a DataFrame (`attrs["figure"]`). Which numbers a figure shows is decided here; colours, axes
/// and layout are the renderer's.

#include <starnet/api/montecarlo.hpp>
#include <starnet/api/reduce.hpp>

#include <array>
#include <string>
#include <vector>

namespace starnet::api {

/// The columns of a figure, in blocks: the curves of one data set each (figure 4: one algorithm),
/// or the scans of one surface (figures 5 and 6: one CV each, every cost ratio). A value that does
/// not exist (a cell the law's CV range excludes) is NaN, so that a grid keeps its shape.
struct FigureTable {
  std::string name;   ///< an identifier: "figure2", "figure4", …
  std::string title;  ///< what the figure shows, with its scenario
  std::vector<std::string> columns;
  struct Block {
    std::string label;  ///< the algorithm of a curve, "cv = 0.1" for a scan
    std::vector<std::vector<double>> rows;
  };
  std::vector<Block> blocks;
  /// The blocks are scans of one surface, not separate data sets.
  bool grid = false;
  /// The names of the last column's whole-number codes, where it is categorical (figure 5(b)).
  std::vector<std::string> categories;
};

/// Figure 5(b)'s candidates, in the order of its category codes: the non-commutative methods.
inline constexpr std::array<algorithms::nonclairvoyant::Algorithm, 3> FIGURE5B_METHODS{
    algorithms::nonclairvoyant::Algorithm::BINOMIAL_STAT, algorithms::nonclairvoyant::Algorithm::FIBONACCI_STAT,
    algorithms::nonclairvoyant::Algorithm::NONCOMMUT_TREE_DYN};

/// The figure of a Monte-Carlo study:
/// - figure4: a block per algorithm; cv, mean, q10, q50, q90 and relative (the mean over
///   Tree-dyn's at the same CV);
/// - figure5 (the gamma law): a scan per CV; cv, cost_ratio, fibonacci_over_tree_dyn and
///   best_noncommutative (a code of FIGURE5B_METHODS);
/// - figure6 (every law): a scan per CV; cv, cost_ratio, dispersion and inconsistency.
/// O(points × algorithms) or O(cells).
[[nodiscard]] FigureTable montecarlo_figure(const MonteCarloStudyResult& study);

/// Figure 2 of Canon and Antoniu: n, binomial (the binomial strategy's length over the optimum,
/// d = c) and fibonacci (the Fibonacci strategy's, min(d, c) = 0), one block. O(rows).
[[nodiscard]] FigureTable reduce_figure(const Figure2Result& study);

}  // namespace starnet::api
