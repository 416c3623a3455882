#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace starnet::algorithms::nonclairvoyant {
namespace {

using stochastic::DistributionKind;
using ::testing::HasSubstr;

const std::vector<Algorithm> ALL = {Algorithm::BINOMIAL_STAT, Algorithm::FIBONACCI_STAT, Algorithm::TREE_DYN,
                                    Algorithm::NONCOMMUT_TREE_DYN};

FixedCosts uniform(int n, Rational d, Rational c) {
  return FixedCosts([d](int, int) { return d; }, std::vector<Rational>(static_cast<std::size_t>(n), c));
}

TEST(EmulateStudyRun, KeepingTheTraceChangesNothing) {
  const std::vector<Scenario> scenarios = {{64, DistributionKind::GAMMA, 2, 1, 0},
                                           {33, DistributionKind::BETA_0_01, 0.5, 1, 0.7},
                                           {10, DistributionKind::BERNOULLI, 1.5, 2, 3}};
  for (const auto& s : scenarios) {
    for (const Algorithm a : ALL) {
      for (const std::uint64_t run : {0ULL, 1ULL, 977ULL}) {
        const auto plain = emulate_study_run(a, s, /*seed=*/7, run, /*trace=*/false);
        const auto traced = emulate_study_run(a, s, /*seed=*/7, run);
        EXPECT_EQ(traced.makespan, plain.makespan) << to_string(a) << " n=" << s.n << " run=" << run;
        EXPECT_TRUE(traced.verified) << to_string(a) << " n=" << s.n << " run=" << run;
        EXPECT_TRUE(plain.trace.empty());
        ASSERT_FALSE(traced.trace.empty());
        EXPECT_EQ(traced.trace.back().time, traced.makespan) << to_string(a) << " n=" << s.n << " run=" << run;
      }
    }
  }
}

TEST(EmulateStudyRun, IsTheStudysSample) {
  MonteCarlo mc;
  const Scenario s{20, DistributionKind::UNIFORM, 0.4, 1, 0.5};
  mc.algorithms(ALL).scenario(s).runs(50).seed(3).threads(2).keep_samples(true);
  mc.run();
  for (std::size_t a = 0; a < ALL.size(); ++a) {
    for (const std::uint64_t run : {0ULL, 17ULL, 49ULL}) {
      EXPECT_EQ(emulate_study_run(ALL[a], s, 3, run, /*trace=*/false).makespan, mc.outcomes()[a].makespans[run])
          << to_string(ALL[a]) << " run=" << run;
    }
  }
}

TEST(EmulateStudyRun, RejectsABadScenarioNamingIt) {
  try {
    (void)emulate_study_run(Algorithm::TREE_DYN, {8, DistributionKind::UNIFORM, 0.9, 1, 0}, 1, 0);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("uniform"));
    EXPECT_THAT(e.what(), HasSubstr("0.9"));
  }
}

TEST(Emulate, UniformCostsGiveTheHomogeneousTreeLengths) {
  // d = 2, c = 1 on 2^k processors: Proposition 13 of Canon and Antoniu.
  const trees::CostModel model(2, 1);
  for (int k = 1; k <= 5; ++k) {
    const auto binomial = emulate(Algorithm::BINOMIAL_STAT, uniform(1 << k, 2, 1));
    EXPECT_TRUE(binomial.verified) << " k=" << k;
    EXPECT_EQ(binomial.makespan, trees::binomial_tree_length(k, model)) << " k=" << k;
    // Homogeneous costs: everybody pairs up in rounds, as Binomial-stat does.
    for (const Algorithm a : {Algorithm::TREE_DYN, Algorithm::NONCOMMUT_TREE_DYN}) {
      const auto run = emulate(a, uniform(1 << k, 2, 1));
      EXPECT_TRUE(run.verified) << to_string(a) << " k=" << k;
      EXPECT_EQ(run.makespan, trees::binomial_tree_length(k, model)) << to_string(a) << " k=" << k;
    }
  }
}

// A machine receives its next value while it reduces the previous one: Fibonacci-stat is defined
// by that overlap (Section 3: "during the last computation of FS_(k−1), the root of FS_(k−2)
// sends its value"), and Theorem 2's bound D + (k−1)max(D, C) + C needs it. Without it, n = 3,
// d = 2, c = 1 took 2(d + c) = 6 instead of d + max(d, c) + c = 5.
TEST(Emulate, FibonacciStatOverlapsReceptionsWithReductions) {
  const trees::CostModel model(2, 1);
  for (int k = 1; k <= 6; ++k) {
    const auto n = static_cast<int>(trees::fibonacci_number(k + 2));
    const auto fibonacci = emulate(Algorithm::FIBONACCI_STAT, uniform(n, 2, 1));
    EXPECT_TRUE(fibonacci.verified) << " k=" << k;
    EXPECT_EQ(fibonacci.makespan, trees::fibonacci_tree_length(k, model)) << " k=" << k;
  }
}

TEST(Emulate, TreeDynOnThreeProcessorsByHand) {
  // t = 0: P0 waits in the slot, P1 sends to P0 (d10), P2 waits in the slot. P0 reduces (c0),
  // finds P2 in the slot and sends to it (d02); P2 reduces (c2).
  std::vector<std::vector<Rational>> d = {{0, 5, Rational(7, 2)}, {Rational(3, 2), 0, 9}, {8, 8, 0}};
  const auto costs = FixedCosts::from_matrices(d, {Rational(1, 3), 4, 2});
  const auto run = emulate(Algorithm::TREE_DYN, costs, /*trace=*/true);
  EXPECT_TRUE(run.verified);
  EXPECT_EQ(run.makespan, Rational(3, 2) + Rational(1, 3) + Rational(7, 2) + 2);
  std::vector<std::pair<emulator::NodeId, emulator::NodeId>> sends;
  for (const auto& e : run.trace) {
    if (e.kind == emulator::EventKind::SEND) sends.emplace_back(e.node, e.peer);
  }
  EXPECT_EQ(sends, (std::vector<std::pair<emulator::NodeId, emulator::NodeId>>{{1, 0}, {0, 2}}));
}

TEST(FixedCosts, RejectsMatricesNamingTheEntry) {
  try {
    (void)FixedCosts::from_matrices({{0, 1}, {-2, 0}}, {1, 1});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("d_1,0 = -2"));
  }
  try {
    (void)FixedCosts::from_matrices({{0, 1}, {1}}, {1, 1});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("row 1"));
  }
  try {
    (void)FixedCosts::from_matrices({{0, 1}, {1, 0}}, {1, 1, 1});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("n = 3"));
  }
  try {
    (void)FixedCosts([](int, int) { return Rational(1); }, {1, Rational(-1, 2)});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("c_1 = -1/2"));
  }
  EXPECT_THROW((void)FixedCosts([](int, int) { return Rational(1); }, {}), InputError);
}

TEST(FixedCosts, ANegativeRuleValueStopsTheRunNamingThePair) {
  const FixedCosts costs([](int i, int j) { return i == 1 && j == 0 ? Rational(-1) : Rational(1); }, {0, 0});
  try {
    (void)emulate(Algorithm::TREE_DYN, costs);
    FAIL();
  } catch (const ScheduleError& e) {
    EXPECT_THAT(e.what(), HasSubstr("d_1,0 = -1"));
  }
}

TEST(EmulateTree, RelabellingMovesTheTreeOntoOtherProcessors) {
  // Machine 1 sends to machine 0. Played by P1 → P0 it costs d10 = 5; relabelled, P0 → P1: 2.
  const auto plan = trees::plan_asap("pair", trees::CostModel(1, 0), std::vector<int>{-1, 0});
  const auto costs = FixedCosts::from_matrices({{0, 2}, {5, 0}}, {0, 0});
  const auto straight = emulate_tree(plan, std::vector<int>{0, 1}, costs);
  const auto swapped = emulate_tree(plan, std::vector<int>{1, 0}, costs);
  EXPECT_TRUE(straight.verified);
  EXPECT_TRUE(swapped.verified);
  EXPECT_EQ(straight.makespan, Rational(5));
  EXPECT_EQ(swapped.makespan, Rational(2));
}

TEST(EmulateTree, RejectsLabelsThatAreNotAPermutation) {
  const auto plan = trees::binomial_plan(4, trees::CostModel(1, 0));
  const auto costs = uniform(4, 1, 0);
  try {
    (void)emulate_tree(plan, std::vector<int>{0, 1, 1, 3}, costs);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("label[2] = 1"));
  }
  EXPECT_THROW((void)emulate_tree(plan, std::vector<int>{0, 1, 2}, costs), InputError);
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant
