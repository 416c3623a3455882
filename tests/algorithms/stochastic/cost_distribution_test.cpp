#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace starnet::algorithms::stochastic {
namespace {

constexpr double Z = 5;  // tolerance in standard errors: a false alarm has probability < 1e-6 per check

struct SampleMoments {
  double mean = 0;
  double variance = 0;       // unbiased
  double variance_se = 0;    // √((m4 − s⁴)/N), the standard error of the variance estimate
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
};

SampleMoments draw(const CostDistribution& d, std::uint64_t seed, int n) {
  std::vector<double> x(static_cast<std::size_t>(n));
  RandomStream stream(seed, /*run_index=*/0);
  SampleMoments m;
  for (auto& v : x) {
    v = d(stream);
    m.mean += v;
    m.min = std::min(m.min, v);
    m.max = std::max(m.max, v);
  }
  m.mean /= n;
  double m2 = 0;
  double m4 = 0;
  for (const double v : x) {
    const double c = (v - m.mean) * (v - m.mean);
    m2 += c;
    m4 += c * c;
  }
  m.variance = m2 / (n - 1);
  m4 /= n;
  m.variance_se = std::sqrt(std::max(0.0, m4 - (m2 / n) * (m2 / n)) / n);
  return m;
}

// The CVs each law is tested at: inside its range, including the closed upper ends. Not below
// 0.1 for beta0.01: its variance then comes from an event of probability ≈ CV² (a cost near 0
// instead of M), too rare to estimate from a sample of this size.
std::vector<double> test_cvs(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::BETA_0_01: return {0.1, 0.3, 2, 9};
    case DistributionKind::BETA_1: return {0.01, 0.5, 0.95};
    case DistributionKind::BETA_100: return {0.001, 0.03, 0.09};
    case DistributionKind::EXPONENTIAL:
    case DistributionKind::POISSON: return {0.01, 0.4, 1};
    case DistributionKind::TRIANGLE: return {0.01, 0.2, 1 / std::sqrt(6.0)};
    case DistributionKind::UNIFORM: return {0.01, 0.3, 1 / std::sqrt(3.0)};
    default: return {0.01, 0.5, 1, 3, 10};
  }
}

class EveryDistribution : public ::testing::TestWithParam<DistributionKind> {};

TEST_P(EveryDistribution, SampleMeanAndCvMatchTheParameters) {
  const DistributionKind kind = GetParam();
  constexpr int N = 200000;
  std::uint64_t seed = 1;
  for (const double mean : {1.0, 2.5}) {
    for (const double cv : test_cvs(kind)) {
      const CostDistribution d(kind, mean, cv);
      const SampleMoments m = draw(d, seed++, N);
      const double sd = mean * cv;
      EXPECT_NEAR(m.mean, mean, Z * sd / std::sqrt(N)) << to_string(kind) << " mean=" << mean << " cv=" << cv;
      EXPECT_NEAR(m.variance, sd * sd, Z * m.variance_se)
          << to_string(kind) << " mean=" << mean << " cv=" << cv << " sample cv=" << std::sqrt(m.variance) / m.mean;
      EXPECT_GE(m.min, 0.0) << to_string(kind) << " cv=" << cv;
    }
  }
}

TEST_P(EveryDistribution, ZeroCvOrZeroMeanIsConstant) {
  RandomStream stream(/*seed=*/3, /*run_index=*/0);
  const CostDistribution fixed(GetParam(), /*mean=*/1.75, /*cv=*/0.0);
  const CostDistribution zero(GetParam(), /*mean=*/0.0, /*cv=*/0.05);
  for (int k = 0; k < 100; ++k) {
    EXPECT_EQ(fixed(stream), 1.75);
    EXPECT_EQ(zero(stream), 0.0);
  }
}

TEST_P(EveryDistribution, RefusesCvAboveItsRangeNamingDistributionCvAndRange) {
  const DistributionKind kind = GetParam();
  const CvRange range = cv_range(kind);
  const double too_large = std::isinf(range.max) ? std::numeric_limits<double>::infinity()
                                                 : (range.max_included ? std::nextafter(range.max, 100.0) : range.max);
  for (const double cv : {too_large, -0.5, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      const CostDistribution d(kind, /*mean=*/1.0, cv);
      FAIL() << to_string(kind) << " accepted cv=" << cv;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string(to_string(kind))), std::string::npos) << what;
      EXPECT_NE(what.find("CV"), std::string::npos) << what;
      EXPECT_NE(what.find(range.to_string()), std::string::npos) << what;
    }
  }
}

TEST_P(EveryDistribution, RefusesNegativeOrInfiniteMean) {
  for (const double mean : {-1.0, std::numeric_limits<double>::infinity()}) {
    try {
      const CostDistribution d(GetParam(), mean, /*cv=*/0.01);
      FAIL() << to_string(GetParam()) << " accepted mean=" << mean;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string(to_string(GetParam()))), std::string::npos) << what;
      EXPECT_NE(what.find("mean"), std::string::npos) << what;
    }
  }
}

TEST_P(EveryDistribution, NameRoundTrips) { EXPECT_EQ(parse_distribution(to_string(GetParam())), GetParam()); }

INSTANTIATE_TEST_SUITE_P(TableII, EveryDistribution, ::testing::ValuesIn(ALL_DISTRIBUTIONS),
                         [](const auto& param_info) {
                           std::string name(to_string(param_info.param));
                           for (char& c : name) c = c == '.' ? '_' : c;
                           return name;
                         });

TEST(CostDistribution, CommandLineNamesAreThoseOfTheIssue) {
  std::string names;
  for (const auto kind : ALL_DISTRIBUTIONS) names += std::string(to_string(kind)) + " ";
  EXPECT_EQ(names, "bernoulli beta0.01 beta1 beta100 binomial exponential gamma poisson triangle uniform ");
}

TEST(CostDistribution, RefusesUnknownNameListingTheKnownOnes) {
  try {
    (void)parse_distribution("normal");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"normal\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("beta0.01"), std::string::npos) << e.what();
  }
}

TEST(CostDistribution, RangesAreThoseThatKeepCostsNonNegative) {
  EXPECT_EQ(cv_range(DistributionKind::BETA_0_01).to_string(), "[0, 10)");
  EXPECT_EQ(cv_range(DistributionKind::BETA_1).to_string(), "[0, 1)");
  EXPECT_EQ(cv_range(DistributionKind::BETA_100).to_string(), "[0, 0.1)");
  EXPECT_EQ(cv_range(DistributionKind::EXPONENTIAL).to_string(), "[0, 1]");
  EXPECT_EQ(cv_range(DistributionKind::POISSON).to_string(), "[0, 1]");
  EXPECT_EQ(cv_range(DistributionKind::TRIANGLE).to_string(), "[0, 0.408248]");
  EXPECT_EQ(cv_range(DistributionKind::UNIFORM).to_string(), "[0, 0.57735]");
  for (const auto kind : {DistributionKind::BERNOULLI, DistributionKind::BINOMIAL, DistributionKind::GAMMA}) {
    EXPECT_EQ(cv_range(kind).to_string(), "[0, ∞)") << to_string(kind);
  }
  EXPECT_THROW(CostDistribution(DistributionKind::EXPONENTIAL, 1, 1.5), InputError);
  EXPECT_NO_THROW(CostDistribution(DistributionKind::EXPONENTIAL, 1, 1.0));
}

TEST(CostDistribution, SupportsAreThoseOfTableII) {
  RandomStream stream(/*seed=*/11, /*run_index=*/0);
  const double mean = 2;
  const double cv = 0.5;
  const CostDistribution bernoulli(DistributionKind::BERNOULLI, mean, cv);
  const CostDistribution binomial(DistributionKind::BINOMIAL, mean, cv);
  const CostDistribution poisson(DistributionKind::POISSON, mean, cv);
  const CostDistribution exponential(DistributionKind::EXPONENTIAL, mean, cv);
  const CostDistribution triangle(DistributionKind::TRIANGLE, mean, 0.4);
  const CostDistribution uniform(DistributionKind::UNIFORM, mean, 0.5);
  const CostDistribution beta(DistributionKind::BETA_1, mean, cv);
  const double bernoulli_max = mean * (1 + cv * cv);  // μM
  const double binomial_step = mean * (1 + 100 * cv * cv) / 100;  // μM, M = 1/(np)
  const double beta_max = mean * (1 + cv * cv) / (1 - cv * cv);
  for (int k = 0; k < 20000; ++k) {
    const double b = bernoulli(stream);
    ASSERT_TRUE(b == 0 || b == bernoulli_max) << b;
    const double trials = binomial(stream) / binomial_step;
    ASSERT_NEAR(trials, std::round(trials), 1e-9);
    ASSERT_LE(std::round(trials), 100);
    const double events = poisson(stream) / mean - (1 - cv * cv);  // X = μ(m + K), m = 1 − CV²
    ASSERT_NEAR(events, std::round(events), 1e-9);
    ASSERT_GE(exponential(stream), mean * (1 - cv));
    const double t = triangle(stream);
    ASSERT_GT(t, mean * (1 - std::sqrt(6.0) * 0.4));
    ASSERT_LT(t, mean * (1 + std::sqrt(6.0) * 0.4));
    const double u = uniform(stream);
    ASSERT_GT(u, mean * (1 - std::sqrt(3.0) * 0.5));
    ASSERT_LT(u, mean * (1 + std::sqrt(3.0) * 0.5));
    const double y = beta(stream);
    ASSERT_GE(y, 0);
    ASSERT_LE(y, beta_max);
  }
}

TEST(CostDistribution, TinyBetaShapesNeitherUnderflowNorDivideZeroByZero) {
  // β = α(M − 1) ≈ 1e-14 and α = 0.01: both gamma samples underflow to 0 in direct form.
  const CostDistribution d(DistributionKind::BETA_0_01, /*mean=*/1.0, /*cv=*/1e-6);
  RandomStream stream(/*seed=*/5, /*run_index=*/0);
  for (int k = 0; k < 100000; ++k) {
    const double x = d(stream);
    ASSERT_TRUE(std::isfinite(x)) << k;
    ASSERT_GE(x, 0);
  }
}

TEST(StandardNormal, MomentsAndTailProbabilities) {
  RandomStream stream(/*seed=*/17, /*run_index=*/0);
  constexpr int N = 2000000;
  const std::vector<double> thresholds = {0.25, 1, 2, 3, 3.6541528853610088, 4.5};  // 3.654… is the ziggurat's base
  std::vector<double> beyond(thresholds.size(), 0);
  double sum = 0;
  double sum2 = 0;
  double negative = 0;
  for (int k = 0; k < N; ++k) {
    const double z = standard_normal(stream);
    sum += z;
    sum2 += z * z;
    negative += z < 0 ? 1 : 0;
    for (std::size_t t = 0; t < thresholds.size(); ++t) beyond[t] += std::abs(z) > thresholds[t] ? 1 : 0;
  }
  EXPECT_NEAR(sum / N, 0, Z / std::sqrt(N));
  EXPECT_NEAR(sum2 / N, 1, Z * std::sqrt(2.0 / N));
  EXPECT_NEAR(negative / N, 0.5, Z * std::sqrt(0.25 / N));
  for (std::size_t t = 0; t < thresholds.size(); ++t) {
    const double p = std::erfc(thresholds[t] / std::numbers::sqrt2);  // P(|Z| > t)
    EXPECT_NEAR(beyond[t] / N, p, Z * std::sqrt(p * (1 - p) / N)) << " t=" << thresholds[t];
  }
}

TEST(StandardExponential, MomentsAndTailProbabilities) {
  RandomStream stream(/*seed=*/19, /*run_index=*/0);
  constexpr int N = 2000000;
  const std::vector<double> thresholds = {0.05, 0.5, 1, 3, 7.69711747013104972, 10};  // 7.697… is the base
  std::vector<double> beyond(thresholds.size(), 0);
  double sum = 0;
  double sum2 = 0;
  for (int k = 0; k < N; ++k) {
    const double e = standard_exponential(stream);
    ASSERT_GE(e, 0.0);
    sum += e;
    sum2 += e * e;
    for (std::size_t t = 0; t < thresholds.size(); ++t) beyond[t] += e > thresholds[t] ? 1 : 0;
  }
  EXPECT_NEAR(sum / N, 1, Z * std::sqrt(1.0 / N));
  EXPECT_NEAR(sum2 / N, 2, Z * std::sqrt(20.0 / N));  // E[E²] = 2, Var[E²] = 24 − 4
  for (std::size_t t = 0; t < thresholds.size(); ++t) {
    const double p = std::exp(-thresholds[t]);
    EXPECT_NEAR(beyond[t] / N, p, Z * std::sqrt(p * (1 - p) / N)) << " t=" << thresholds[t];
  }
}

TEST(GammaSampler, RefusesNonPositiveOrInfiniteShape) {
  for (const double shape : {0.0, -2.0, std::numeric_limits<double>::infinity()}) {
    try {
      const GammaSampler g(shape);
      FAIL() << shape;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("gamma shape"), std::string::npos) << e.what();
    }
  }
}

TEST(CostDistribution, SubnormalCvSquaredIsConstant) {
  RandomStream stream(/*seed=*/37, /*run_index=*/0);
  for (const auto kind : ALL_DISTRIBUTIONS) {
    const CostDistribution d(kind, /*mean=*/3.0, /*cv=*/1e-160);  // CV² = 1e-320 is subnormal
    EXPECT_EQ(d(stream), 3.0) << to_string(kind);
  }
}

// ψ(k) and ψ'(k): recurrence up to k + 20, then the asymptotic series (error < 1e-12).
double digamma(double k) {
  double value = 0;
  for (; k < 20; k += 1) value -= 1 / k;
  return value + std::log(k) - 1 / (2 * k) - 1 / (12 * k * k) + 1 / (120 * std::pow(k, 4)) - 1 / (252 * std::pow(k, 6));
}
double trigamma(double k) {
  double value = 0;
  for (; k < 20; k += 1) value += 1 / (k * k);
  return value + 1 / k + 1 / (2 * k * k) + 1 / (6 * std::pow(k, 3)) - 1 / (30 * std::pow(k, 5));
}

TEST(GammaSampler, MomentsOfTheSampleAndOfItsLogarithm) {
  // Shapes below 1 (k < 1: Gamma(k+1)·e^(−E/k)) and above.
  constexpr int N = 200000;
  for (const double shape : {0.05, 0.5, 1.0, 3.0, 50.0}) {
    const GammaSampler g(shape);
    RandomStream stream(/*seed=*/23, /*run_index=*/static_cast<std::uint64_t>(shape * 100));
    double sum = 0;
    double sum2 = 0;
    double sum_log = 0;
    for (int k = 0; k < N; ++k) {
      const double x = g(stream);
      sum += x;
      sum2 += x * x;
      sum_log += std::log(x);
    }
    // Gamma(k, 1): E[X] = k, Var[X] = k, E[X^j] = k(k+1)…(k+j−1); E[log X] = ψ(k), Var[log X] = ψ'(k).
    EXPECT_NEAR(sum / N, shape, Z * std::sqrt(shape / N)) << " shape=" << shape;
    const double m2 = shape * (shape + 1);
    const double m4 = m2 * (shape + 2) * (shape + 3);
    EXPECT_NEAR(sum2 / N, m2, Z * std::sqrt((m4 - m2 * m2) / N)) << " shape=" << shape;
    EXPECT_NEAR(sum_log / N, digamma(shape), Z * std::sqrt(trigamma(shape) / N)) << " shape=" << shape;
  }
}

// The beta laws' Y = X/(μM) ~ Beta(α, β), probed where the three samplers differ most: near 0,
// through the fractional moment E[Y^s] = Γ(α+s)Γ(α+β)/(Γ(α)Γ(α+β+s)), s = min(α, 1)/2 (for α = 0.01
// the mean hardly sees the shape of the mass near 0; log Y cannot be used, as Y underflows to 0
// with probability ~10^-3). Covers inversion (α = 1), Jöhnk (α, β < 1) and the gamma ratio.
TEST(CostDistribution, BetaFractionalMomentsMatchTheBetaFunction) {
  struct Case {
    DistributionKind kind;
    double alpha;
    double cv;
  };
  constexpr int N = 200000;
  for (const Case& c : {Case{DistributionKind::BETA_1, 1, 0.5}, Case{DistributionKind::BETA_0_01, 0.01, 2},
                        Case{DistributionKind::BETA_0_01, 0.01, 0.3}, Case{DistributionKind::BETA_0_01, 0.01, 9},
                        Case{DistributionKind::BETA_100, 100, 0.05}}) {
    const double m = (1 + c.cv * c.cv) / (1 - c.alpha * c.cv * c.cv);
    const double beta = c.alpha * (m - 1);
    const double s = std::min(c.alpha, 1.0) / 2;
    const CostDistribution d(c.kind, /*mean=*/1.0, c.cv);
    RandomStream stream(/*seed=*/31, /*run_index=*/0);
    double sum = 0;
    double sum2 = 0;
    for (int k = 0; k < N; ++k) {
      const double y = std::pow(d(stream) / m, s);
      sum += y;
      sum2 += y * y;
    }
    const double mean = sum / N;
    const double sd = std::sqrt(std::max(0.0, sum2 / N - mean * mean));
    const double exact = std::exp(std::lgamma(c.alpha + s) + std::lgamma(c.alpha + beta) - std::lgamma(c.alpha) -
                                  std::lgamma(c.alpha + beta + s));
    EXPECT_NEAR(mean, exact, Z * sd / std::sqrt(N)) << to_string(c.kind) << " cv=" << c.cv << " beta=" << beta;
  }
}

}  // namespace
}  // namespace starnet::algorithms::stochastic
