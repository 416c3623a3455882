#pragma once
// Internal to the topology library: decimal numbers read exactly, shared by the DOT and GraphML
// reader (files.cpp: costs such as 0.1 or 1e-3; dot_text.cpp: DOT values checked where their line
// is known) and the SimGrid reader (simgrid.cpp: quantities with units such as 1.5GBps).

#include <starnet/core/rational.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starnet::topology::detail {

/// A decimal as strtod reads it (without its inf, nan and hexadecimal forms): digits · 10^exp10.
struct Decimal {
  bool negative = false;
  std::string digits;  // without leading or trailing zeros; empty for 0
  std::int64_t exp10 = 0;
};

/// Reads [+-] digits [. digits] [(e|E) [+-] digits] at the start of @p text; @p end receives
/// where it stops. nullopt when no digit starts it. An e not followed by digits is left to what
/// follows (a SimGrid unit, as in "1Ef", exaflops).
[[nodiscard]] std::optional<Decimal> leading_decimal(std::string_view text, std::size_t& end);

/// @p d · 10^@p pow10 · 2^@p pow2 · @p factor in lowest terms, or nullopt when it does not fit a
/// fraction of two 64-bit integers.
[[nodiscard]] std::optional<Rational> exact_value(const Decimal& d, std::int64_t pow10 = 0, std::int64_t pow2 = 0,
                                                  std::int64_t factor = 1);

/// A speed, cost, weight, latency or bandwidth of a DOT or GraphML file, exactly: a fraction
/// (Rational::parse, "2/3") or a decimal with an optional exponent (2.0 → 2, 0.1 → 1/10,
/// 1e-3 → 1/1000), white space around it ignored.
/// @throws TopologyError "WHAT: "TEXT" is not a number (expected …)", or not finite, or too
/// big or too precise to be a fraction of two 64-bit integers.
[[nodiscard]] Rational exact_number(std::string_view text, const std::string& what);

}  // namespace starnet::topology::detail
