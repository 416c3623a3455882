#pragma once
/// @file
/// Exact rational numbers for costs, times and throughputs.
///
/// A Rational is num/den in lowest terms with den > 0, both 64-bit. Every operation computes in
/// 128 bits and throws starnet::Error when the reduced result does not fit, so a result is exact
/// or there is no result. Costs and schedule times in starnet's models stay small (their
/// denominators divide the lcm of the inputs' denominators), so 64 bits suffice in practice; the
/// linear programs of the steady-state module use GMP instead.

#include <compare>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace starnet {

/// 128-bit intermediate for exact 64-bit rational arithmetic (a GCC/Clang extension).
__extension__ typedef __int128 Wide;

class Rational {
 public:
  constexpr Rational() noexcept = default;
  constexpr Rational(std::int64_t value) noexcept : num_(value) {}  // NOLINT: implicit from integers
  /// @throws Error if den == 0.
  Rational(std::int64_t num, std::int64_t den);

  /// Parses "3", "-2", "2/3" or a finite decimal such as "0.25" (read exactly as 1/4).
  /// @param what names the input in the error message (e.g. `--d`).
  /// @throws InputError naming @p what and @p text when the text is not such a number.
  static Rational parse(std::string_view text, std::string_view what);

  [[nodiscard]] constexpr std::int64_t num() const { return num_; }
  [[nodiscard]] constexpr std::int64_t den() const { return den_; }
  [[nodiscard]] constexpr bool is_integer() const { return den_ == 1; }
  [[nodiscard]] double to_double() const { return static_cast<double>(num_) / static_cast<double>(den_); }
  /// "7/2", or "3" for an integer.
  [[nodiscard]] std::string to_string() const;
  /// Largest integer <= this, and smallest integer >= this.
  [[nodiscard]] std::int64_t floor() const;
  [[nodiscard]] std::int64_t ceil() const;

  friend Rational operator+(const Rational& a, const Rational& b);
  friend Rational operator-(const Rational& a, const Rational& b);
  friend Rational operator*(const Rational& a, const Rational& b);
  /// @throws Error on division by zero.
  friend Rational operator/(const Rational& a, const Rational& b);
  friend Rational operator-(const Rational& a) { return Rational(0) - a; }
  Rational& operator+=(const Rational& b) { return *this = *this + b; }
  Rational& operator-=(const Rational& b) { return *this = *this - b; }
  Rational& operator*=(const Rational& b) { return *this = *this * b; }
  Rational& operator/=(const Rational& b) { return *this = *this / b; }

  friend bool operator==(const Rational& a, const Rational& b) = default;
  // Inline: the emulator compares times and sizes on every event.
  friend std::strong_ordering operator<=>(const Rational& a, const Rational& b) {
    if (a.den_ == b.den_) return a.num_ <=> b.num_;  // denominators are positive
    return static_cast<Wide>(a.num_) * b.den_ <=> static_cast<Wide>(b.num_) * a.den_;
  }

 private:
  static Rational reduce(Wide num, Wide den);
  std::int64_t num_ = 0;
  std::int64_t den_ = 1;
};

std::ostream& operator<<(std::ostream& out, const Rational& r);

/// Least common multiple of two positive integers. @throws Error on overflow.
std::int64_t lcm_checked(std::int64_t a, std::int64_t b);

}  // namespace starnet

template <>
struct std::hash<starnet::Rational> {
  std::size_t operator()(const starnet::Rational& r) const noexcept {
    return std::hash<std::int64_t>{}(r.num()) * 31U + std::hash<std::int64_t>{}(r.den());
  }
};
