#include <starnet/api/figures.hpp>

#include <starnet/algorithms/nonclairvoyant/studies.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace starnet::api {
namespace {

namespace nc = algorithms::nonclairvoyant;
namespace st = algorithms::stochastic;

constexpr double NONE = std::numeric_limits<double>::quiet_NaN();

FigureTable figure4(const nc::Figure4Result& r) {
  FigureTable table{.name = "figure4",
                    .title = fmt::format("Figure 4: schedule length, n = {}, gamma communication costs (mu_d = 1), "
                                         "mu_c = 0, {} runs per CV",
                                         r.n, r.runs),
                    .columns = {"cv", "mean", "q10", "q50", "q90", "relative"}};
  const std::size_t tree_dyn = nc::algorithm_index(nc::Algorithm::TREE_DYN);
  for (std::size_t a = 0; a < nc::ALL_ALGORITHMS.size(); ++a) {
    auto& block = table.blocks.emplace_back(FigureTable::Block{.label = std::string(nc::to_string(nc::ALL_ALGORITHMS[a]))});
    for (const auto& p : r.points) {
      const auto& s = p.outcomes[a].summary;
      block.rows.push_back({p.cv, s.mean, s.q10, s.q50, s.q90, s.mean / p.outcomes[tree_dyn].summary.mean});
    }
  }
  return table;
}

/// A scan per CV, a row per cost ratio: cv, ratio, then what @p cell gives.
template <class Cell>
FigureTable grid(const nc::GridResult& r, FigureTable table, Cell cell) {
  table.grid = true;
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    auto& block = table.blocks.emplace_back(FigureTable::Block{.label = fmt::format("cv = {:g}", r.cvs[i])});
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto [first, second] = cell(i, j);
      block.rows.push_back({r.cvs[i], r.cost_ratios[j], first, second});
    }
  }
  return table;
}

FigureTable figure5(const nc::GridResult& r, std::size_t law) {
  FigureTable table{.name = "figure5",
                    .title = fmt::format("Figure 5 ({} costs, n = {}, {} runs per cell)",
                                         st::to_string(r.distributions[law]), r.n, r.runs),
                    .columns = {"cv", "cost_ratio", "fibonacci_over_tree_dyn", "best_noncommutative"}};
  for (const auto method : FIGURE5B_METHODS) table.categories.emplace_back(nc::to_string(method));
  return grid(r, std::move(table), [&](std::size_t i, std::size_t j) {
    const auto& c = r.at(law, i, j);
    if (c.skipped) return std::pair{NONE, NONE};
    const auto* best = std::find(FIGURE5B_METHODS.begin(), FIGURE5B_METHODS.end(), c.best_noncommutative());
    STARNET_ASSERT(best != FIGURE5B_METHODS.end());
    return std::pair{c.fibonacci_over_tree_dyn(), static_cast<double>(best - FIGURE5B_METHODS.begin())};
  });
}

FigureTable figure6(const nc::GridResult& r) {
  FigureTable table{.name = "figure6",
                    .title = fmt::format("Figure 6 ({} laws of Table II, n = {}, {} runs per cell)",
                                         r.distributions.size(), r.n, r.runs),
                    .columns = {"cv", "cost_ratio", "dispersion", "inconsistency"}};
  return grid(r, std::move(table), [&](std::size_t i, std::size_t j) {
    const auto s = nc::spread(r, i, j);
    return std::pair{s.dispersion, s.inconsistency};
  });
}

}  // namespace

FigureTable montecarlo_figure(const MonteCarloStudyResult& study) {
  if (const auto* f4 = std::get_if<nc::Figure4Result>(&study.data)) return figure4(*f4);
  const auto& grid_result = std::get<nc::GridResult>(study.data);
  return study.request.study == "figure5" ? figure5(grid_result, study.gamma) : figure6(grid_result);
}

FigureTable reduce_figure(const Figure2Result& study) {
  FigureTable table{.name = "figure2",
                    .title = "Strategy length / optimal length (Canon and Antoniu 2012, Figure 2)",
                    .columns = {"n", "binomial", "fibonacci"}};
  auto& block = table.blocks.emplace_back(FigureTable::Block{.label = "strategies"});
  for (const auto& row : study.rows) {
    block.rows.push_back(
        {static_cast<double>(row.n), row.binomial_ratio().to_double(), row.fibonacci_ratio().to_double()});
  }
  return table;
}

}  // namespace starnet::api
