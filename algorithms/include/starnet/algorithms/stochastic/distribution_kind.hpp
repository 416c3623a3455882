#pragma once
/// @file
/// The ten cost laws of Table II of Benoit, Canon and Marchal (CCPE 2014) by name, and the CVs
/// each accepts, apart from their samplers (cost_distribution.hpp, whose file comment gives the
/// laws' formulas and ranges).

#include <array>
#include <string>
#include <string_view>

namespace starnet::algorithms::stochastic {

/// The distributions of Table II, in the table's order.
enum class DistributionKind { BERNOULLI, BETA_0_01, BETA_1, BETA_100, BINOMIAL, EXPONENTIAL, GAMMA, POISSON,
                              TRIANGLE, UNIFORM };

inline constexpr std::array<DistributionKind, 10> ALL_DISTRIBUTIONS = {
    DistributionKind::BERNOULLI,   DistributionKind::BETA_0_01, DistributionKind::BETA_1,
    DistributionKind::BETA_100,    DistributionKind::BINOMIAL,  DistributionKind::EXPONENTIAL,
    DistributionKind::GAMMA,       DistributionKind::POISSON,   DistributionKind::TRIANGLE,
    DistributionKind::UNIFORM};

/// The command-line name: bernoulli, beta0.01, beta1, beta100, binomial, exponential, gamma,
/// poisson, triangle, uniform.
[[nodiscard]] std::string_view to_string(DistributionKind kind);

/// The distribution called @p name on the command line.
/// @throws InputError naming @p name and listing the accepted names.
[[nodiscard]] DistributionKind parse_distribution(std::string_view name);

/// The CVs a distribution accepts: [0, max] or [0, max) (max may be +infinity).
struct CvRange {
  double max;
  bool max_included;
  /// True when 0 ≤ @p cv and cv is below max (or equal to it when max_included). False for NaN.
  [[nodiscard]] bool contains(double cv) const;
  /// "[0, 1/√6 ≈ 0.408248]", "[0, 10)", "[0, ∞)".
  [[nodiscard]] std::string to_string() const;
};

/// The CV range of @p kind (table in the file header).
[[nodiscard]] CvRange cv_range(DistributionKind kind);

}  // namespace starnet::algorithms::stochastic
