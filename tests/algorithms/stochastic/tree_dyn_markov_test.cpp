#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/algorithms/stochastic/tree_dyn_markov.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace starnet::algorithms::stochastic {
namespace {

mpq_class q(long num, long den = 1) {
  mpq_class r(num, den);
  r.canonicalize();
  return r;
}

mpq_class harmonic(long k, int power) {
  mpq_class h = 0;
  for (long i = 1; i <= k; ++i) h += q(1, power == 1 ? i : i * i);
  return h;
}

TEST(TreeDynMarkovChain, OneProcessorIsAlreadyDone) {
  TreeDynMarkovChain chain(/*n=*/1);
  chain.run();
  EXPECT_EQ(chain.states().size(), 1U);
  EXPECT_EQ(chain.expected(), 0);
  EXPECT_EQ(chain.variance(), 0);
}

TEST(TreeDynMarkovChain, SmallCasesByHand) {
  // n = 2: one transfer, T ~ Exp(λ).
  // n = 3: P1 → P0 while P2 waits in the slot; then P2 → P0: T = Exp(λ) + Exp(λ).
  // n = 4: two transfers, the first to end (Exp(2λ)) leaves its receiver in the slot, the second
  //        (Exp(λ) by memorylessness) pairs it with the slot, then one last Exp(λ).
  struct Case {
    long n;
    mpq_class expected;
    mpq_class variance;
  };
  const mpq_class rate = q(3, 2);
  for (const Case& c : {Case{2, q(1), q(1)}, Case{3, q(2), q(2)}, Case{4, q(5, 2), q(9, 4)}}) {
    TreeDynMarkovChain chain(c.n);
    chain.transfer_rate(rate).run();
    EXPECT_EQ(chain.expected(), c.expected / rate) << " n=" << c.n;
    EXPECT_EQ(chain.variance(), c.variance / (rate * rate)) << " n=" << c.n;
    EXPECT_EQ(chain.second_moment(), chain.variance() + chain.expected() * chain.expected()) << " n=" << c.n;
  }
}

TEST(TreeDynMarkovChain, StatesFollowTheSlotRule) {
  TreeDynMarkovChain chain(/*n=*/5);
  chain.run();
  // (2,1) → (2,0) → (1,1) → (1,0) → (0,1), rates 2, 2, 1, 1.
  const std::vector<std::pair<long, bool>> expected_states = {{2, true}, {2, false}, {1, true}, {1, false}, {0, true}};
  ASSERT_EQ(chain.states().size(), expected_states.size());
  for (std::size_t s = 0; s < expected_states.size(); ++s) {
    EXPECT_EQ(chain.states()[s].transfers, expected_states[s].first) << " s=" << s;
    EXPECT_EQ(chain.states()[s].slot_full, expected_states[s].second) << " s=" << s;
    EXPECT_EQ(chain.states()[s].finished, 5 - 2 * expected_states[s].first - (expected_states[s].second ? 1 : 0));
  }
  ASSERT_EQ(chain.transitions().size(), 4U);
  const std::vector<long> rates = {2, 2, 1, 1};
  for (std::size_t t = 0; t < 4; ++t) {
    EXPECT_EQ(chain.transitions()[t].from, t);
    EXPECT_EQ(chain.transitions()[t].to, t + 1);
    EXPECT_EQ(chain.transitions()[t].rate, rates[t]);
  }
}

// The chain is a path, so T is a sum of independent exponential sojourns: the closed form
// (harmonic numbers, computed here independently of tree_dyn_closed_form) must match exactly.
TEST(TreeDynMarkovChain, EqualsTheSumOfIndependentSojournsForEveryN) {
  const mpq_class rate = q(2, 7);
  for (long n = 1; n <= 200; ++n) {
    TreeDynMarkovChain chain(n);
    chain.transfer_rate(rate).run();
    const long k = n / 2;
    const mpq_class e = n % 2 == 0 ? mpq_class(2 * harmonic(k, 1) - q(1, k)) : mpq_class(2 * harmonic(k, 1));
    const mpq_class v = n % 2 == 0 ? mpq_class(2 * harmonic(k, 2) - q(1, k * k)) : mpq_class(2 * harmonic(k, 2));
    ASSERT_EQ(chain.expected(), e / rate) << " n=" << n;
    ASSERT_EQ(chain.variance(), v / (rate * rate)) << " n=" << n;
    ASSERT_EQ(chain.states().size(), static_cast<std::size_t>(n)) << " n=" << n;
    const TimeMoments closed = tree_dyn_closed_form(n, rate);
    ASSERT_EQ(closed.expected, chain.expected()) << " n=" << n;
    ASSERT_EQ(closed.variance, chain.variance()) << " n=" << n;
  }
}

TEST(TreeDynClosedForm, RejectsBadInputNamingIt) {
  try {
    (void)tree_dyn_closed_form(/*n=*/-3, q(1));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("n = -3"), std::string::npos) << e.what();
  }
  try {
    (void)tree_dyn_closed_form(/*n=*/4, q(0));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rate 0"), std::string::npos) << e.what();
  }
}

// HeteroPar 2013, Section 3, for even n: C = (2H(n/2) + 2/n)/λ_d and
// V = (2 Σ_{i=1}^{n/2−1} 1/i² + 4/n²)/λ_d². The variance is right; the expectation has a sign
// typo: Σ_{i=1}^{n/2} 1/i + Σ_{i=1}^{n/2−1} 1/i = 2H(n/2) − 2/n, so the printed formula is too
// large by exactly 4/(nλ) (n = 2: it gives 3/λ for a single Exp(λ) transfer).
TEST(TreeDynMarkovChain, PaperExpectationHasASignTypoItsVarianceIsRight) {
  const mpq_class rate = 1;
  for (long n = 2; n <= 128; n += 2) {
    TreeDynMarkovChain chain(n);
    chain.transfer_rate(rate).run();
    const mpq_class paper_expected = 2 * harmonic(n / 2, 1) + q(2, n);
    const mpq_class paper_variance = 2 * harmonic(n / 2 - 1, 2) + q(4, n * n);
    EXPECT_EQ(paper_expected - chain.expected(), q(4, n)) << " n=" << n;
    EXPECT_EQ(paper_variance, chain.variance()) << " n=" << n;
  }
  TreeDynMarkovChain n64(/*n=*/64);
  n64.run();
  // For the simulations' n = 64: E = 2H(32) − 1/32 ≈ 8.08574 (printed form: ≈ 8.14824), Var ≈ 3.22736.
  EXPECT_NEAR(n64.expected().get_d(), 8.08574, 1e-5);
  EXPECT_NEAR(mpq_class(2 * harmonic(32, 1) + q(2, 64)).get_d(), 8.14824, 1e-5);
  EXPECT_NEAR(n64.variance().get_d(), 3.22736, 1e-5);
}

// Independent check of the state model: an event-driven simulation of Tree-dyn's slot rule
// with Exp(λ) transfers and free computation.
struct Simulated {
  double mean;
  double second;     // mean of T²
  double second_sd;  // sample standard deviation of T²
};

Simulated simulate(long n, double rate, int runs, std::uint64_t seed) {
  const CostDistribution transfer(DistributionKind::EXPONENTIAL, /*mean=*/1 / rate, /*cv=*/1.0);
  double sum = 0;
  double sum2 = 0;
  double sum4 = 0;
  for (int run = 0; run < runs; ++run) {
    RandomStream stream(seed, static_cast<std::uint64_t>(run));
    std::priority_queue<std::pair<double, long>, std::vector<std::pair<double, long>>, std::greater<>> ends;
    std::optional<long> slot;
    double now = 0;
    const auto idle = [&](long p) {
      if (!slot) {
        slot = p;
        return;
      }
      ends.emplace(now + transfer(stream), *slot);  // p sends to the slot's processor
      slot.reset();
    };
    for (long p = 0; p < n; ++p) idle(p);
    while (!ends.empty()) {
      const auto [end, receiver] = ends.top();
      ends.pop();
      now = end;
      idle(receiver);
    }
    sum += now;
    sum2 += now * now;
    sum4 += now * now * now * now;
  }
  const double second = sum2 / runs;
  return {sum / runs, second, std::sqrt((sum4 / runs - second * second) * runs / (runs - 1))};
}

TEST(TreeDynMarkovChain, AgreesWithMonteCarloSimulation) {
  constexpr int RUNS = 40000;
  for (const long n : {5L, 8L, 13L}) {
    TreeDynMarkovChain chain(n);
    chain.transfer_rate(q(2)).run();
    const Simulated sim = simulate(n, 2.0, RUNS, /*seed=*/static_cast<std::uint64_t>(n));
    EXPECT_NEAR(sim.mean, chain.expected().get_d(), 5 * std::sqrt(chain.variance().get_d() / RUNS)) << " n=" << n;
    EXPECT_NEAR(sim.second, chain.second_moment().get_d(), 5 * sim.second_sd / std::sqrt(RUNS)) << " n=" << n;
  }
}

TEST(TreeDynMarkovChain, RejectsFewerThanOneProcessor) {
  try {
    TreeDynMarkovChain chain(/*n=*/0);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("n = 0"), std::string::npos) << e.what();
  }
}

TEST(TreeDynMarkovChain, RejectsNonPositiveRate) {
  for (const mpq_class& rate : {q(0), q(-1, 2)}) {
    TreeDynMarkovChain chain(/*n=*/4);
    try {
      chain.transfer_rate(rate);
      FAIL() << rate;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("rate " + rate.get_str()), std::string::npos) << e.what();
    }
  }
}

TEST(FirstStepAnalysis, BranchingChainByHand) {
  // 0 → 1 at rate 1, 0 → 2 at rate 2, 1 → 2 at rate 3: T0 = Exp(3) + [1/3 chance] Exp(3).
  FirstStepAnalysis fsa(/*num_states=*/3);
  fsa.add_transition(0, 1, q(1)).add_transition(0, 2, q(2)).add_transition(1, 2, q(3));
  ASSERT_EQ(fsa.run(), FirstStepAnalysis::Status::SOLVED);
  EXPECT_EQ(fsa.expected(0), q(4, 9));
  EXPECT_EQ(fsa.second_moment(0), q(10, 27));
  EXPECT_EQ(fsa.variance(0), q(10, 27) - q(16, 81));
  EXPECT_EQ(fsa.expected(1), q(1, 3));
  EXPECT_EQ(fsa.expected(2), 0);
}

TEST(FirstStepAnalysis, ReportsACycle) {
  FirstStepAnalysis fsa(/*num_states=*/3);
  fsa.add_transition(0, 1, q(1)).add_transition(1, 0, q(1)).add_transition(1, 2, q(1));
  EXPECT_EQ(fsa.run(), FirstStepAnalysis::Status::CYCLIC);
  EXPECT_EQ(to_string(FirstStepAnalysis::Status::CYCLIC), "CYCLIC");
}

TEST(FirstStepAnalysis, RejectsBadTransitionsNamingTheStates) {
  FirstStepAnalysis fsa(/*num_states=*/2);
  EXPECT_THROW(fsa.add_transition(0, 0, q(1)), InputError);
  try {
    fsa.add_transition(0, 5, q(1));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("0 -> 5"), std::string::npos) << e.what();
  }
  try {
    fsa.add_transition(0, 1, q(0));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rate 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace starnet::algorithms::stochastic
