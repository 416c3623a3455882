// The studies' figure tables (api/figures.hpp): each value is the study's own, in its place.
#include <starnet/api/figures.hpp>

#include <starnet/algorithms/nonclairvoyant/studies.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace starnet::api {
namespace {

namespace nc = algorithms::nonclairvoyant;

MonteCarloStudyResult small_study(const std::string& figure) {
  MonteCarloStudyRequest r;
  r.study = figure;
  r.n = 8;
  r.runs = 20;
  r.points = 3;
  r.ratio_points = 2;
  return run_montecarlo_study(r);
}

TEST(FigureTables, Figure4HasACurvePerAlgorithmAndEachMeanOverTreeDyns) {
  const auto study = small_study("figure4");
  const auto& f4 = std::get<nc::Figure4Result>(study.data);
  const auto table = montecarlo_figure(study);
  EXPECT_EQ(table.name, "figure4");
  EXPECT_FALSE(table.grid);
  EXPECT_EQ(table.columns, (std::vector<std::string>{"cv", "mean", "q10", "q50", "q90", "relative"}));
  ASSERT_EQ(table.blocks.size(), nc::ALL_ALGORITHMS.size());
  const std::size_t tree_dyn = nc::algorithm_index(nc::Algorithm::TREE_DYN);
  for (std::size_t a = 0; a < table.blocks.size(); ++a) {
    EXPECT_EQ(table.blocks[a].label, nc::to_string(nc::ALL_ALGORITHMS[a]));
    ASSERT_EQ(table.blocks[a].rows.size(), f4.points.size());
    for (std::size_t p = 0; p < f4.points.size(); ++p) {
      const auto& row = table.blocks[a].rows[p];
      const auto& s = f4.points[p].outcomes[a].summary;
      EXPECT_EQ(row, (std::vector<double>{f4.points[p].cv, s.mean, s.q10, s.q50, s.q90,
                                          s.mean / f4.points[p].outcomes[tree_dyn].summary.mean}));
    }
  }
  for (const auto& row : table.blocks[tree_dyn].rows) EXPECT_EQ(row.back(), 1.0);
}

TEST(FigureTables, Figure5IsAGridOfTheGammaLawWithTheBestMethodsCode) {
  const auto study = small_study("figure5");
  const auto table = montecarlo_figure(study);
  EXPECT_EQ(table.name, "figure5");
  EXPECT_TRUE(table.grid);
  const auto& grid = std::get<nc::GridResult>(study.data);
  ASSERT_EQ(table.categories.size(), FIGURE5B_METHODS.size());
  EXPECT_EQ(table.categories.front(), "binomial-stat");
  ASSERT_EQ(table.blocks.size(), grid.cvs.size());
  for (std::size_t i = 0; i < grid.cvs.size(); ++i) {
    ASSERT_EQ(table.blocks[i].rows.size(), grid.cost_ratios.size());
    for (std::size_t j = 0; j < grid.cost_ratios.size(); ++j) {
      const auto& row = table.blocks[i].rows[j];
      const auto& cell = grid.at(study.gamma, i, j);
      EXPECT_EQ(row[0], grid.cvs[i]);
      EXPECT_EQ(row[1], grid.cost_ratios[j]);
      if (cell.skipped) {
        EXPECT_TRUE(std::isnan(row[2]) && std::isnan(row[3]));
        continue;
      }
      EXPECT_EQ(row[2], cell.fibonacci_over_tree_dyn());
      EXPECT_EQ(FIGURE5B_METHODS.at(static_cast<std::size_t>(row[3])), cell.best_noncommutative());
    }
  }
}

TEST(FigureTables, Figure6HoldsEachCellsSpreadNaNWhereNoLawRan) {
  const auto study = small_study("figure6");
  const auto& grid = std::get<nc::GridResult>(study.data);
  const auto table = montecarlo_figure(study);
  EXPECT_EQ(table.columns, (std::vector<std::string>{"cv", "cost_ratio", "dispersion", "inconsistency"}));
  ASSERT_EQ(table.blocks.size(), grid.cvs.size());
  for (std::size_t i = 0; i < grid.cvs.size(); ++i) {
    for (std::size_t j = 0; j < grid.cost_ratios.size(); ++j) {
      const auto s = nc::spread(grid, i, j);
      const auto& row = table.blocks[i].rows.at(j);
      for (const auto& [value, expected] : {std::pair{row[2], s.dispersion}, std::pair{row[3], s.inconsistency}}) {
        if (std::isnan(expected)) {
          EXPECT_TRUE(std::isnan(value));
        } else {
          EXPECT_EQ(value, expected);
        }
      }
    }
  }
}

TEST(FigureTables, Figure2HoldsBothStrategiesRatiosForEveryN) {
  const auto study = reduce_figure2(60);
  const auto table = reduce_figure(study);
  EXPECT_EQ(table.columns, (std::vector<std::string>{"n", "binomial", "fibonacci"}));
  ASSERT_EQ(table.blocks.size(), 1U);
  ASSERT_EQ(table.blocks[0].rows.size(), study.rows.size());
  EXPECT_EQ(table.blocks[0].rows.front()[0], 2);
  EXPECT_EQ(table.blocks[0].rows.back()[0], 60);
  for (std::size_t k = 0; k < study.rows.size(); ++k) {
    const auto& row = table.blocks[0].rows[k];
    EXPECT_EQ(row[1], study.rows[k].binomial_ratio().to_double());
    EXPECT_EQ(row[2], study.rows[k].fibonacci_ratio().to_double());
    EXPECT_GE(row[1], 1.0);
    EXPECT_LE(row[2], 2.0);
  }
}

}  // namespace
}  // namespace starnet::api
