#pragma once
/// @file
/// A collective's lower bound as its two terms, in steps and in time (bounds.hpp says how each is
/// derived and computes them).

#include <starnet/core/rational.hpp>

#include <algorithm>
#include <cstdint>

namespace starnet::algorithms::generic {

struct StepBound {
  std::uint64_t counting = 0;  ///< ⌈log_{k+1} N⌉, +1 for single-port half-duplex all-reduce
  std::uint64_t distance = 0;  ///< diameter (all-reduce) or eccentricity of the root
  [[nodiscard]] std::uint64_t value() const { return std::max(counting, distance); }
};

struct TimeBound {
  Rational counting;  ///< c_min·⌈log_{k+1} N⌉
  Rational distance;  ///< weighted diameter or root eccentricity
  [[nodiscard]] Rational value() const { return std::max(counting, distance); }
};

}  // namespace starnet::algorithms::generic
