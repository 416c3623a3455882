#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace starnet::algorithms::nonclairvoyant {
namespace {

using stochastic::DistributionKind;

const std::vector<Algorithm> ALL = {Algorithm::BINOMIAL_STAT, Algorithm::FIBONACCI_STAT, Algorithm::TREE_DYN,
                                    Algorithm::NONCOMMUT_TREE_DYN};

TEST(StaticTree, BinomialStatIsRoundByRoundPairing) {
  // Round k: processor i·2^k + 2^(k−1) sends to i·2^k, i.e. parent(j) = j with its lowest bit cleared.
  const auto parent = static_tree(Algorithm::BINOMIAL_STAT, 13);
  ASSERT_EQ(parent.size(), 13U);
  EXPECT_EQ(parent[0], -1);
  for (int j = 1; j < 13; ++j) EXPECT_EQ(parent[static_cast<std::size_t>(j)], j & (j - 1)) << " j=" << j;
}

TEST(StaticTree, FibonacciStatIsTheFirstNProcessorsOfTheSmallestFibonacciSchedule) {
  const auto parent = static_tree(Algorithm::FIBONACCI_STAT, 10);  // F_7 = 13 ≥ 10 > F_6 = 8: order 5
  const auto full = trees::fibonacci_tree(5);
  ASSERT_EQ(full.size(), 13U);
  EXPECT_EQ(parent, std::vector<int>(full.begin(), full.begin() + 10));
  EXPECT_THROW((void)static_tree(Algorithm::TREE_DYN, 4), UsageError);
}

TEST(MonteCarlo, EveryRunOfEveryAlgorithmIsVerified) {
  for (const auto kind : {DistributionKind::GAMMA, DistributionKind::BERNOULLI, DistributionKind::UNIFORM}) {
    MonteCarlo mc;
    mc.algorithms(ALL).scenario({33, kind, 0.3, 1, 0.5}).runs(200).seed(5).threads(2);
    mc.run();
    for (const auto& o : mc.outcomes()) {
      EXPECT_EQ(o.verified, 200U) << to_string(o.algorithm) << " " << stochastic::to_string(kind);
      EXPECT_EQ(o.summary.count, 200U);
      EXPECT_LE(o.summary.q10, o.summary.q50);
      EXPECT_LE(o.summary.q50, o.summary.q90);
    }
  }
}

TEST(MonteCarlo, SameNumbersWhateverTheThreadCount) {
  std::vector<std::vector<double>> samples;
  for (const unsigned t : {1U, 2U, 3U}) {
    MonteCarlo mc;
    mc.algorithms(ALL).scenario({64, DistributionKind::GAMMA, 2, 1, 0}).runs(300).seed(11).threads(t).keep_samples(true);
    mc.run();
    std::vector<double> all;
    for (const auto& o : mc.outcomes()) all.insert(all.end(), o.makespans.begin(), o.makespans.end());
    samples.push_back(all);
  }
  EXPECT_EQ(samples[0], samples[1]);
  EXPECT_EQ(samples[0], samples[2]);
}

TEST(MonteCarlo, ConstantCostsGiveTheHomogeneousLengths) {
  // CV = 0, d = 1, c = 0: Binomial-stat and Tree-dyn take ⌈log₂ 64⌉ = 6; Fibonacci-stat is the
  // Fibonacci schedule of order 9 cut to 64 processors: never shorter than 6.
  MonteCarlo mc;
  mc.algorithms(ALL).scenario({64, DistributionKind::GAMMA, 0, 1, 0}).runs(3);
  mc.run();
  EXPECT_DOUBLE_EQ(mc.outcomes()[0].summary.mean, 6.0);
  EXPECT_GE(mc.outcomes()[1].summary.mean, 6.0);
  EXPECT_DOUBLE_EQ(mc.outcomes()[2].summary.mean, 6.0);
  EXPECT_DOUBLE_EQ(mc.outcomes()[3].summary.mean, 6.0);
  EXPECT_DOUBLE_EQ(mc.outcomes()[0].summary.stddev, 0.0);
}

TEST(MonteCarlo, RejectsBadScenariosNamingTheInput) {
  MonteCarlo mc;
  try {
    mc.scenario({64, DistributionKind::TRIANGLE, 0.5, 1, 0});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("triangle"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("0.5"));
  }
  EXPECT_THROW(mc.scenario({0, DistributionKind::GAMMA, 0.5, 1, 0}), InputError);
  EXPECT_THROW(mc.runs(0), UsageError);
  EXPECT_THROW((void)parse_algorithm("tree-stat"), UsageError);
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant
