#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <gtest/gtest.h>

#include <limits>

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

TEST(Rational, OverflowPrevention) {
  const Rational big(std::numeric_limits<std::int64_t>::max());
  EXPECT_THROW((void)(big + 1), OverflowError);
  EXPECT_THROW((void)(big * 2), OverflowError);
  try {
    (void)(big * big);
  } catch (const OverflowError& e) {
    EXPECT_EQ(e.exit_code(), 2);  // the input's numbers are at fault
  }
  EXPECT_THROW((void)(Rational(1) / 0), Error);
  EXPECT_EQ(big - 1 + 1, big);
}

}  // namespace
}  // namespace starnet
