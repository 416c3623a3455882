#pragma once
/// @file
/// Exact rational numbers for costs, times and throughputs, of any size.
///
/// A Rational is num/den in lowest terms with den > 0. It is never rounded and never overflows:
/// a value whose numerator and denominator fit 64 bits (the *small* form, almost every value
/// starnet meets) is two int64 computed in 128 bits; a value that does not (sums of decimal
/// times such as 1/1250000000 + 1/3 along a few routes of a SimGrid platform) is held in GMP
/// (the *big* form, `mpq_class`), and a big result that fits again goes back to the small form.
/// Each value has one form (canonical), so == compares fields and hashing agrees with ==.
///
/// Why this shape: the emulator copies, adds and compares times and sizes on every event
/// (millions per second in Monte-Carlo studies), so the common case must stay two words with
/// inline comparisons; the big form costs one test of den_ on copies, and the rare big values a
/// shared, immutable heap object (an atomic count, so values may cross threads). Against the
/// 64-bit-only Rational it replaced: Monte-Carlo and timed runs execute 0.3–2 % more instructions,
/// their timings within noise; tree planning, all heap moves, 14–24 % more (docs/emulator.md,
/// "Time: exact at any size").
///
/// `to_mpq`/`to_rational` (rational_gmp.hpp) convert to and from GMP exactly.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace starnet {

/// 128-bit intermediate for exact 64-bit rational arithmetic (a GCC/Clang extension).
__extension__ typedef __int128 Wide;

class RationalAccess;  // rational.cpp: the GMP side

class Rational {
 public:
  constexpr Rational() noexcept = default;
  constexpr Rational(std::int64_t value) noexcept : num_(value) {}  // NOLINT: implicit from integers
  /// @throws Error if den == 0.
  Rational(std::int64_t num, std::int64_t den);

  Rational(const Rational& other) noexcept : num_(other.num_), den_(other.den_) {
    if (den_ == BIG) [[unlikely]] retain();
  }
  // A moved-from value is 0, whatever it held: no test, and the compiler can drop its destructor's
  // (heaps and sorts of times move them all the time).
  Rational(Rational&& other) noexcept : num_(other.num_), den_(other.den_) {
    other.num_ = 0;
    other.den_ = 1;
  }
  Rational& operator=(const Rational& other) noexcept {
    if ((den_ == BIG) | (other.den_ == BIG)) [[unlikely]] return assign(other);
    num_ = other.num_;
    den_ = other.den_;
    return *this;
  }
  Rational& operator=(Rational&& other) noexcept {
    const std::int64_t num = other.num_;
    const std::int64_t den = other.den_;
    other.num_ = 0;  // first: other may be *this
    other.den_ = 1;
    if (den_ == BIG) [[unlikely]] release();
    num_ = num;
    den_ = den;
    return *this;
  }
  ~Rational() {
    if (den_ == BIG) [[unlikely]] release();
  }

  /// num/den of 128-bit integers (sums of 64-bit products, for instance). @pre den != 0.
  static Rational from_wide(Wide num, Wide den) { return reduce(num, den); }

  /// Parses "3", "-2", "2/3" or a finite decimal such as "0.25" (read exactly as 1/4), with as
  /// many digits as given.
  /// @param what names the input in the error message (e.g. `--d`).
  /// @throws InputError naming @p what and @p text when the text is not such a number.
  static Rational parse(std::string_view text, std::string_view what);

  /// True when numerator and denominator fit 64 bits, as num() and den() give them.
  [[nodiscard]] constexpr bool is_small() const { return den_ != BIG; }
  /// @pre is_small().
  [[nodiscard]] std::int64_t num() const { return den_ != BIG ? num_ : big_num(); }
  /// @pre is_small().
  [[nodiscard]] std::int64_t den() const { return den_ != BIG ? den_ : big_num(); }
  [[nodiscard]] bool is_integer() const { return den_ == 1 || (den_ == BIG && big_is_integer()); }
  /// -1, 0 or 1. Inline: the emulator checks every size, work and delay.
  [[nodiscard]] int sign() const { return den_ != BIG ? (num_ > 0) - (num_ < 0) : big_sign(); }
  /// The nearest double for a big value (infinite beyond the doubles); num/den in doubles otherwise.
  [[nodiscard]] double to_double() const {
    return den_ != BIG ? static_cast<double>(num_) / static_cast<double>(den_) : big_to_double();
  }
  /// "7/2", or "3" for an integer, whatever its size.
  [[nodiscard]] std::string to_string() const;
  /// Largest integer <= this, and smallest integer >= this.
  /// @throws OverflowError naming the value when that integer does not fit 64 bits.
  [[nodiscard]] std::int64_t floor() const;
  [[nodiscard]] std::int64_t ceil() const;
  /// Equal values hash equally (std::hash<Rational>).
  [[nodiscard]] std::size_t hash() const noexcept;

  // Sums of integers inline (step counts, integer costs), the rest out of line: a call that returns
  // through memory costs what the two-word sum itself does.
  friend Rational operator+(const Rational& a, const Rational& b) {
    std::int64_t s = 0;
    if (((a.den_ == 1) & (b.den_ == 1)) && !__builtin_add_overflow(a.num_, b.num_, &s)) return Rational(s);
    return add(a, b);
  }
  friend Rational operator-(const Rational& a, const Rational& b) {
    std::int64_t s = 0;
    if (((a.den_ == 1) & (b.den_ == 1)) && !__builtin_sub_overflow(a.num_, b.num_, &s)) return Rational(s);
    return subtract(a, b);
  }
  friend Rational operator*(const Rational& a, const Rational& b);
  /// @throws Error on division by zero.
  friend Rational operator/(const Rational& a, const Rational& b);
  friend Rational operator-(const Rational& a) { return Rational(0) - a; }
  Rational& operator+=(const Rational& b) { return *this = *this + b; }
  Rational& operator-=(const Rational& b) { return *this = *this - b; }
  Rational& operator*=(const Rational& b) { return *this = *this * b; }
  Rational& operator/=(const Rational& b) { return *this = *this / b; }

  // Inline: the emulator compares times and sizes on every event. Canonical forms: a small and
  // a big value are never equal.
  friend bool operator==(const Rational& a, const Rational& b) noexcept {
    if (a.den_ != b.den_) return false;
    return a.den_ != BIG ? a.num_ == b.num_ : equal_big(a, b);
  }
  friend std::strong_ordering operator<=>(const Rational& a, const Rational& b) {
    if (a.den_ == b.den_ && a.den_ != BIG) return a.num_ <=> b.num_;  // denominators are positive
    if ((a.den_ != BIG) & (b.den_ != BIG)) {
      return static_cast<Wide>(a.num_) * b.den_ <=> static_cast<Wide>(b.num_) * a.den_;
    }
    return compare_big(a, b);
  }

 private:
  friend class RationalAccess;
  struct Big;  // rational.cpp: a shared, immutable mpq_class
  /// den_ of a big value (no small value has it): num_'s bits are then a pointer to its Big.
  static constexpr std::int64_t BIG = 0;

  // Out of line: the operators then stay a test and a tail call (rational.cpp, compute()).
  [[gnu::noinline]] static Rational reduce(Wide num, Wide den);
  static Rational add(const Rational& a, const Rational& b);
  static Rational subtract(const Rational& a, const Rational& b);
  void retain() const noexcept;
  void release() noexcept;
  Rational& assign(const Rational& other) noexcept;
  [[nodiscard]] std::int64_t big_num() const;  // fails the precondition of num() and den()
  [[nodiscard]] bool big_is_integer() const;
  [[nodiscard]] int big_sign() const;
  [[nodiscard]] double big_to_double() const;
  static bool equal_big(const Rational& a, const Rational& b) noexcept;
  static std::strong_ordering compare_big(const Rational& a, const Rational& b);

  std::int64_t num_ = 0;  // small: the numerator; big: a `const Big*` (std::bit_cast)
  std::int64_t den_ = 1;
};

std::ostream& operator<<(std::ostream& out, const Rational& r);

}  // namespace starnet

template <>
struct std::hash<starnet::Rational> {
  std::size_t operator()(const starnet::Rational& r) const noexcept { return r.hash(); }
};
