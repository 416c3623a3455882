#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <charconv>
#include <limits>
#include <numeric>
#include <ostream>

namespace starnet {
namespace {

Wide gcd128(Wide a, Wide b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

bool fits(Wide v) {
  return v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max();
}

}  // namespace

Rational::Rational(std::int64_t num, std::int64_t den) {
  if (den == 0) throw Error("rational " + std::to_string(num) + "/0 has a zero denominator");
  *this = reduce(num, den);
}

Rational Rational::reduce(Wide num, Wide den) {
  if (den < 0) {
    num = -num;
    den = -den;
  }
  const Wide g = gcd128(num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  if (!fits(num) || !fits(den)) throw OverflowError("exact rational arithmetic overflowed 64 bits");
  Rational r;
  r.num_ = static_cast<std::int64_t>(num);
  r.den_ = static_cast<std::int64_t>(den);
  return r;
}

Rational operator+(const Rational& a, const Rational& b) {
  if (a.den_ == 1 && b.den_ == 1) {
    std::int64_t s = 0;
    if (!__builtin_add_overflow(a.num_, b.num_, &s)) return Rational(s);
  }
  return Rational::reduce(static_cast<Wide>(a.num_) * b.den_ + static_cast<Wide>(b.num_) * a.den_,
                          static_cast<Wide>(a.den_) * b.den_);
}

Rational operator-(const Rational& a, const Rational& b) {
  if (a.den_ == 1 && b.den_ == 1) {
    std::int64_t s = 0;
    if (!__builtin_sub_overflow(a.num_, b.num_, &s)) return Rational(s);
  }
  return Rational::reduce(static_cast<Wide>(a.num_) * b.den_ - static_cast<Wide>(b.num_) * a.den_,
                          static_cast<Wide>(a.den_) * b.den_);
}

Rational operator*(const Rational& a, const Rational& b) {
  return Rational::reduce(static_cast<Wide>(a.num_) * b.num_, static_cast<Wide>(a.den_) * b.den_);
}

Rational operator/(const Rational& a, const Rational& b) {
  if (b.num_ == 0) throw Error("exact rational division by zero: " + a.to_string() + " / 0");
  return Rational::reduce(static_cast<Wide>(a.num_) * b.den_, static_cast<Wide>(a.den_) * b.num_);
}

std::int64_t Rational::floor() const {
  const std::int64_t q = num_ / den_;
  return (num_ % den_ != 0 && num_ < 0) ? q - 1 : q;
}

std::int64_t Rational::ceil() const {
  const std::int64_t q = num_ / den_;
  return (num_ % den_ != 0 && num_ > 0) ? q + 1 : q;
}

std::string Rational::to_string() const {
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

Rational Rational::parse(std::string_view text, std::string_view what) {
  const auto bad = [&]() {
    return InputError(std::string(what) + ": \"" + std::string(text) +
                      "\" is not a number (expected an integer, a fraction such as 2/3, or a decimal such as 0.25)");
  };
  const auto integer = [&](std::string_view digits, bool allow_sign) {
    std::int64_t v = 0;
    if (digits.empty() || (!allow_sign && (digits[0] == '-' || digits[0] == '+'))) throw bad();
    if (digits[0] == '+') {
      digits.remove_prefix(1);
      if (digits.empty() || digits[0] == '-') throw bad();  // "+-3"
    }
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || ptr != digits.data() + digits.size()) throw bad();
    return v;
  };
  if (const auto slash = text.find('/'); slash != std::string_view::npos) {
    const std::int64_t den = integer(text.substr(slash + 1), false);
    if (den == 0) throw InputError(std::string(what) + ": \"" + std::string(text) + "\" has a zero denominator");
    return {integer(text.substr(0, slash), true), den};
  }
  if (const auto dot = text.find('.'); dot != std::string_view::npos) {
    const std::string_view frac = text.substr(dot + 1);
    if (frac.empty() || frac.size() > 18 || frac.find_first_not_of("0123456789") != std::string_view::npos) throw bad();
    std::int64_t scale = 1;
    for (std::size_t i = 0; i < frac.size(); ++i) scale *= 10;
    const std::string_view whole = text.substr(0, dot);
    const bool negative = !whole.empty() && whole[0] == '-';
    const std::int64_t w = (whole.empty() || whole == "-" || whole == "+") ? 0 : integer(whole, true);
    const Rational f(integer(frac, false), scale);
    return negative ? Rational(w) - f : Rational(w) + f;
  }
  return {integer(text, true)};
}

std::ostream& operator<<(std::ostream& out, const Rational& r) { return out << r.to_string(); }

std::int64_t lcm_checked(std::int64_t a, std::int64_t b) {
  const std::int64_t g = std::gcd(a, b);
  std::int64_t l = 0;
  if (g == 0) return 0;
  if (__builtin_mul_overflow(a / g, b, &l)) throw OverflowError("least common multiple overflowed 64 bits");
  return l < 0 ? -l : l;
}

}  // namespace starnet
