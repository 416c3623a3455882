// The non-clairvoyant reductions under random costs as library calls (api/montecarlo.hpp): one
// scenario verified run by run and reproducible from its seed, one run re-emulated with its trace,
// Tree-dyn's mean against the exact Markov chain, a small study, the worst cases of Section 4, and
// the settings a refusal names. Small sizes and one thread: each test takes well under a second.
#include "../core/expect_error.hpp"

#include <starnet/api/markov.hpp>
#include <starnet/api/montecarlo.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace starnet::api {
namespace {

namespace nc = algorithms::nonclairvoyant;

using starnet::testing::setting_of;

MonteCarloRequest small(std::uint64_t seed = 1) {
  MonteCarloRequest r;
  r.n = 8;
  r.runs = 200;
  r.threads = 1;
  r.seed = seed;
  return r;
}

TEST(RunMonteCarlo, EveryRunOfEveryAlgorithmIsVerified) {
  const auto r = run_montecarlo(small());
  EXPECT_TRUE(r.verified()) << (r.failures.empty() ? "" : r.failures.front());
  EXPECT_EQ(r.runs, 200U);
  ASSERT_EQ(r.outcomes.size(), 4U);
  const nc::Algorithm order[] = {nc::Algorithm::BINOMIAL_STAT, nc::Algorithm::FIBONACCI_STAT, nc::Algorithm::TREE_DYN,
                                 nc::Algorithm::NONCOMMUT_TREE_DYN};
  for (std::size_t a = 0; a < 4; ++a) {
    const auto& o = r.outcomes[a];
    const auto name = std::string(nc::to_string(o.algorithm));
    EXPECT_EQ(o.algorithm, order[a]) << name;
    EXPECT_EQ(o.verified, 200U) << name;
    EXPECT_EQ(o.summary.count, 200U) << name;
    EXPECT_GT(o.summary.min, 0) << name;
    EXPECT_LE(o.summary.min, o.summary.q10) << name;
    EXPECT_LE(o.summary.q10, o.summary.q50) << name;
    EXPECT_LE(o.summary.q50, o.summary.q90) << name;
    EXPECT_LE(o.summary.q90, o.summary.max) << name;
    EXPECT_TRUE(o.makespans.empty()) << name;  // kept only to re-emulate a run
  }
  EXPECT_FALSE(r.run.has_value());
  const auto j = r.to_json();
  EXPECT_EQ(j.at("n"), 8);
  EXPECT_EQ(j.at("runs"), 200);
  EXPECT_EQ(j.at("verified"), true);
  ASSERT_EQ(j.at("algorithms").size(), 4U);
  EXPECT_EQ(j.at("algorithms")[2].at("algorithm"), "tree-dyn");
  EXPECT_EQ(j.at("algorithms")[2].at("verified_runs"), 200);
  const auto csv = r.csv();
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);  // a header and one line per algorithm
}

TEST(RunMonteCarlo, TheSameSeedGivesTheSameNumbersWhateverTheThreads) {
  const auto one = run_montecarlo(small(/*seed=*/7));
  auto two_threads = small(/*seed=*/7);
  two_threads.threads = 2;
  const auto again = run_montecarlo(two_threads);
  const auto other = run_montecarlo(small(/*seed=*/8));
  ASSERT_EQ(one.outcomes.size(), again.outcomes.size());
  for (std::size_t a = 0; a < one.outcomes.size(); ++a) {
    const auto& x = one.outcomes[a].summary;
    const auto& y = again.outcomes[a].summary;
    EXPECT_EQ(x.mean, y.mean) << " a=" << a;
    EXPECT_EQ(x.stddev, y.stddev) << " a=" << a;
    EXPECT_EQ(x.min, y.min) << " a=" << a;
    EXPECT_EQ(x.q50, y.q50) << " a=" << a;
    EXPECT_EQ(x.max, y.max) << " a=" << a;
    EXPECT_NE(x.mean, other.outcomes[a].summary.mean) << " a=" << a;
  }
}

TEST(RunMonteCarlo, TreeDynWithExponentialTransfersMeetsTheExactMarkovMean) {
  // Gamma costs of CV 1 are exponential; μ_c = 0 is free computation: the chain of api/markov.hpp.
  auto r = small(/*seed=*/3);
  r.algorithms = parse_montecarlo_algorithms("tree-dyn");
  r.runs = 2000;
  const auto out = run_montecarlo(r);
  ASSERT_TRUE(out.verified());
  const auto& s = out.outcomes.front().summary;
  const double exact = tree_dyn_markov(/*n=*/8, "1").expected.get_d();  // 2H(4) − 1/4 = 47/12
  EXPECT_DOUBLE_EQ(exact, 47.0 / 12);
  EXPECT_NEAR(s.mean, exact, 4 * s.sem);
}

TEST(RunMonteCarlo, OneRunReEmulatedWithItsTrace) {
  auto r = small();
  r.algorithms = parse_montecarlo_algorithms("fibonacci-stat");
  r.mu_c = 0.5;
  r.run = 17;
  const auto out = run_montecarlo(r);
  EXPECT_TRUE(out.verified()) << (out.failures.empty() ? "" : out.failures.front());
  ASSERT_TRUE(out.run.has_value());
  ASSERT_EQ(out.outcomes.front().makespans.size(), 200U);
  EXPECT_EQ(out.run->makespan, out.outcomes.front().makespans[17]);
  EXPECT_FALSE(out.run->trace.empty());
  double last = 0;
  for (const auto& e : out.run->trace) last = std::max(last, e.time);
  EXPECT_EQ(last, out.run->makespan);
  ASSERT_NE(out.run->machines, nullptr);
  EXPECT_EQ(out.run->machines->num_nodes(), 8U);
  EXPECT_EQ(out.to_json().at("run").at("run"), 17);
}

TEST(RunMonteCarlo, RefusesBadInputNamingTheSetting) {
  const auto with = [](auto change) {
    auto r = small();
    r.runs = 10;
    change(r);
    return setting_of([&] { (void)run_montecarlo(r); });
  };
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.n = 0; }), "n=0");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.n = 65536; }), "n=65536");
  EXPECT_EQ(setting_of([] { (void)parse_cost_law("cauchy"); }), "dist=cauchy");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.cv = -1; }), "cv=-1");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.cv = NAN; }), "cv=nan");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.dist = parse_cost_law("triangle"), r.cv = 0.5; }), "cv=0.5");  // > 1/√6
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.mu_d = -1; }), "mu_d=-1");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.mu_c = -0.5; }), "mu_c=-0.5");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.mu_c = INFINITY; }), "mu_c=inf");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.runs = 0; }), "runs=0");
  const auto parsed = [](const char* list) { return setting_of([&] { (void)parse_montecarlo_algorithms(list); }); };
  EXPECT_EQ(parsed("tree-dyn,tree-dyn"), "algorithms=tree-dyn,tree-dyn");
  EXPECT_EQ(parsed("tree-dyn,heap"), "algorithms=tree-dyn,heap");
  EXPECT_EQ(parsed(" , "), "algorithms= , ");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.algorithms.clear(); }), "algorithms=");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.algorithms.push_back(r.algorithms.front()); }), "algorithms=");
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.run = 3; }), "run=3");  // four algorithms
  EXPECT_EQ(with([](MonteCarloRequest& r) { r.algorithms = parse_montecarlo_algorithms("tree-dyn"), r.run = 10; }),
            "run=10");
  auto r = small();
  r.n = 0;
  EXPECT_ERROR(InputError, run_montecarlo(r), "n 0", "1..65535");
  EXPECT_ERROR(UsageError, (void)parse_cost_law("cauchy"), "dist cauchy", "gamma");
  r = small();
  r.cv = -1;
  EXPECT_ERROR(UsageError, run_montecarlo(r), "cv -1", "[0, ∞)");
  r = small();
  r.mu_d = -1;
  EXPECT_ERROR(InputError, run_montecarlo(r), "mu_d -1", "≥ 0");
}

TEST(RunMonteCarloStudy, Figure4OnAFewPointsIsVerifiedWithNotes) {
  MonteCarloStudyRequest r;
  r.n = 8;
  r.runs = 50;
  r.points = 2;
  r.threads = 1;
  const auto out = run_montecarlo_study(r);
  EXPECT_TRUE(out.verified());
  const auto* f4 = std::get_if<nc::Figure4Result>(&out.data);
  ASSERT_NE(f4, nullptr);
  ASSERT_EQ(f4->points.size(), 2U);
  EXPECT_DOUBLE_EQ(f4->points.front().cv, nc::CV_MIN);
  EXPECT_DOUBLE_EQ(f4->points.back().cv, nc::CV_MAX);
  EXPECT_EQ(out.simulations(), 2 * 50 * 4);
  EXPECT_FALSE(out.notes.empty());
  const auto j = out.to_json();
  EXPECT_EQ(j.at("study"), "figure4");
  EXPECT_EQ(j.at("points").size(), 2U);
  EXPECT_EQ(j.at("verified"), true);
}

TEST(RunMonteCarloStudy, RefusesBadInputNamingTheSetting) {
  const auto with = [](auto change) {
    MonteCarloStudyRequest r;
    r.n = 8;
    r.runs = 10;
    r.points = 2;
    r.ratio_points = 2;
    r.threads = 1;
    change(r);
    return setting_of([&] { (void)run_montecarlo_study(r); });
  };
  EXPECT_EQ(with([](MonteCarloStudyRequest& r) { r.study = "figure3"; }), "study=figure3");
  EXPECT_EQ(with([](MonteCarloStudyRequest& r) { r.points = 1; }), "points=1");
  EXPECT_EQ(with([](MonteCarloStudyRequest& r) { r.study = "figure5", r.ratio_points = 1; }), "ratio_points=1");
  EXPECT_EQ(with([](MonteCarloStudyRequest& r) { r.runs = 0; }), "runs=0");
  EXPECT_EQ(with([](MonteCarloStudyRequest& r) { r.n = 0; }), "n=0");
}

TEST(MonteCarloWorstCases, EveryInstanceIsVerifiedAndWithinItsBound) {
  const auto r = montecarlo_worst_cases();
  EXPECT_TRUE(r.verified()) << (r.failures.empty() ? "" : r.failures.front());
  ASSERT_FALSE(r.rows.empty());
  for (const auto& row : r.rows) {
    const std::string where = row.instance.name + " " + std::string(nc::to_string(row.outcome.algorithm));
    EXPECT_TRUE(row.outcome.verified) << where;
    EXPECT_TRUE(row.outcome.optimum_certified) << where;
    EXPECT_TRUE(row.within) << where;
    EXPECT_EQ(row.outcome.ratio, row.outcome.makespan / row.outcome.optimum) << where;
    EXPECT_GE(row.outcome.ratio, 1) << where;  // nothing beats the certified optimum
  }
  const auto j = r.to_json();
  EXPECT_EQ(j.at("worst_case").size(), r.rows.size());
  EXPECT_EQ(j.at("verified"), true);
}

}  // namespace
}  // namespace starnet::api
