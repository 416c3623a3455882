#pragma once
/// @file
/// The ten cost distributions of the Monte-Carlo studies, each set by its mean μ and its
/// coefficient of variation CV = σ/μ.
///
/// Paper: Benoit, Canon, Marchal, "Non-clairvoyant reduction algorithms for heterogeneous
/// platforms", Concurrency Computat.: Pract. Exper. 2014, Section 5, Table II. Each distribution
/// is a standard law Y scaled to mean 1 and the given CV with an additive m or multiplicative M,
/// then multiplied by μ (the CV is scale-free): X = μ·(m + M·Y). The formulas, derived so that
/// E[X] = μ and sd(X)/E[X] = CV exactly (docs/stochastic.md has the derivations):
///
///   name         Y                          parameters                              CV range
///   bernoulli    Bernoulli(p)               M = 1 + CV², p = 1/M                    [0, ∞)
///   beta0.01     Beta(α, β), α = 0.01       M = (1+CV²)/(1−αCV²), β = α(M−1)        [0, 10)
///   beta1        Beta(α, β), α = 1          idem                                    [0, 1)
///   beta100      Beta(α, β), α = 100        idem                                    [0, 0.1)
///   binomial     Binomial(100, p)           p = 1/(1+100·CV²), M = 1/(100p)          [0, ∞)
///   exponential  Exp(λ), λ = 1/CV           m = 1 − CV                              [0, 1]
///   gamma        Gamma(k, rate k)           k = 1/CV²                               [0, ∞)
///   poisson      Poisson(λ), λ = CV²        m = 1 − λ                               [0, 1]
///   triangle     symmetric on [1 ± √6·CV]                                           [0, 1/√6]
///   uniform      uniform on [1 ± √3·CV]                                             [0, 1/√3]
///
/// A range's upper end is where the support would reach below 0 (m < 0, minimum < 0) or the
/// parameters stop existing (1 − αCV² ≤ 0). CV = 0 gives the constant μ for every law.
///
/// Samplers (written here, not std:: distributions, whose outputs differ between standard
/// libraries): Bernoulli, uniform, Poisson (λ ≤ 1) by inversion; triangle as the sum of two
/// uniforms; binomial by Walker's alias table over its 101 outcomes; normal and exponential by
/// 256-layer ziggurats (Marsaglia and Tsang, J. Stat. Softw. 5(8), 2000); gamma by Marsaglia and
/// Tsang (ACM TOMS 26(3), 2000) with the U^(1/k) = e^(−E/k) boost for k < 1; beta(1, β) by
/// inversion, 1 − U^(1/β); beta with both shapes below 1 by Jöhnk's rejection (1964) in log space,
/// so that tiny shapes (β ≈ 10^-14 at CV = 10^-6) neither underflow nor give 0/0; other betas as
/// G_α/(G_α+G_β).
/// Every sampler is O(1) expected time; the alias table costs O(100) to build.
///
/// Notation departing from the paper: the paper fixes μ = 1; here μ ≥ 0 is a parameter.
/// IMPORTANT: the exponential's CV range is [0, 1], not the [0, ∞) of the text copy of
/// Table II: with m = 1 − CV a larger CV gives negative costs (see docs/stochastic.md).

#include <starnet/algorithms/stochastic/distribution_kind.hpp>
#include <starnet/algorithms/stochastic/random_stream.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::stochastic {

/// Standard normal N(0, 1) by a 256-layer ziggurat; ~1.02 64-bit draws per sample on average.
[[nodiscard]] double standard_normal(RandomStream& stream);

/// Standard exponential Exp(1) by a 256-layer ziggurat (no logarithm on the fast path).
[[nodiscard]] double standard_exponential(RandomStream& stream);

/// Gamma(shape, rate 1) by Marsaglia–Tsang; for shape < 1, Gamma(shape+1)·U^(1/shape).
class GammaSampler {
 public:
  /// @param shape k, 0 < k < ∞.
  /// @throws InputError naming the shape when it is not positive and finite.
  explicit GammaSampler(double shape);
  /// A Gamma(k, 1) sample (may underflow to 0 for k ≪ 1). Expected O(1): ≤ 1.05 normal draws.
  [[nodiscard]] double operator()(RandomStream& stream) const;
  [[nodiscard]] double shape() const { return shape_; }

 private:
  double marsaglia_tsang(RandomStream& stream) const;
  double shape_;
  bool boosted_;  // shape < 1: sample Gamma(shape + 1), multiply by U^(1/shape)
  double d_;      // (boosted shape) − 1/3
  double c_;      // 1/√(9·d)
  double inverse_shape_;
};

/// A cost law of Table II with mean μ and coefficient of variation CV.
///
/// Usage:
/// @code
///   const CostDistribution d(parse_distribution("gamma"), /*mean=*/1.0, /*cv=*/0.5);
///   RandomStream stream(seed, run);
///   const double cost = d(stream);
/// @endcode
/// Immutable after construction and safe to share between threads (the stream carries all
/// state).
class CostDistribution {
 public:
  /// @param kind one of the ten laws.
  /// @param mean μ ≥ 0, finite (μ = 0 gives the constant 0).
  /// @param cv the coefficient of variation, within cv_range(kind).
  /// @throws InputError naming the distribution and the mean when μ is negative or not finite.
  /// @throws InputError naming the distribution, the CV and its allowed range when the CV is
  ///         outside cv_range(kind) (or when CV² overflows a double).
  CostDistribution(DistributionKind kind, double mean, double cv);

  /// One cost ≥ 0. Expected O(1) time, at most a few 64-bit draws from @p stream.
  [[nodiscard]] double operator()(RandomStream& stream) const;

  [[nodiscard]] DistributionKind kind() const { return kind_; }
  /// Every cost is the mean and none draws from the stream (CV = 0, μ = 0, or CV² below the
  /// smallest normal double).
  [[nodiscard]] bool constant() const { return constant_; }
  [[nodiscard]] double mean() const { return mean_; }
  [[nodiscard]] double cv() const { return cv_; }
  /// The exact standard deviation μ·CV of the law.
  [[nodiscard]] double stddev() const { return mean_ * cv_; }

 private:
  DistributionKind kind_;
  double mean_;
  double cv_;
  bool constant_ = false;  // CV = 0, μ = 0 or CV² below the smallest normal double: always μ
  double offset_ = 0;      // μ·m (additive part)
  double scale_ = 0;       // multiplies the standard law's sample
  double parameter_ = 0;   // Bernoulli p; Poisson e^(−λ)
  double poisson_lambda_ = 0;
  enum class BetaMethod : unsigned char { GAMMA_RATIO, INVERSION, JOHNK };
  BetaMethod beta_method_ = BetaMethod::GAMMA_RATIO;
  double beta_alpha_ = 0;
  double beta_beta_ = 0;
  GammaSampler first_{1.0};   // gamma: Gamma(k); beta by gamma ratio: Gamma(α)
  GammaSampler second_{1.0};  // beta by gamma ratio: Gamma(β)
  std::vector<double> alias_probability_;  // binomial: Walker alias table over 0..100
  std::vector<std::uint8_t> alias_;
};

}  // namespace starnet::algorithms::stochastic
