#pragma once
/// @file
/// The four non-clairvoyant reductions of Benoit, Canon and Marchal (CCPE 2014, Section 3) by
/// name, one scenario of a study, and what the runs of one algorithm came to, apart from the
/// Monte-Carlo runner (montecarlo.hpp) and the studies (studies.hpp) that produce them.

#include <starnet/algorithms/stochastic/distribution_kind.hpp>
#include <starnet/algorithms/stochastic/summary.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

enum class Algorithm : std::uint8_t { BINOMIAL_STAT, FIBONACCI_STAT, TREE_DYN, NONCOMMUT_TREE_DYN };
[[nodiscard]] std::string_view to_string(Algorithm a);
/// binomial-stat, fibonacci-stat, tree-dyn, noncommut-tree-dyn.
/// @throws UsageError naming @p name and listing the algorithms.
[[nodiscard]] Algorithm parse_algorithm(std::string_view name);
/// Whether the algorithm only combines neighbouring partial results.
[[nodiscard]] bool supports_noncommutative(Algorithm a);
/// The four algorithms in the paper's order; the index of every per-algorithm array of
/// the studies (study_results.hpp).
inline constexpr std::array<Algorithm, 4> ALL_ALGORITHMS = {Algorithm::BINOMIAL_STAT, Algorithm::FIBONACCI_STAT,
                                                            Algorithm::TREE_DYN, Algorithm::NONCOMMUT_TREE_DYN};
[[nodiscard]] constexpr std::size_t algorithm_index(Algorithm a) { return static_cast<std::size_t>(a); }

/// One point of a study.
struct Scenario {
  int n = 64;
  stochastic::DistributionKind distribution = stochastic::DistributionKind::GAMMA;
  double cv = 1;
  double mu_d = 1;
  double mu_c = 0;
};

struct AlgorithmOutcome {
  Algorithm algorithm = Algorithm::TREE_DYN;
  stochastic::Summary summary;
  std::uint64_t verified = 0;  ///< runs whose result was checked and right
  std::vector<double> makespans;
};

}  // namespace starnet::algorithms::nonclairvoyant
