#pragma once
/// @file
/// Exact conversions between Rational and GMP's mpq_class (the linear programs of the
/// steady-state module compute in GMP). Neither ever fails nor rounds.

#include <starnet/core/rational.hpp>

#include <gmpxx.h>

namespace starnet {

[[nodiscard]] mpq_class to_mpq(const Rational& r);
/// @p q need not be canonical (mpq_class::canonicalize is applied).
[[nodiscard]] Rational to_rational(mpq_class q);

}  // namespace starnet
