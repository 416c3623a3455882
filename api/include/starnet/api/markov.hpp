#pragma once
/// @file
/// Tree-dyn's completion time as a Markov chain (Benoit, Canon, Marchal, HeteroPar 2013, Section
/// 3): exact E[T] and Var[T] with exponential transfer times and free computation, checked against
/// the closed form (docs/stochastic.md).

#include <nlohmann/json.hpp>

#include <gmpxx.h>

#include <cstdint>
#include <string>

namespace starnet::api {

/// Beyond this the exact fractions have tens of thousands of digits and the solve takes minutes.
inline constexpr std::int64_t MAX_MARKOV_PROCESSORS = 20000;

struct MarkovResult {
  std::int64_t n = 0;
  mpq_class rate;
  std::uint64_t states = 0;
  mpq_class expected;
  mpq_class variance;
  mpq_class closed_expected;  ///< the closed form's
  mpq_class closed_variance;
  /// The chain agrees with the closed form exactly.
  bool verified = false;
  [[nodiscard]] nlohmann::json to_json() const;
};

/// @p n processors (1..MAX_MARKOV_PROCESSORS), transfer rate @p rate > 0 (an exact number).
/// @throws UsageError about "n" or "rate".
[[nodiscard]] MarkovResult tree_dyn_markov(std::int64_t n, const std::string& rate);

}  // namespace starnet::api
