#include <starnet/algorithms/nonclairvoyant/studies.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace starnet::algorithms::nonclairvoyant {
namespace {

using stochastic::DistributionKind;
using ::testing::HasSubstr;

/// A cell with the given means (B, F, T, N) and tiny standard errors.
GridCell cell(double b, double f, double t, double nc) {
  GridCell c;
  const std::array<double, 4> means = {b, f, t, nc};
  for (std::size_t a = 0; a < 4; ++a) {
    c.summary[a].mean = means[a];
    c.summary[a].sem = 1e-4;
  }
  return c;
}

GridCell skipped() {
  GridCell c;
  c.skipped = true;
  return c;
}

/// A one-law grid whose Fibonacci/Tree-dyn ratio is r(cv, x) and whose best non-commutative
/// method is Non-Commut-Tree-dyn above CV 1, Fibonacci-stat where r < 1, Binomial-stat elsewhere.
template <class Ratio>
GridResult synthetic_grid(std::vector<double> cvs, std::vector<double> ratios, Ratio r) {
  GridResult g;
  g.runs = 1000;
  g.cvs = std::move(cvs);
  g.cost_ratios = std::move(ratios);
  g.distributions = {DistributionKind::GAMMA};
  for (const double cv : g.cvs) {
    for (const double x : g.cost_ratios) {
      const double f = 10 * r(cv, x);
      const double nc = cv >= 1 ? 5 : 30;
      g.cells.push_back(cell(f < 10 ? f + 1 : 9, f, 10, nc));
    }
  }
  return g;
}

/// A Figure 4 result with the given means (B, F, T, N) per CV, standard errors @p sem and
/// 10–90 % widths of 1.
Figure4Result figure4(const std::vector<std::pair<double, std::array<double, 4>>>& points, double sem = 1e-4) {
  Figure4Result r;
  r.n = 4;
  r.runs = 1000;
  for (const auto& [cv, means] : points) {
    Figure4Point p{cv, {}};
    for (std::size_t a = 0; a < 4; ++a) {
      AlgorithmOutcome o;
      o.algorithm = ALL_ALGORITHMS[a];
      o.summary.mean = means[a];
      o.summary.sem = sem;
      o.summary.q10 = means[a] - 0.5;
      o.summary.q90 = means[a] + 0.5;
      p.outcomes.push_back(o);
    }
    r.points.push_back(p);
  }
  return r;
}

bool has_note(const std::vector<StudyNote>& notes, const std::string& words) {
  return std::any_of(notes.begin(), notes.end(), [&](const StudyNote& n) { return n.claim.find(words) != std::string::npos; });
}

const StudyNote& find_note(const std::vector<StudyNote>& notes, const std::string& figure, const std::string& words) {
  for (const auto& n : notes) {
    if (n.figure == figure && n.claim.find(words) != std::string::npos) return n;
  }
  ADD_FAILURE() << "no note " << figure << " \"" << words << "\"";
  return notes.front();
}

TEST(LogSpaced, EndsAreExactAndStepsEqual) {
  const auto cvs = log_spaced(CV_MIN, CV_MAX, DEFAULT_CV_POINTS);
  ASSERT_EQ(cvs.size(), 22U);
  EXPECT_EQ(cvs.front(), 0.01);
  EXPECT_EQ(cvs.back(), 10.0);
  for (std::size_t k = 1; k < cvs.size(); ++k) {
    EXPECT_NEAR(std::log10(cvs[k] / cvs[k - 1]), 1.0 / 7, 1e-12) << " k=" << k;
  }
  EXPECT_NEAR(cvs[7], 0.1, 1e-15);
  EXPECT_NEAR(cvs[14], 1.0, 1e-14);
  const auto ratios = log_spaced(COST_RATIO_MIN, COST_RATIO_MAX, DEFAULT_COST_RATIO_POINTS);
  for (std::size_t j = 0; j < ratios.size(); ++j) {
    EXPECT_NEAR(ratios[j] * ratios[ratios.size() - 1 - j], 1.0, 1e-12) << " j=" << j;
  }
}

TEST(LogSpaced, RejectsBadGridsNamingThem) {
  try {
    (void)log_spaced(0.01, 10, 1);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("1 grid points"));
  }
  try {
    (void)log_spaced(0, 10, 5);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("from 0 to 10"));
  }
  EXPECT_THROW((void)log_spaced(2, 1, 5), InputError);
}

TEST(Spread, ThePapersDispersionExample) {
  // Section 5: "if all ratios are between 1.3 and 1.4, then the range is 0.1 and the maximum
  // distance to 1 is 0.4, which gives a dispersion of 0.25".
  GridResult g;
  g.runs = 1;
  g.cvs = {0.2};
  g.cost_ratios = {1};
  g.distributions = {DistributionKind::GAMMA, DistributionKind::UNIFORM, DistributionKind::TRIANGLE,
                     DistributionKind::BETA_100};
  g.cells = {cell(1, 13, 10, 2), cell(1, 14, 10, 2), cell(3, 13.5, 10, 2), skipped()};
  const auto s = spread(g, 0, 0);
  EXPECT_EQ(s.laws, 3);
  EXPECT_EQ(s.skipped, 1);
  EXPECT_NEAR(s.dispersion, 0.25, 1e-12);
  EXPECT_EQ(s.argmin, DistributionKind::GAMMA);
  EXPECT_EQ(s.argmax, DistributionKind::UNIFORM);
  // Best non-commutative methods: Binomial-stat, Binomial-stat, Non-Commut-Tree-dyn.
  EXPECT_EQ(s.modal_best, Algorithm::BINOMIAL_STAT);
  EXPECT_EQ(s.modal_count, 2);
  EXPECT_NEAR(s.inconsistency, 1.0 / 3, 1e-12);
}

TEST(Spread, AboveOneWhenTheLawsDisagreeOnTheFaster) {
  GridResult g;
  g.runs = 1;
  g.cvs = {0.2};
  g.cost_ratios = {1};
  g.distributions = {DistributionKind::GAMMA, DistributionKind::UNIFORM};
  g.cells = {cell(1, 9, 10, 2), cell(1, 12, 10, 2)};
  EXPECT_NEAR(spread(g, 0, 0).dispersion, 0.3 / 0.2, 1e-12);
  g.cells = {skipped(), skipped()};
  EXPECT_EQ(spread(g, 0, 0).laws, 0);
  EXPECT_TRUE(std::isnan(spread(g, 0, 0).dispersion));
}

TEST(Figure5Notes, HalfTheCommunicationCostIsReadWithinAFactorSqrt2) {
  const auto wins_from = [](double threshold) {
    return [threshold](double cv, double x) { return cv < 1 && x >= threshold * 0.999 && x <= 1 / threshold * 1.001 ? 0.9 : 1.2; };
  };
  const auto ratios = log_spaced(0.1, 10, 9);  // 0.1, 0.178, 0.316, 0.562, 1, …
  const auto agree = synthetic_grid({0.01, 0.1, 1, 10}, ratios, wins_from(ratios[3]));
  EXPECT_TRUE(find_note(figure5_notes(agree, 0), "5(a)", "around half").agrees);
  EXPECT_TRUE(find_note(figure5_notes(agree, 0), "5(b)", "transition").agrees);
  EXPECT_TRUE(find_note(figure5_notes(agree, 0), "5(a)", "symmetrical").agrees);
  EXPECT_TRUE(find_note(figure5_notes(agree, 0), "5(b)", "dispersion is large").agrees);
  const auto early = synthetic_grid({0.01, 0.1, 1, 10}, ratios, wins_from(ratios[1]));
  const auto note = find_note(figure5_notes(early, 0), "5(a)", "around half");
  EXPECT_FALSE(note.agrees);
  EXPECT_THAT(note.finding, HasSubstr("from 0.178 to 5.62"));
}

TEST(Figure5Notes, AnAsymmetricMapIsReported) {
  const auto ratios = log_spaced(0.1, 10, 5);
  const auto g = synthetic_grid({0.01, 1}, ratios, [](double, double x) { return x < 1 ? 1.2 : 1.3; });
  const auto note = find_note(figure5_notes(g, 0), "5(a)", "symmetrical");
  EXPECT_FALSE(note.agrees);
  EXPECT_THAT(note.finding, HasSubstr("1.2000 vs 1.3000"));
}

TEST(Figure6Notes, ShareAndMedianOfTheDispersions) {
  // Four cells, two laws: dispersions 0.25, 1/3, 0.25, 2 → 3 of 4 below 1, median 0.2917.
  GridResult g;
  g.runs = 1;
  g.cvs = {0.2, 0.3};
  g.cost_ratios = {0.5, 2};
  g.distributions = {DistributionKind::GAMMA, DistributionKind::UNIFORM};
  g.cells = {cell(1, 13, 10, 2), cell(1, 12, 10, 2), cell(1, 13, 10, 2), cell(1, 9, 10, 2),   // gamma
             cell(1, 14, 10, 2), cell(1, 13, 10, 2), cell(1, 14, 10, 2), cell(1, 11, 10, 2)};  // uniform
  const auto notes = figure6_notes(g);
  const auto share = find_note(notes, "6(a)", "95%");
  EXPECT_FALSE(share.agrees);
  EXPECT_THAT(share.finding, HasSubstr("3 of 4 cells (75.0 %)"));
  const auto median = find_note(notes, "6(a)", "median");
  EXPECT_THAT(median.finding, HasSubstr("0.292"));
  EXPECT_TRUE(median.agrees);
  EXPECT_TRUE(find_note(notes, "6(b)", "frontiers").agrees);  // every law agrees everywhere
}

TEST(Figure6Notes, NoDivergenceAboveCv5WhereTheExponentialDoesNotRun) {
  GridResult g;
  g.runs = 1;
  g.cvs = {0.2, 8};
  g.cost_ratios = {1};
  g.distributions = {DistributionKind::GAMMA, DistributionKind::BERNOULLI, DistributionKind::EXPONENTIAL};
  g.cells = {cell(1, 13, 10, 2), cell(1, 12, 10, 2),   // gamma
             cell(1, 14, 10, 2), cell(1, 12.5, 10, 2),  // bernoulli
             cell(1, 13, 10, 2), skipped()};            // exponential: CV 8 is outside [0, 1]
  const auto notes = figure6_notes(g);
  const auto exponential = find_note(notes, "6(a)", "exponential");
  EXPECT_TRUE(exponential.agrees) << exponential.finding;
  const auto areas = find_note(notes, "6(a)", "three areas");
  EXPECT_FALSE(areas.agrees);  // no divergence at all: the paper's areas do not appear
  EXPECT_THAT(areas.finding, HasSubstr("no cell has a dispersion above 1"));
}

TEST(Figure4Notes, AContraryDifferenceRefutesBeyondSignificantSe) {
  const double sem = 1e-3;
  const double se_diff = std::sqrt(2) * sem;
  for (const double z : {SIGNIFICANT_SE - 0.5, SIGNIFICANT_SE + 0.5}) {
    // Non-Commut-Tree-dyn below Tree-dyn by z standard errors of the difference.
    const auto notes = figure4_notes(figure4({{0.5, {12, 13, 10, 10 - z * se_diff}}}, sem));
    const auto best = find_note(notes, "4", "Tree-dyn has the best");
    EXPECT_EQ(best.agrees, z < SIGNIFICANT_SE) << " z=" << z << ": " << best.finding;
    EXPECT_THAT(best.finding, HasSubstr("at 0 of 1 CVs; CV 0.5: noncommut-tree-dyn lower by"));
  }
}

TEST(Figure4Notes, PerformanceDecreasesSignificantlyFromAGrowthOfSignificantGrowth) {
  for (const double growth : {SIGNIFICANT_GROWTH - 0.01, SIGNIFICANT_GROWTH + 0.01}) {
    const std::array<double, 4> at_1 = {11, 12, 10, 10.5};
    std::array<double, 4> at_10 = at_1;
    for (double& m : at_10) m *= growth;
    at_10[1] *= 2;  // only the least growth counts
    const auto notes = figure4_notes(figure4({{0.5, at_1}, {1, at_1}, {10, at_10}}));
    const auto note = find_note(notes, "4", "decreases significantly");
    EXPECT_EQ(note.agrees, growth >= SIGNIFICANT_GROWTH) << " growth=" << growth << ": " << note.finding;
    EXPECT_THAT(note.finding, HasSubstr("from CV 1 to CV 10"));
    EXPECT_THAT(note.finding, HasSubstr("(criterion: 1.25)"));
  }
}

TEST(Figure4Notes, StatementsAboutCvsTheStudyDoesNotReachAreLeftOut) {
  const auto notes = figure4_notes(figure4({{0.2, {11, 12, 10, 13}}, {0.5, {11, 12, 10, 10.5}}}));
  ASSERT_EQ(notes.size(), 4U);  // best, worst, second above CV 0.3, stable longer
  EXPECT_TRUE(has_note(notes, "Non-Commut-Tree-dyn has the second best"));
  EXPECT_TRUE(has_note(notes, "remain stable longer"));
  for (const std::string words : {"lower than 0.1", "greater than 1", "close to 10", "Markov chain", "2H(n/2)"}) {
    EXPECT_FALSE(has_note(notes, words)) << words;
  }
  EXPECT_TRUE(figure4_notes(Figure4Result{}).empty());
}

TEST(Figure4Study, SmallStudyIsVerifiedAndItsNotesComputed) {
  StudyOptions o;
  o.n = 16;
  o.runs = 3000;
  o.seed = 4;
  std::uint64_t last = 0;
  o.progress = [&](std::uint64_t done, std::uint64_t total) {
    EXPECT_LE(done, total);
    EXPECT_EQ(total, 3 * 3000U);
    last = done;
  };
  const std::vector<double> cvs = {0.01, 1, 10};
  const auto r = figure4_study(cvs, o);
  EXPECT_EQ(last, 3 * 3000U);
  EXPECT_TRUE(r.all_verified());
  ASSERT_EQ(r.points.size(), 3U);
  for (const auto& p : r.points) {
    ASSERT_EQ(p.outcomes.size(), 4U);
    for (std::size_t a = 0; a < 4; ++a) {
      EXPECT_EQ(p.outcomes[a].algorithm, ALL_ALGORITHMS[a]);
      EXPECT_EQ(p.outcomes[a].verified, 3000U);
    }
  }
  const auto notes = figure4_notes(r);
  // At CV 1 gamma is Exp(1): the chain is met and the printed 2H(8) + 1/8 is rejected.
  const auto chain = find_note(notes, "4", "Markov chain");
  EXPECT_TRUE(chain.agrees) << chain.finding;
  const auto printed = find_note(notes, "4", "(2H(n/2) + 2/n)");
  EXPECT_FALSE(printed.agrees) << printed.finding;
  for (const auto& n : notes) EXPECT_FALSE(n.finding.empty()) << n.claim;
}

TEST(GridStudy, SkipsAndCountsCellsOutsideALawsRange) {
  StudyOptions o;
  o.n = 12;
  o.runs = 100;
  const std::vector<double> cvs = {0.1, 0.5};
  const std::vector<double> ratios = {0.5, 2};
  const std::vector<DistributionKind> laws = {DistributionKind::GAMMA, DistributionKind::TRIANGLE};
  const auto r = grid_study(cvs, ratios, laws, o);
  EXPECT_EQ(r.cells.size(), 8U);
  EXPECT_EQ(r.skipped(), 2U);  // triangle stops at CV 1/√6 ≈ 0.408
  EXPECT_TRUE(r.all_verified());
  EXPECT_TRUE(r.at(1, 1, 0).skipped);
  EXPECT_FALSE(r.at(1, 0, 1).skipped);
  EXPECT_EQ(spread(r, 1, 0).laws, 1);
  EXPECT_EQ(spread(r, 1, 0).skipped, 1);
  // Same numbers on one thread.
  o.threads = 1;
  const auto again = grid_study(cvs, ratios, laws, o);
  for (std::size_t k = 0; k < r.cells.size(); ++k) {
    for (std::size_t a = 0; a < 4; ++a) EXPECT_EQ(again.cells[k].summary[a].mean, r.cells[k].summary[a].mean);
  }
  EXPECT_THROW((void)grid_study(cvs, {}, laws, o), InputError);
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant
