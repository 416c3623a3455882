// The conventions of every JSON document (api/json.hpp, docs/json.md): an exact rational is a JSON
// integer when it is a 64-bit integer, otherwise a double beside its exact text in KEY_exact —
// whatever its size — and "version" comes first.
#include <starnet/api/json.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <regex>
#include <string>
#include <thread>

namespace starnet::api {
namespace {

constexpr std::int64_t INT64_MAX_VALUE = std::numeric_limits<std::int64_t>::max();

TEST(PutExact, AnIntegerIsAJsonIntegerWithoutExactText) {
  nlohmann::json j;
  put_exact(j, "steps", Rational(6));
  put_exact(j, "offset", Rational(-7));
  put_exact(j, "largest", Rational(INT64_MAX_VALUE));
  EXPECT_TRUE(j.at("steps").is_number_integer());
  EXPECT_EQ(j.at("steps"), 6);
  EXPECT_EQ(j.at("offset"), -7);
  EXPECT_EQ(j.at("largest").get<std::int64_t>(), INT64_MAX_VALUE);
  EXPECT_FALSE(j.contains("steps_exact"));
  EXPECT_FALSE(j.contains("largest_exact"));
}

TEST(PutExact, AFractionIsADoubleBesideItsExactText) {
  nlohmann::json j;
  put_exact(j, "ratio", Rational(249, 250));
  EXPECT_TRUE(j.at("ratio").is_number_float());
  EXPECT_DOUBLE_EQ(j.at("ratio").get<double>(), 0.996);
  EXPECT_EQ(j.at("ratio_exact"), "249/250");
  put_exact(j, "third", Rational(-1, 3));
  EXPECT_DOUBLE_EQ(j.at("third").get<double>(), -1.0 / 3);
  EXPECT_EQ(j.at("third_exact"), "-1/3");
}

TEST(PutExact, ValuesBeyond64BitsKeepEveryDigitInTheExactText) {
  // (2^63 − 1)² and 2^63 are integers a JSON integer of 64 bits cannot hold; 1/(3·(2^63 − 1)) has a
  // denominator beyond 64 bits. Rational holds all three in GMP (core/rational.hpp).
  const Rational square = Rational(INT64_MAX_VALUE) * Rational(INT64_MAX_VALUE);
  const Rational two_to_63 = Rational(INT64_MAX_VALUE) + Rational(1);
  const Rational tiny = Rational(1, 3) / Rational(INT64_MAX_VALUE);
  ASSERT_FALSE(square.is_small());
  ASSERT_FALSE(two_to_63.is_small());
  ASSERT_FALSE(tiny.is_small());
  nlohmann::json j;
  put_exact(j, "square", square);
  put_exact(j, "power", two_to_63);
  put_exact(j, "tiny", tiny);
  EXPECT_TRUE(j.at("square").is_number_float());
  EXPECT_DOUBLE_EQ(j.at("square").get<double>(), 8.507059173023462e+37);
  EXPECT_EQ(j.at("square_exact"), "85070591730234615847396907784232501249");
  EXPECT_DOUBLE_EQ(j.at("power").get<double>(), 9223372036854775808.0);
  EXPECT_EQ(j.at("power_exact"), "9223372036854775808");
  EXPECT_DOUBLE_EQ(j.at("tiny").get<double>(), 3.614007241618348e-20);
  EXPECT_EQ(j.at("tiny_exact"), "1/27670116110564327421");
  // Back to 64 bits, back to a JSON integer.
  nlohmann::json k;
  put_exact(k, "back", square / Rational(INT64_MAX_VALUE));
  EXPECT_EQ(k.at("back").get<std::int64_t>(), INT64_MAX_VALUE);
  EXPECT_FALSE(k.contains("back_exact"));
}

TEST(PutExact, ExactTextOfAGmpValueBecomesAnIntegerOnlyWhenItFits64Bits) {
  nlohmann::json j;
  put_exact(j, "whole", "6", 6.0);
  put_exact(j, "negative", "-12", -12.0);
  put_exact(j, "fraction", "249/250", 0.996);
  put_exact(j, "huge", "9223372036854775808", 9223372036854775808.0);
  EXPECT_TRUE(j.at("whole").is_number_integer());
  EXPECT_EQ(j.at("whole"), 6);
  EXPECT_EQ(j.at("negative"), -12);
  EXPECT_FALSE(j.contains("whole_exact"));
  EXPECT_DOUBLE_EQ(j.at("fraction").get<double>(), 0.996);
  EXPECT_EQ(j.at("fraction_exact"), "249/250");
  EXPECT_TRUE(j.at("huge").is_number_float());
  EXPECT_EQ(j.at("huge_exact"), "9223372036854775808");
}

TEST(ExactAlways, ScopesNestAndRestoreWhatWasBefore) {
  EXPECT_FALSE(exact_always());
  {
    const ExactAlways outer;
    EXPECT_TRUE(exact_always());
    {
      const ExactAlways inner;
      EXPECT_TRUE(exact_always());
    }
    EXPECT_TRUE(exact_always());  // the inner scope restores the outer's setting, not false
    nlohmann::json j;
    put_exact(j, "makespan", Rational(6));
    put_exact(j, "count", "12", 12.0);
    put_exact(j, "ratio", Rational(1, 2));
    EXPECT_EQ(j.at("makespan"), 6);
    EXPECT_EQ(j.at("makespan_exact"), "6");
    EXPECT_EQ(j.at("count"), 12);
    EXPECT_EQ(j.at("count_exact"), "12");
    EXPECT_EQ(j.at("ratio_exact"), "1/2");
  }
  EXPECT_FALSE(exact_always());
}

TEST(ExactAlways, HoldsForItsOwnThreadOnly) {
  const ExactAlways always;
  bool elsewhere = true;
  std::thread([&] { elsewhere = exact_always(); }).join();
  EXPECT_FALSE(elsewhere);
  EXPECT_TRUE(exact_always());
}

TEST(WithVersion, PutsTheVersionFirstAndKeepsTheFieldOrder) {
  nlohmann::ordered_json doc = {{"steps", 6}, {"verified", true}, {"a", 1}};
  const auto out = with_version(doc);
  ASSERT_EQ(out.size(), 4U);
  auto it = out.begin();
  EXPECT_EQ(it.key(), "version");
  EXPECT_EQ(*it, std::string(version()));
  EXPECT_EQ((++it).key(), "steps");
  EXPECT_EQ((++it).key(), "verified");
  EXPECT_EQ((++it).key(), "a");
  EXPECT_TRUE(std::regex_match(std::string(version()), std::regex(R"(\d+\.\d+\.\d+.*)"))) << version();
}

}  // namespace
}  // namespace starnet::api
