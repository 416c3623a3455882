#include <starnet/algorithms/nonclairvoyant/worst_case.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace starnet::algorithms::nonclairvoyant {
namespace {

using ::testing::HasSubstr;

const double LOG2_PHI = std::log2((1 + std::sqrt(5.0)) / 2);

/// The instance's costs really have the extremes it declares (brute force over all pairs).
void expect_declared_extremes(const WorstCaseInstance& w) {
  const int n = w.n();
  Rational d_min = w.costs.d(0, 1);
  Rational d_max = d_min;
  Rational c_min = w.costs.c(0);
  Rational c_max = c_min;
  for (int i = 0; i < n; ++i) {
    c_min = std::min(c_min, w.costs.c(i));
    c_max = std::max(c_max, w.costs.c(i));
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      d_min = std::min(d_min, w.costs.d(i, j));
      d_max = std::max(d_max, w.costs.d(i, j));
    }
  }
  EXPECT_EQ(d_min, w.d) << w.name << " n=" << n;
  EXPECT_EQ(d_max, w.D) << w.name << " n=" << n;
  EXPECT_EQ(c_min, w.c) << w.name << " n=" << n;
  EXPECT_EQ(c_max, w.C) << w.name << " n=" << n;
}

/// The optimum is certified: the witness meets the lower bound OPT_hom(n, d, c) of Algorithm 1.
void expect_certified(const WorstCaseInstance& w, const std::vector<WorstCaseOutcome>& out) {
  EXPECT_EQ(w.lower_bound, trees::greedy_plan(w.n(), trees::CostModel(w.d, w.c)).length) << w.name;
  for (const auto& o : out) {
    EXPECT_TRUE(o.verified) << w.name << " " << to_string(o.algorithm) << " n=" << o.n;
    EXPECT_TRUE(o.optimum_certified) << w.name << " n=" << o.n << " witness " << o.optimum.to_string()
                                     << " lower bound " << w.lower_bound.to_string();
    EXPECT_EQ(o.ratio, o.makespan / o.optimum);
    EXPECT_LE(o.ratio.to_double(), o.bound * (1 + 1e-12)) << w.name << " n=" << o.n;
  }
}

TEST(WorstCase, Theorem1FirstRatioIsReachedExactly) {
  // c = 0, C = 3, d = 1, D = 4: Binomial-stat and Tree-dyn take (C + D)·log₂n, the optimum d·log₂n.
  for (int m = 1; m <= 8; ++m) {
    const auto w = theorem1_instance(m, 1, 4, 0, 3);
    if (m <= 6) expect_declared_extremes(w);
    const auto out = run_worst_case(w);
    ASSERT_EQ(out.size(), 2U);
    expect_certified(w, out);
    for (const auto& o : out) {
      EXPECT_EQ(o.makespan, Rational(7 * m)) << to_string(o.algorithm) << " m=" << m;
      EXPECT_EQ(o.optimum, Rational(m)) << " m=" << m;
      EXPECT_EQ(o.ratio, Rational(7)) << to_string(o.algorithm) << " m=" << m;
      EXPECT_DOUBLE_EQ(o.bound, 7.0);
    }
  }
}

TEST(WorstCase, Theorem1SendsEveryValueDownwardToAnEvenProcessor) {
  // The proof's scenario: every transfer from P_i to P_j with i > j, every reducer even.
  const auto w = theorem1_instance(4, 1, 4, 0, 3);
  for (const Algorithm a : w.algorithms) {
    const auto run = emulate(a, w.costs, /*trace=*/true);
    int sends = 0;
    for (const auto& e : run.trace) {
      if (e.kind != emulator::EventKind::SEND) continue;
      ++sends;
      EXPECT_GT(e.node, e.peer) << to_string(a);
      EXPECT_EQ(e.peer % 2, 0U) << to_string(a);
    }
    EXPECT_EQ(sends, 15) << to_string(a);
  }
}

TEST(WorstCase, Theorem1SecondRatioApproachesItsLimit) {
  // c = d = 1, C = D = 4: the ratio (C + D)·m / OPT_hom stays below the printed bound and tends
  // to (C + D)/c · log₂φ ≈ 5.55 as n grows (slowly: OPT_hom is a whole number of steps).
  double previous_gap = 1e9;
  for (const int m : {3, 6, 10, 12}) {
    const auto w = theorem1_instance(m, 1, 4, 1, 4);
    if (m <= 6) expect_declared_extremes(w);
    const auto out = run_worst_case(w);
    expect_certified(w, out);
    for (const auto& o : out) {
      EXPECT_EQ(o.makespan, Rational(8 * m)) << to_string(o.algorithm) << " m=" << m;
      EXPECT_FALSE(o.bound_exact);
    }
    const double gap = 8 * LOG2_PHI - out.front().ratio.to_double();
    EXPECT_LE(gap, previous_gap + 1e-12) << " m=" << m;
    previous_gap = gap;
  }
  EXPECT_LT(previous_gap / (8 * LOG2_PHI), 0.05);  // m = 12: within 5 % of the limit
}

TEST(WorstCase, FibonacciStatOnEightProcessorsIsThePapersFourThirds) {
  const auto w = theorem2_root_instance(8, 1, 4);
  expect_declared_extremes(w);
  const auto out = run_worst_case(w);
  ASSERT_EQ(out.size(), 1U);
  expect_certified(w, out);
  EXPECT_EQ(out[0].makespan, Rational(16));  // four receptions of D = 4 at the root
  EXPECT_EQ(out[0].optimum, Rational(3));    // 3d
  EXPECT_EQ(out[0].ratio, Rational(16, 3));  // 4D/(3d)
}

TEST(WorstCase, Theorem2FirstRatioGrowsTowardsOneOverLog2Phi) {
  for (const int n : {13, 64, 100, 1024, 4096}) {
    const auto w = theorem2_root_instance(n, 1, 4);
    if (n <= 100) expect_declared_extremes(w);
    const auto out = run_worst_case(w);
    expect_certified(w, out);
    const auto plan = static_plan(Algorithm::FIBONACCI_STAT, n);
    const auto k = static_cast<std::int64_t>(plan.children[static_cast<std::size_t>(plan.root)].size());
    EXPECT_EQ(out[0].makespan, Rational(4 * k)) << " n=" << n;
    EXPECT_EQ(out[0].optimum, Rational(trees::ceil_log2(n))) << " n=" << n;
  }
  // n = 4096 (order 17): 17·4/12 = 5.67 D/d, against the asymptotic 4/log₂φ = 5.76.
  EXPECT_EQ(run_worst_case(theorem2_root_instance(4096, 1, 4))[0].ratio, Rational(17, 3));
}

TEST(WorstCase, Theorem2SecondRatioHasACertifiedOptimum) {
  for (int k = 1; k <= 12; ++k) {
    const auto w = theorem2_all_max_instance(k, 1, 4);
    if (k <= 8) expect_declared_extremes(w);
    const auto out = run_worst_case(w);
    EXPECT_TRUE(out[0].verified) << " k=" << k;
    EXPECT_TRUE(out[0].optimum_certified) << " k=" << k;
    EXPECT_EQ(out[0].optimum, Rational(k + 1)) << " k=" << k;
  }
}

// Theorem 2's second ratio max(C, D)/min(c, d) = 4 is reached exactly, because Fibonacci-stat
// overlaps a reception with the previous reduction (without that overlap it went up to 7.5).
TEST(WorstCase, Theorem2SecondRatioIsReachedExactly) {
  for (int k = 1; k <= 12; ++k) {
    const auto w = theorem2_all_max_instance(k, 1, 4);
    const auto out = run_worst_case(w);
    expect_certified(w, out);
    EXPECT_EQ(out[0].makespan, Rational(4 * (k + 1))) << " k=" << k;
    EXPECT_EQ(out[0].optimum, Rational(k + 1)) << " k=" << k;
    EXPECT_EQ(out[0].ratio, Rational(4)) << " k=" << k;
    EXPECT_TRUE(out[0].bound_exact);
  }
}

TEST(WorstCase, Figure3NonCommutTreeDynTakesFourSteps) {
  for (const auto& eps : {Rational(1, 2), Rational(1, 10), Rational(1, 1000)}) {
    const auto w = figure3_instance(1, 4, eps);
    expect_declared_extremes(w);
    const auto out = run_worst_case(w);
    expect_certified(w, out);
    EXPECT_EQ(out[0].makespan, Rational(16) - eps) << " eps=" << eps.to_string();  // 4D − ε
    EXPECT_EQ(out[0].optimum, Rational(3));
    EXPECT_EQ(out[0].ratio, (Rational(16) - eps) / 3);
  }
  // Without the ε the ties let P0/P2 and P4/P6 pair first: three steps, as for Binomial-stat.
  const auto tie = FixedCosts([](int i, int j) { return i > j ? Rational(4) : Rational(1); }, std::vector<Rational>(8, 0));
  EXPECT_EQ(emulate(Algorithm::NONCOMMUT_TREE_DYN, tie).makespan, Rational(12));
}

TEST(WorstCase, DefaultSetIsCertifiedEverywhere) {
  for (const auto& w : table1_instances()) {
    for (const auto& o : run_worst_case(w)) {
      EXPECT_TRUE(o.verified && o.optimum_certified) << w.name << " n=" << w.n();
      EXPECT_LE(o.ratio.to_double(), o.bound * (1 + 1e-12)) << w.name << " n=" << w.n();
      if (o.bound_exact) {
        EXPECT_DOUBLE_EQ(o.ratio.to_double(), o.bound) << w.name << " n=" << w.n();
      }
    }
  }
}

TEST(WorstCase, RejectsBadParametersNamingThem) {
  const auto expect_message = [](const auto& build, const std::string& text) {
    try {
      (void)build();
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(text));
    }
  };
  expect_message([] { return theorem1_instance(0, 1, 4, 0, 3); }, "m = 0");
  expect_message([] { return theorem1_instance(3, 1, 4, Rational(1, 2), 3); }, "c = 1/2");
  expect_message([] { return theorem1_instance(3, 0, 4, 0, 3); }, "d = 0");
  expect_message([] { return theorem1_instance(3, 2, 1, 0, 3); }, "D = 1");
  expect_message([] { return theorem1_instance(3, 1, 4, 1, 0); }, "C = 0");
  expect_message([] { return theorem2_root_instance(1, 1, 4); }, "n = 1");
  expect_message([] { return theorem2_all_max_instance(23, 1, 4); }, "order k = 23");
  expect_message([] { return figure3_instance(1, 4, 4); }, "epsilon = 4");
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant
