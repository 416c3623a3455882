// Tree-dyn's Markov chain (HeteroPar 2013, Section 3; stochastic/tree_dyn_markov.hpp) against
// Tree-dyn run on the emulator: exponential transfer times (Table II's exponential at CV = 1 is
// Exp(1) scaled by μ_d, i.e. rate λ = 1/μ_d), no computation, n even and odd.
//
// Finding recorded here and in docs/stochastic.md: the emulator agrees with the chain's exact
// E[T] = (2H(⌊n/2⌋) − [n even]/⌊n/2⌋)/λ and Var[T]; for even n it rejects the expectation printed
// in HeteroPar 2013, (2H(n/2) + 2/n)/λ, a sign typo (too large by 4/(nλ)).
#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/stochastic/tree_dyn_markov.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace starnet::algorithms::nonclairvoyant {
namespace {

struct Simulated {
  double mean = 0;
  double sem = 0;
  double variance = 0;
  double variance_se = 0;  ///< standard error of the sample variance, from the fourth central moment
};

Simulated simulate(int n, double mu_d, std::uint64_t runs) {
  MonteCarlo mc;
  mc.algorithms({Algorithm::TREE_DYN})
      .scenario({n, stochastic::DistributionKind::EXPONENTIAL, /*cv=*/1, mu_d, /*mu_c=*/0})
      .runs(runs)
      .seed(2013)
      .keep_samples(true);
  mc.run();
  const auto& o = mc.outcomes().front();
  EXPECT_EQ(o.verified, runs) << " n=" << n;
  Simulated s{o.summary.mean, o.summary.sem, o.summary.stddev * o.summary.stddev, 0};
  double m4 = 0;
  for (const double x : o.makespans) m4 += std::pow(x - s.mean, 4);
  m4 /= static_cast<double>(runs);
  s.variance_se = std::sqrt((m4 - s.variance * s.variance) / static_cast<double>(runs));
  return s;
}

double printed_expectation(int n, double rate) {
  double h = 0;
  for (int i = 1; i <= n / 2; ++i) h += 1.0 / i;
  return (2 * h + 2.0 / n) / rate;
}

TEST(TreeDynMarkovVersusEmulator, MeanAndVarianceAgreeForEvenAndOddN) {
  constexpr std::uint64_t RUNS = 30'000;
  for (const int n : {2, 3, 8, 15, 64}) {
    for (const double mu_d : {1.0, 2.5}) {
      if (mu_d != 1.0 && n > 8) continue;  // the scale is checked on small n; keeps the test fast
      stochastic::TreeDynMarkovChain chain(n);
      // λ = 1/μ_d exactly: 2/5 for μ_d = 2.5.
      chain.transfer_rate(mu_d == 1.0 ? mpq_class(1) : mpq_class(2, 5)).run();
      const double expected = chain.expected().get_d();
      const double variance = chain.variance().get_d();
      const auto s = simulate(n, mu_d, RUNS);
      EXPECT_LT(std::abs(s.mean - expected), 4 * s.sem)
          << " n=" << n << " mu_d=" << mu_d << " simulated " << s.mean << " chain " << expected;
      EXPECT_LT(std::abs(s.variance - variance), 4 * s.variance_se)
          << " n=" << n << " mu_d=" << mu_d << " simulated " << s.variance << " chain " << variance;
      if (n % 2 == 0) {
        // The printed form is 4/(nλ) too large: rejected by the same 4-SE criterion that accepts the
        // chain (n = 64: 0.0625 against a standard error of about 0.01).
        const double printed = printed_expectation(n, 1 / mu_d);
        EXPECT_GT(std::abs(s.mean - printed), 4 * s.sem) << " n=" << n << " mu_d=" << mu_d;
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::nonclairvoyant
