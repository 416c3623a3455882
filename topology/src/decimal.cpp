#include "decimal.hpp"

#include "xml_text.hpp"

#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <utility>

namespace starnet::topology::detail {

std::optional<Decimal> leading_decimal(std::string_view text, std::size_t& end) {
  // Far beyond any exponent that fits 64 bits, and small enough that sums cannot overflow.
  constexpr std::int64_t HUGE_EXPONENT = std::int64_t{1} << 40;
  const auto is_digit = [&](std::size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) d.negative = text[i++] == '-';
  bool any = false;
  for (; is_digit(i); ++i, any = true) d.digits += text[i];
  if (i < text.size() && text[i] == '.') {
    std::size_t j = i + 1;
    for (; is_digit(j); ++j, any = true, --d.exp10) d.digits += text[j];
    if (any) i = j;
  }
  if (!any) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t j = i + 1;
    const bool negative = j < text.size() && text[j] == '-';
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (is_digit(j)) {
      std::int64_t e = 0;
      for (; is_digit(j); ++j) e = std::min(HUGE_EXPONENT, e * 10 + (text[j] - '0'));
      d.exp10 += negative ? -e : e;
      i = j;
    }
  }
  end = i;
  d.digits.erase(0, std::min(d.digits.find_first_not_of('0'), d.digits.size()));
  while (!d.digits.empty() && d.digits.back() == '0') {
    d.digits.pop_back();
    ++d.exp10;
  }
  return d;
}

namespace {

Wide gcd_wide(Wide a, Wide b) {
  while (b != 0) a = std::exchange(b, a % b);
  return a;
}

}  // namespace

std::optional<Rational> exact_value(const Decimal& d, std::int64_t pow10, std::int64_t pow2, std::int64_t factor) {
  if (d.digits.empty()) return Rational(0);
  // 10^38 < 2^126: a 38-digit mantissa fits, and any value beyond cannot reduce into 64 bits.
  constexpr std::size_t MAX_DIGITS = 38;
  constexpr Wide LIMIT = static_cast<Wide>(1) << 126;
  if (d.digits.size() > MAX_DIGITS) return std::nullopt;
  Wide num = 0;
  for (const char c : d.digits) num = num * 10 + (c - '0');
  Wide den = 1;
  // Each loop ends within 127 rounds: x ≥ 1 grows until it passes LIMIT.
  const auto times = [](Wide& x, Wide k, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i) {
      if (x > LIMIT / k) return false;
      x *= k;
    }
    return true;
  };
  const std::int64_t e10 = d.exp10 + pow10;
  if (!times(num, factor, 1) || !(e10 >= 0 ? times(num, 10, e10) : times(den, 10, -e10)) ||
      !(pow2 >= 0 ? times(num, 2, pow2) : times(den, 2, -pow2))) {
    return std::nullopt;
  }
  const Wide g = gcd_wide(num, den);
  num /= g;
  den /= g;
  constexpr Wide MAX64 = std::numeric_limits<std::int64_t>::max();
  if (num > MAX64 || den > MAX64) return std::nullopt;
  const auto n = static_cast<std::int64_t>(num);
  return Rational(d.negative ? -n : n, static_cast<std::int64_t>(den));
}

namespace {

/// A decimal number, exactly: [+-] digits [. digits] [e|E [+-] digits].
Rational decimal(std::string_view text, const std::string& what) {
  const auto bad = [&](std::string_view why) {
    return TopologyError(fmt::format("{}: \"{}\" {}", what, text, why));
  };
  std::string_view rest = text;
  if (!rest.empty() && (rest[0] == '-' || rest[0] == '+')) rest.remove_prefix(1);
  std::string lower(rest);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "inf" || lower == "infinity" || lower == "nan") throw bad("is not finite (expected a finite number)");
  std::size_t end = 0;
  const auto d = leading_decimal(text, end);
  if (!d || end != text.size()) {
    throw bad("is not a number (expected an integer, a fraction such as 2/3, or a decimal such as 0.25 or 1e-3)");
  }
  const auto value = exact_value(*d);
  if (!value) throw bad("cannot be held exactly (a value read from a file is a fraction of two 64-bit integers)");
  return *value;
}

}  // namespace

Rational exact_number(std::string_view text, const std::string& what) {
  text = trimmed(text);
  if (text.find('/') == std::string_view::npos) return decimal(text, what);
  Rational value;
  try {
    value = Rational::parse(text, what);
  } catch (const InputError& e) {
    throw TopologyError(e.what());
  }
  // As for decimals: what a file gives is read in 64 bits; what starnet computes is not limited.
  if (!value.is_small()) {
    throw TopologyError(fmt::format("{}: \"{}\" cannot be held exactly (a value read from a file is a fraction of two "
                                    "64-bit integers)",
                                    what, text));
  }
  return value;
}

}  // namespace starnet::topology::detail
