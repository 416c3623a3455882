#include "expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/core/rational_gmp.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <vector>

namespace starnet {
namespace {

TEST(Rational, ReducesAndNormalisesSign) {
  EXPECT_EQ(Rational(4, -6), Rational(-2, 3));
  EXPECT_EQ(Rational(4, -6).to_string(), "-2/3");
  EXPECT_EQ(Rational(6, 3).to_string(), "2");
}

TEST(Rational, Arithmetic) {
  EXPECT_EQ(Rational(1, 2) + Rational(1, 3), Rational(5, 6));
  EXPECT_EQ(Rational(1, 2) - Rational(1, 3), Rational(1, 6));
  EXPECT_EQ(Rational(2, 3) * Rational(3, 4), Rational(1, 2));
  EXPECT_EQ(Rational(2, 3) / Rational(4, 3), Rational(1, 2));
  EXPECT_LT(Rational(1, 3), Rational(1, 2));
  EXPECT_EQ(Rational(7, 2).floor(), 3);
  EXPECT_EQ(Rational(7, 2).ceil(), 4);
  EXPECT_EQ(Rational(-7, 2).floor(), -4);
  EXPECT_EQ(Rational(-7, 2).ceil(), -3);
}

TEST(Rational, ParsesIntegersFractionsAndDecimals) {
  EXPECT_EQ(Rational::parse("3", "--d"), Rational(3));
  EXPECT_EQ(Rational::parse("3/2", "--d"), Rational(3, 2));
  EXPECT_EQ(Rational::parse("-4/6", "--d"), Rational(-2, 3));
  EXPECT_EQ(Rational::parse("0.25", "--d"), Rational(1, 4));
  EXPECT_EQ(Rational::parse("-1.5", "--d"), Rational(-3, 2));
}

TEST(Rational, RejectsNonNumbersNamingTheInput) {
  for (const char* text : {"", "x", "1/0", "1/", "/2", "1.2.3", "1e5", "2/-3"}) {
    try {
      (void)Rational::parse(text, "--c");
      FAIL() << "accepted \"" << text << "\"";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--c"), std::string::npos) << e.what();
    }
  }
}

TEST(Rational, SmallFormIsTwoWords) {
  static_assert(sizeof(Rational) == 2 * sizeof(std::int64_t));
  EXPECT_TRUE(Rational(std::numeric_limits<std::int64_t>::max(), 3).is_small());
}

// ---- beyond 64 bits: exact, never an OverflowError ----------------------------------

/// The same value computed in GMP alone, the oracle of the tests below.
mpq_class q(const char* text) {
  mpq_class value(text, 10);
  value.canonicalize();
  return value;
}

TEST(RationalBig, ArithmeticPast64BitsIsExact) {
  const Rational max(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(to_mpq(max + 1), q("9223372036854775808"));
  EXPECT_EQ(to_mpq(max * 2), q("18446744073709551614"));
  EXPECT_EQ(to_mpq(max * max), q("85070591730234615847396907784232501249"));
  EXPECT_EQ(to_mpq(-max - 2), q("-9223372036854775809"));
  EXPECT_EQ(to_mpq(Rational(1) / (max + 1)), q("1/9223372036854775808"));
  EXPECT_FALSE((max + 1).is_small());
  EXPECT_EQ(max - 1 + 1, max);
}

TEST(RationalBig, SumsOfDecimalTimesStayExact) {
  // The latencies and inverse bandwidths of SimGrid's small_platform.xml add up to denominators
  // beyond 64 bits after a few hops.
  const Rational a = Rational(1, 1250000000) + Rational(1, 3);
  const Rational b = a + Rational(1, 41279125) + Rational(1, 34285625) + Rational(1, 10099625);
  const Rational c = b * Rational(7, 11) + Rational(1, 16673375);
  const mpq_class qa = mpq_class(1, 1250000000) + mpq_class(1, 3);
  const mpq_class qb = qa + mpq_class(1, 41279125) + mpq_class(1, 34285625) + mpq_class(1, 10099625);
  const mpq_class qc = qb * mpq_class(7, 11) + mpq_class(1, 16673375);
  EXPECT_EQ(to_mpq(a), qa);
  EXPECT_EQ(to_mpq(b), qb);
  EXPECT_EQ(to_mpq(c), qc);
  EXPECT_FALSE(c.is_small()) << c;
  EXPECT_EQ(to_mpq(c / b), mpq_class(qc / qb));
  EXPECT_EQ(to_mpq(c - b), mpq_class(qc - qb));
}

TEST(RationalBig, ResultThatFitsReturnsToTheSmallForm) {
  const Rational big = Rational(1, 1250000000) * Rational(1, 41279125) * Rational(1, 34285625);
  ASSERT_FALSE(big.is_small());
  const Rational back = big * 1250000000 * 41279125;
  EXPECT_TRUE(back.is_small());
  EXPECT_EQ(back, Rational(1, 34285625));
  EXPECT_EQ(back.num(), 1);
  EXPECT_EQ(back.den(), 34285625);
  const Rational zero = big - big;
  EXPECT_TRUE(zero.is_small());
  EXPECT_EQ(zero, 0);
  EXPECT_EQ(to_rational(to_mpq(big)), big);
  EXPECT_TRUE(to_rational(mpq_class(6, 4)).is_small());
  EXPECT_EQ(to_rational(mpq_class(6, 4)), Rational(3, 2));
}

TEST(RationalBig, ComparesWithSmallAndBigValues) {
  const Rational max(std::numeric_limits<std::int64_t>::max());
  const Rational above = max + 1;
  const Rational far = above * above;
  EXPECT_LT(max, above);
  EXPECT_GT(above, max);
  EXPECT_LT(above, far);
  EXPECT_GT(-above, -max - 1 - 1);
  EXPECT_LT(-far, Rational(-1, 3));
  const Rational tiny = Rational(1) / far;
  EXPECT_GT(tiny, 0);
  EXPECT_LT(tiny, Rational(1, std::numeric_limits<std::int64_t>::max()));
  EXPECT_NE(tiny, 0);
  EXPECT_EQ(above, max + 1);  // two Big objects, one value
  EXPECT_EQ(above <=> max + 1, std::strong_ordering::equal);
  EXPECT_EQ(tiny.sign(), 1);
  EXPECT_EQ((-tiny).sign(), -1);
}

TEST(RationalBig, EqualValuesHashEqually) {
  const Rational x = Rational(1, 1250000000) * Rational(1, 41279125) * Rational(1, 34285625) * Rational(1, 3);
  const Rational y = Rational(1, 3) * Rational(1, 41279125) / 1250000000 / 34285625;
  ASSERT_FALSE(x.is_small());
  EXPECT_EQ(x, y);
  EXPECT_EQ(std::hash<Rational>{}(x), std::hash<Rational>{}(y));
  EXPECT_NE(std::hash<Rational>{}(x), std::hash<Rational>{}(x * 2));
  const std::unordered_set<Rational> set{x, y, x * 2, Rational(1, 3)};
  EXPECT_EQ(set.size(), 3U);
}

TEST(RationalBig, CopiesAndMovesShareOneValue) {
  const Rational big = Rational(std::numeric_limits<std::int64_t>::max()) * 3;
  Rational copy = big;
  Rational moved = std::move(copy);
  EXPECT_EQ(moved, big);
  EXPECT_EQ(copy, 0);  // NOLINT(bugprone-use-after-move): a moved-from big value is 0
  Rational assigned = 5;
  assigned = big;
  EXPECT_EQ(assigned, big);
  const Rational& same = assigned;  // self-assignment, through a reference Clang does not warn about
  assigned = same;
  EXPECT_EQ(assigned, big);
  assigned = Rational(7, 2);
  EXPECT_EQ(assigned, Rational(7, 2));
  std::vector<Rational> many(1000, big);
  many.resize(2000, Rational(1, 3));
  EXPECT_EQ(many[999], big);
  EXPECT_EQ(many[1999], Rational(1, 3));
  moved = std::move(many[0]);
  EXPECT_EQ(moved, big);
}

TEST(RationalBig, ToStringIsExact) {
  const Rational max(std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ((max + 1).to_string(), "9223372036854775808");
  EXPECT_EQ((Rational(-1) / (max * 3)).to_string(), "-1/27670116110564327421");
  const Rational sum = Rational(1, 1250000000) * Rational(1, 41279125) + Rational(1, 3);
  EXPECT_EQ(sum.to_string(), mpq_class(mpq_class(1, 1250000000) * mpq_class(1, 41279125) + mpq_class(1, 3)).get_str());
  std::ostringstream out;
  out << max * 2;
  EXPECT_EQ(out.str(), "18446744073709551614");
}

TEST(RationalBig, ToDoubleIsTheNearestDouble) {
  // (2^53 + 1)·2^70 lies halfway between two doubles: ties go to the even one, 2^123; one more
  // unit is nearer the next, (2^53 + 2)·2^70. Truncating (mpq_get_d) would give 2^123 for both.
  const mpz_class halfway = (mpz_class(1) << 123) + (mpz_class(1) << 70);
  EXPECT_EQ(to_rational(mpq_class(halfway)).to_double(), std::ldexp(1.0, 123));
  EXPECT_EQ(to_rational(mpq_class(halfway + 1)).to_double(), std::ldexp(1.0, 123) + std::ldexp(1.0, 71));
  EXPECT_EQ(to_rational(mpq_class(-halfway - 1)).to_double(), -(std::ldexp(1.0, 123) + std::ldexp(1.0, 71)));
  const Rational third = Rational(1) / (Rational(std::numeric_limits<std::int64_t>::max()) * 3);
  EXPECT_DOUBLE_EQ(third.to_double(), 1.0 / 3 / 9223372036854775807.0);
  const mpz_class huge = mpz_class(1) << 2000;
  EXPECT_EQ(to_rational(mpq_class(huge)).to_double(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(to_rational(mpq_class(1, huge)).to_double(), 0.0);
}

TEST(RationalBig, FloorAndCeilOfBigValues) {
  const Rational tiny = Rational(1) / (Rational(std::numeric_limits<std::int64_t>::max()) * 3);
  EXPECT_EQ((tiny + 5).floor(), 5);
  EXPECT_EQ((tiny + 5).ceil(), 6);
  EXPECT_EQ((-tiny).floor(), -1);
  EXPECT_EQ((-tiny).ceil(), 0);
  const Rational far = Rational(std::numeric_limits<std::int64_t>::max()) * 4 + Rational(1, 2);
  EXPECT_ERROR(OverflowError, far.floor(), far.to_string(), "beyond 64-bit integers");
  EXPECT_ERROR(OverflowError, far.ceil(), far.to_string(), "beyond 64-bit integers");
}

TEST(RationalBig, ParsesNumbersOfAnyLength) {
  EXPECT_EQ(to_mpq(Rational::parse("0.1234567890123456789012345", "--d")), q("1234567890123456789012345/10000000000000000000000000"));
  EXPECT_EQ(to_mpq(Rational::parse("-12.0000000000000000000000001", "--d")), q("-120000000000000000000000001/10000000000000000000000000"));
  EXPECT_EQ(to_mpq(Rational::parse("123456789012345678901234567890", "--d")), q("123456789012345678901234567890"));
  EXPECT_EQ(to_mpq(Rational::parse("+123456789012345678901234567890", "--d")), q("123456789012345678901234567890"));
  EXPECT_EQ(to_mpq(Rational::parse("-2/123456789012345678901234567890", "--d")), q("-1/61728394506172839450617283945"));
  // Trailing zeros beyond 18 digits reduce back to the small form.
  const Rational half = Rational::parse("0.50000000000000000000000000", "--d");
  EXPECT_TRUE(half.is_small());
  EXPECT_EQ(half, Rational(1, 2));
  EXPECT_EQ(Rational::parse("123456789012345678901234567890/123456789012345678901234567890", "--d"), 1);
  for (const char* text : {"1/000000000000000000000000000", "1x234567890123456789012345678901", "12345678901234567890.x",
                           "0.12345678901234567890123 ", "--123456789012345678901234567890"}) {
    EXPECT_THROW((void)Rational::parse(text, "--d"), InputError) << text;
  }
}

TEST(RationalBig, DivisionByZeroIsAnError) {
  const Rational big = Rational(std::numeric_limits<std::int64_t>::max()) * 3;
  EXPECT_ERROR(Error, big / 0, big.to_string(), "division by zero");
  EXPECT_EQ(big / big, 1);
}

}  // namespace
}  // namespace starnet
