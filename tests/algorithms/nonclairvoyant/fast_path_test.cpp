// The fast path against the general engine: the same makespans bit for bit on a corpus of every
// algorithm, every law of Table II, CVs from 0 to 3, μ_c = 0 (Figure 4's: zero-cost reductions
// end in the next round at the same time, where the order of events decides) and μ_c > 0, and
// n ∈ {2, 3, 5, 8, 17, 64, 200}; every run verified on both.
#include <starnet/algorithms/nonclairvoyant/fast_path.hpp>
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/core/error.hpp>

#include "../../core/expect_error.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {
namespace {

using stochastic::DistributionKind;

const std::vector<Algorithm> ALL(ALL_ALGORITHMS.begin(), ALL_ALGORITHMS.end());
constexpr int CORPUS_N[] = {2, 3, 5, 8, 17, 64, 200};
constexpr double CORPUS_CV[] = {0, 0.01, 0.3, 1, 3};
constexpr double CORPUS_MU_C[] = {0, 0.5};

/// Runs per scenario: thousands where the general engine is quick, fewer at n = 200.
std::uint64_t corpus_runs(int n) { return n <= 17 ? 3000 : (n <= 64 ? 1000 : 300); }

std::vector<AlgorithmOutcome> sample(const Scenario& s, std::uint64_t runs, bool fast, std::uint64_t seed = 7) {
  MonteCarlo mc;
  mc.algorithms(ALL).scenario(s).runs(runs).seed(seed).threads(0).keep_samples(true).fast_path(fast);
  mc.run();
  return mc.outcomes();
}

/// How many makespans differ in their bits (0 when all agree), and the first that does.
std::string compare(const std::vector<AlgorithmOutcome>& fast, const std::vector<AlgorithmOutcome>& general,
                    std::uint64_t& differing) {
  std::string first;
  for (std::size_t a = 0; a < fast.size(); ++a) {
    for (std::size_t r = 0; r < fast[a].makespans.size(); ++r) {
      const double x = fast[a].makespans[r];
      const double y = general[a].makespans[r];
      if (std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y)) continue;
      if (differing++ == 0) {
        first = std::string(to_string(fast[a].algorithm)) + " run " + std::to_string(r) + ": fast " +
                std::to_string(x) + ", general " + std::to_string(y);
      }
    }
  }
  return first;
}

class FastPathCorpus : public ::testing::TestWithParam<DistributionKind> {};

TEST_P(FastPathCorpus, MakespansAreTheGeneralEnginesBitForBit) {
  const auto law = GetParam();
  int scenarios = 0;
  for (const double cv : CORPUS_CV) {
    if (!stochastic::cv_range(law).contains(cv)) continue;
    for (const double mu_c : CORPUS_MU_C) {
      for (const int n : CORPUS_N) {
        const Scenario s{n, law, cv, 1, mu_c};
        const auto runs = corpus_runs(n);
        const auto fast = sample(s, runs, true);
        const auto general = sample(s, runs, false);
        const std::string where = std::string(stochastic::to_string(law)) + " cv=" + std::to_string(cv) +
                                  " mu_c=" + std::to_string(mu_c) + " n=" + std::to_string(n);
        for (std::size_t a = 0; a < ALL.size(); ++a) {
          EXPECT_EQ(fast[a].verified, runs) << where << " " << to_string(ALL[a]) << " (fast path)";
          EXPECT_EQ(general[a].verified, runs) << where << " " << to_string(ALL[a]) << " (general engine)";
        }
        std::uint64_t differing = 0;
        const auto first = compare(fast, general, differing);
        EXPECT_EQ(differing, 0U) << where << ": first " << first;
        ++scenarios;
      }
    }
  }
  EXPECT_GE(scenarios, 2 * static_cast<int>(std::size(CORPUS_N)));  // CV 0 at least, both μ_c
}

std::string law_name(const ::testing::TestParamInfo<DistributionKind>& law) {
  std::string name(stochastic::to_string(law.param));
  std::erase(name, '.');
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryLaw, FastPathCorpus, ::testing::ValuesIn(stochastic::ALL_DISTRIBUTIONS), law_name);

TEST(FastPath, DiscreteCostsTieAndTheMakespansStillAgree) {
  // Bernoulli at CV 1: every transfer takes 0 or 2, so events tie at every time and zero-duration
  // transfers end in the next round at the same time; integral costs make the ties exact.
  for (const int n : {8, 64}) {
    const Scenario s{n, DistributionKind::BERNOULLI, 1, 1, 0};
    const auto fast = sample(s, 2000, true, 3);
    const auto general = sample(s, 2000, false, 3);
    std::uint64_t differing = 0;
    EXPECT_EQ(compare(fast, general, differing), "") << " n=" << n;
    EXPECT_EQ(differing, 0U) << " n=" << n;
    std::uint64_t zero = 0;
    for (const auto& o : fast) {
      for (const double m : o.makespans) {
        EXPECT_EQ(std::fmod(m, 2), 0) << to_string(o.algorithm) << " n=" << n;  // a sum of 0s and 2s
        zero += m == 0 ? 1 : 0;
      }
    }
    if (n == 8) {
      EXPECT_GT(zero, 0U);  // runs where every transfer took no time: one round after another at 0
    }
  }
}

TEST(FastPath, ConstantCostsGiveTheHomogeneousLengths) {
  // CV 0, μ_d = 1, μ_c = 1/2: Binomial-stat takes log2(n) rounds of d + c, Tree-dyn the same.
  const auto out = sample({64, DistributionKind::GAMMA, 0, 1, 0.5}, 10, true);
  EXPECT_EQ(out[0].summary.mean, 6 * 1.5);
  EXPECT_EQ(out[2].summary.mean, 6 * 1.5);
}

TEST(FastPath, OneProcessorHasNothingToDo) {
  const auto out = sample({1, DistributionKind::GAMMA, 1, 1, 1}, 5, true);
  for (const auto& o : out) {
    EXPECT_EQ(o.verified, 5U) << to_string(o.algorithm);
    EXPECT_EQ(o.summary.max, 0.0) << to_string(o.algorithm);
  }
}

TEST(FastPath, RefusesNoProcessor) { EXPECT_THROW(FastPath(0), UsageError); }

/// Every transfer and every reduction takes 1.
class UnitCosts final : public emulator::CostModel<double> {
 public:
  double transfer(emulator::NodeId, emulator::Port, emulator::NodeId, const Rational&) const override { return 1; }
  double compute(emulator::NodeId, const Rational&) const override { return 1; }
};

TEST(FastPath, ReadsTheGivenComputationCostsOrAsksTheModel) {
  FastPath fast(/*n=*/8);
  const UnitCosts costs;
  // Binomial-stat on 8 processors: 3 rounds of a transfer and a reduction.
  EXPECT_EQ(fast.run(Algorithm::BINOMIAL_STAT, costs).makespan, 6);
  const std::vector<double> half(8, 0.5);
  const auto out = fast.run(Algorithm::BINOMIAL_STAT, costs, half);
  EXPECT_EQ(out.makespan, 4.5);
  EXPECT_TRUE(out.verified);
  EXPECT_ERROR(UsageError, (void)fast.run(Algorithm::TREE_DYN, costs, std::vector<double>(3, 1.0)),
               "3 computation costs for 8 processors");
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant
