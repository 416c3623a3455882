#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/core/rational_gmp.hpp>

#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <ostream>
#include <utility>

namespace starnet {

// A big value's numerator and denominator are tested with mpz_fits_slong_p and read with
// mpz_get_si, and its pointer travels in num_.
static_assert(sizeof(long) == sizeof(std::int64_t) && sizeof(const void*) == sizeof(std::int64_t));

/// A value that does not fit the small form: shared by every copy, never changed, freed by the
/// last one.
struct Rational::Big {
  explicit Big(mpq_class v) : value(std::move(v)) {}
  std::atomic<std::uint64_t> refs{1};
  const mpq_class value;  // canonical, and numerator or denominator beyond 64 bits
};

/// The GMP side of Rational, kept out of its header.
class RationalAccess {
 public:
  static Rational::Big* pointer(const Rational& r) { return std::bit_cast<Rational::Big*>(r.num_); }
  static const mpq_class& big(const Rational& r) { return pointer(r)->value; }
  static Rational small(std::int64_t num, std::int64_t den) {
    Rational r;
    r.num_ = num;
    r.den_ = den;
    return r;
  }
  /// The one form of canonical @p q: small when it fits.
  static Rational make(mpq_class&& q) {
    if (q.get_num().fits_slong_p() && q.get_den().fits_slong_p()) {
      return small(q.get_num().get_si(), q.get_den().get_si());
    }
    Rational r;
    r.num_ = std::bit_cast<std::int64_t>(new Rational::Big(std::move(q)));
    r.den_ = Rational::BIG;
    return r;
  }
  /// a op b ('+', '-', '*' or '/') in GMP, for operands of which one at least is big. Out of line
  /// and cold, as is every GMP path: the operators' 64-bit paths then save no registers for GMP
  /// calls (inlined, this path made GreedyPlan's additions 2.5 times as long).
  [[gnu::noinline, gnu::cold]] static Rational compute(const Rational& a, const Rational& b, char op) {
    mpq_class a_copy;
    mpq_class b_copy;
    const mpq_class& x = a.is_small() ? (a_copy = to_mpq(a)) : big(a);
    const mpq_class& y = b.is_small() ? (b_copy = to_mpq(b)) : big(b);
    switch (op) {
      case '+': return make(mpq_class(x + y));
      case '-': return make(mpq_class(x - y));
      case '*': return make(mpq_class(x * y));
      default: return make(mpq_class(x / y));
    }
  }
  /// num/den of 128 bits, in lowest terms, that do not fit the small form.
  [[gnu::noinline, gnu::cold]] static Rational make_wide(Wide num, Wide den);
};

namespace {

using Access = RationalAccess;

Wide gcd128(Wide a, Wide b) {
  __extension__ typedef unsigned __int128 UnsignedWide;
  constexpr UnsignedWide NARROW = std::numeric_limits<std::uint64_t>::max();
  UnsignedWide x = a < 0 ? -static_cast<UnsignedWide>(a) : static_cast<UnsignedWide>(a);
  UnsignedWide y = b < 0 ? -static_cast<UnsignedWide>(b) : static_cast<UnsignedWide>(b);
  while (y != 0 && (x > NARROW || y > NARROW)) {
    const UnsignedWide t = x % y;
    x = y;
    y = t;
  }
  if (y == 0) return static_cast<Wide>(x);
  // Both fit in 64 bits, as nearly always: a 64-bit gcd rather than 128-bit remainders, which
  // took a fifth of a what-if study's time on a network of 5,488 hosts (docs/whatif.md).
  return static_cast<Wide>(std::gcd(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y)));
}

bool fits(Wide v) {
  return v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max();
}

mpz_class to_mpz(Wide v) {
  __extension__ typedef unsigned __int128 UnsignedWide;
  constexpr int HALF = 64;
  const UnsignedWide magnitude = v < 0 ? -static_cast<UnsignedWide>(v) : static_cast<UnsignedWide>(v);
  mpz_class z(static_cast<unsigned long>(magnitude >> HALF));
  z <<= HALF;
  z += static_cast<unsigned long>(magnitude);  // the low half
  if (v < 0) z = -z;
  return z;
}

/// Mixes @p z's limbs into @p h.
std::size_t mix(std::size_t h, const mpz_class& z) {
  constexpr std::size_t MULTIPLIER = 0x9e3779b97f4a7c15ULL;
  h = (h ^ static_cast<std::size_t>(mpz_sgn(z.get_mpz_t()) + 1)) * MULTIPLIER;
  for (std::size_t i = 0; i < mpz_size(z.get_mpz_t()); ++i) {
    h = (h ^ static_cast<std::size_t>(mpz_getlimbn(z.get_mpz_t(), static_cast<mp_size_t>(i)))) * MULTIPLIER;
  }
  return h;
}

/// @p q rounded to the nearest double (ties to even): the quotient of |num|·2^s by den with 62
/// to 64 significant bits, whose last bit is set when the division is not exact, converts with
/// a single rounding, which ldexp does not change (outside the subnormals).
double nearest_double(const mpq_class& q) {
  constexpr long QUOTIENT_BITS = 63;  // |num|·2^s / den lies in (2^62, 2^64)
  const mpz_class num = abs(q.get_num());
  const mpz_class& den = q.get_den();
  const long magnitude = static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2)) -
                         static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2));
  const long shift = QUOTIENT_BITS - magnitude;
  mpz_class scaled = num;
  mpz_class divisor = den;
  if (shift >= 0) {
    scaled <<= static_cast<mp_bitcnt_t>(shift);
  } else {
    divisor <<= static_cast<mp_bitcnt_t>(-shift);
  }
  mpz_class quotient;
  mpz_class remainder;
  mpz_tdiv_qr(quotient.get_mpz_t(), remainder.get_mpz_t(), scaled.get_mpz_t(), divisor.get_mpz_t());
  std::uint64_t bits = mpz_get_ui(quotient.get_mpz_t());
  if (remainder != 0) bits |= 1U;  // sticky: below every bit a double keeps
  // shift is within int: it is about the bit length of num or den.
  const double value = std::ldexp(static_cast<double>(bits), static_cast<int>(-shift));
  return q.get_num() < 0 ? -value : value;
}

}  // namespace

Rational RationalAccess::make_wide(Wide num, Wide den) { return make(mpq_class(to_mpz(num), to_mpz(den))); }

mpq_class to_mpq(const Rational& r) {
  if (!r.is_small()) return Access::big(r);
  mpq_class q;
  mpq_set_si(q.get_mpq_t(), r.num(), static_cast<unsigned long>(r.den()));  // already in lowest terms
  return q;
}

Rational to_rational(mpq_class q) {
  q.canonicalize();
  return Access::make(std::move(q));
}

Rational::Rational(std::int64_t num, std::int64_t den) {
  if (den == 0) throw Error("rational " + std::to_string(num) + "/0 has a zero denominator");
  *this = reduce(num, den);
}

void Rational::retain() const noexcept { Access::pointer(*this)->refs.fetch_add(1, std::memory_order_relaxed); }

void Rational::release() noexcept {
  Big* big = Access::pointer(*this);
  // acq_rel: the last owner sees every other owner's reads done before it frees the value.
  if (big->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete big;
}

Rational& Rational::assign(const Rational& other) noexcept {
  if (other.den_ == BIG) other.retain();  // first: other may be *this, or share its Big
  if (den_ == BIG) release();
  num_ = other.num_;
  den_ = other.den_;
  return *this;
}

std::int64_t Rational::big_num() const {
  detail::assertion_failed("is_small() (num() and den() of a value beyond 64 bits)", __FILE__, __LINE__);
}

bool Rational::big_is_integer() const { return Access::big(*this).get_den() == 1; }

double Rational::big_to_double() const { return nearest_double(Access::big(*this)); }

bool Rational::equal_big(const Rational& a, const Rational& b) noexcept {
  return mpq_equal(Access::big(a).get_mpq_t(), Access::big(b).get_mpq_t()) != 0;
}

std::strong_ordering Rational::compare_big(const Rational& a, const Rational& b) {
  int c = 0;
  if (!a.is_small() && !b.is_small()) {
    c = mpq_cmp(Access::big(a).get_mpq_t(), Access::big(b).get_mpq_t());
  } else if (!a.is_small()) {
    c = mpq_cmp_si(Access::big(a).get_mpq_t(), b.num_, static_cast<unsigned long>(b.den_));
  } else {
    c = -mpq_cmp_si(Access::big(b).get_mpq_t(), a.num_, static_cast<unsigned long>(a.den_));
  }
  return c <=> 0;
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
  if (!fits(num) || !fits(den)) [[unlikely]] return Access::make_wide(num, den);
  return Access::small(static_cast<std::int64_t>(num), static_cast<std::int64_t>(den));
}

Rational Rational::add(const Rational& a, const Rational& b) {
  if (!a.is_small() || !b.is_small()) {
    return Access::compute(a, b, '+');
  }
  if (a.num_ == 0) return b;
  if (b.num_ == 0) return a;
  return Rational::reduce(static_cast<Wide>(a.num_) * b.den_ + static_cast<Wide>(b.num_) * a.den_,
                          static_cast<Wide>(a.den_) * b.den_);
}

Rational Rational::subtract(const Rational& a, const Rational& b) {
  if (!a.is_small() || !b.is_small()) {
    return Access::compute(a, b, '-');
  }
  return Rational::reduce(static_cast<Wide>(a.num_) * b.den_ - static_cast<Wide>(b.num_) * a.den_,
                          static_cast<Wide>(a.den_) * b.den_);
}

Rational operator*(const Rational& a, const Rational& b) {
  if (!a.is_small() || !b.is_small()) {
    return Access::compute(a, b, '*');
  }
  return Rational::reduce(static_cast<Wide>(a.num_) * b.num_, static_cast<Wide>(a.den_) * b.den_);
}

Rational operator/(const Rational& a, const Rational& b) {
  if (b.sign() == 0) throw Error("exact rational division by zero: " + a.to_string() + " / 0");
  if (!a.is_small() || !b.is_small()) {
    return Access::compute(a, b, '/');
  }
  return Rational::reduce(static_cast<Wide>(a.num_) * b.den_, static_cast<Wide>(a.den_) * b.num_);
}

int Rational::big_sign() const { return mpq_sgn(Access::big(*this).get_mpq_t()); }

namespace {

/// The integer a big value rounds to by @p divide (mpz_fdiv_q or mpz_cdiv_q), which must fit.
std::int64_t big_integer(const Rational& r, const mpq_class& q, void (*divide)(mpz_ptr, mpz_srcptr, mpz_srcptr),
                         const char* which) {
  mpz_class z;
  divide(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  if (!z.fits_slong_p()) {
    throw OverflowError("the " + std::string(which) + " of " + r.to_string() + " is " + z.get_str() +
                        ", beyond 64-bit integers (expected a count or an index)");
  }
  return z.get_si();
}

}  // namespace

std::int64_t Rational::floor() const {
  if (den_ == BIG) return big_integer(*this, Access::big(*this), mpz_fdiv_q, "floor");
  const std::int64_t q = num_ / den_;
  return (num_ % den_ != 0 && num_ < 0) ? q - 1 : q;
}

std::int64_t Rational::ceil() const {
  if (den_ == BIG) return big_integer(*this, Access::big(*this), mpz_cdiv_q, "ceiling");
  const std::int64_t q = num_ / den_;
  return (num_ % den_ != 0 && num_ > 0) ? q + 1 : q;
}

std::size_t Rational::hash() const noexcept {
  if (den_ == BIG) {
    const mpq_class& q = Access::big(*this);
    return mix(mix(0, q.get_num()), q.get_den());
  }
  return std::hash<std::int64_t>{}(num_) * 31U + std::hash<std::int64_t>{}(den_);
}

std::string Rational::to_string() const {
  if (den_ == BIG) return Access::big(*this).get_str();
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

Rational Rational::parse(std::string_view text, std::string_view what) {
  const auto bad = [&]() {
    return InputError(std::string(what) + ": \"" + std::string(text) +
                      "\" is not a number (expected an integer, a fraction such as 2/3, or a decimal such as 0.25)");
  };
  // Decimal digits with an optional sign, as many as given.
  const auto integer = [&](std::string_view digits, bool allow_sign) -> Rational {
    std::int64_t v = 0;
    if (digits.empty() || (!allow_sign && (digits[0] == '-' || digits[0] == '+'))) throw bad();
    if (digits[0] == '+') {
      digits.remove_prefix(1);
      if (digits.empty() || digits[0] == '-') throw bad();  // "+-3"
    }
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ptr != digits.data() + digits.size()) throw bad();
    if (ec == std::errc()) return v;
    if (ec != std::errc::result_out_of_range) throw bad();
    // Every character was matched as a digit (or the leading '-'): GMP reads the same text.
    return to_rational(mpq_class(mpz_class(std::string(digits), 10)));
  };
  if (const auto slash = text.find('/'); slash != std::string_view::npos) {
    const Rational den = integer(text.substr(slash + 1), false);
    if (den == 0) throw InputError(std::string(what) + ": \"" + std::string(text) + "\" has a zero denominator");
    return integer(text.substr(0, slash), true) / den;
  }
  if (const auto dot = text.find('.'); dot != std::string_view::npos) {
    const std::string_view frac = text.substr(dot + 1);
    if (frac.empty() || frac.find_first_not_of("0123456789") != std::string_view::npos) throw bad();
    constexpr std::size_t SMALL_DIGITS = 18;  // 10^18 < 2^63
    Rational scale = 1;
    if (frac.size() <= SMALL_DIGITS) {
      std::int64_t s = 1;
      for (std::size_t i = 0; i < frac.size(); ++i) s *= 10;
      scale = s;
    } else {
      mpz_class s;
      mpz_ui_pow_ui(s.get_mpz_t(), 10, frac.size());
      scale = to_rational(mpq_class(s));
    }
    const std::string_view whole = text.substr(0, dot);
    const bool negative = !whole.empty() && whole[0] == '-';
    const Rational w = (whole.empty() || whole == "-" || whole == "+") ? Rational(0) : integer(whole, true);
    const Rational f = integer(frac, false) / scale;
    return negative ? w - f : w + f;
  }
  return integer(text, true);
}

std::ostream& operator<<(std::ostream& out, const Rational& r) { return out << r.to_string(); }

}  // namespace starnet
