// Transit laws and faults as the faces spell them (api/delays.hpp).
#include "../core/expect_error.hpp"

#include <starnet/api/delays.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace starnet::api {
namespace {

using starnet::testing::setting_of;

emulator::Transit message(std::uint64_t k) {
  return {0, 1, "x", emulator::draw_bits(1, emulator::DrawStream::DELAY, 0, k)};
}

TEST(Delays, AConstantLawIsExact) {
  const auto law = parse_delay_law("constant:7/2");
  EXPECT_EQ(law->delay(message(0)), Rational(7, 2));
  EXPECT_EQ(law->delay(message(1)), Rational(7, 2));
}

TEST(Delays, AUniformLawStaysWithinItsBoundsAndDependsOnTheMessage) {
  const auto law = parse_delay_law("uniform:1:5");
  Rational low = 5;
  Rational high = 1;
  for (std::uint64_t k = 0; k < 1000; ++k) {
    const auto d = law->delay(message(k));
    EXPECT_GE(d, Rational(1));
    EXPECT_LE(d, Rational(5));
    low = std::min(low, d);
    high = std::max(high, d);
  }
  EXPECT_LT(low, Rational(11, 10));
  EXPECT_GT(high, Rational(49, 10));
  EXPECT_EQ(law->delay(message(3)), law->delay(message(3)));
}

TEST(Delays, TheExponentialAndTheMonteCarloLawsHaveTheirMeans) {
  for (const std::string text : {"exponential:2", "gamma:2:0.5", "triangle:2:0.2"}) {
    const auto law = parse_delay_law(text);
    double sum = 0;
    constexpr int DRAWS = 20000;
    for (int k = 0; k < DRAWS; ++k) sum += law->delay(message(static_cast<std::uint64_t>(k))).to_double();
    EXPECT_NEAR(sum / DRAWS, 2.0, 0.05) << text;
  }
}

TEST(Delays, ALawNotWrittenAsExpectedIsNamed) {
  EXPECT_EQ(setting_of([] { (void)parse_delay_law("normal:1:1"); }), "delays=normal:1:1");
  EXPECT_EQ(setting_of([] { (void)parse_delay_law("uniform:5:1"); }), "delays=uniform:5:1");
  EXPECT_EQ(setting_of([] { (void)parse_delay_law("uniform:1"); }), "delays=uniform:1");
  EXPECT_EQ(setting_of([] { (void)parse_delay_law("exponential:1:5"); }), "delays=exponential:1:5");  // CV > 1
  EXPECT_EQ(setting_of([] { (void)parse_delay_law("constant:-1"); }), "delays=constant:-1");
  EXPECT_EQ(setting_of([] { (void)parse_delay_law("uniform:x:5"); }), "delays=uniform:x:5");
}

TEST(Delays, CrashesAndLinkFailuresAreReadFromTheirItems) {
  const auto c = parse_crash("3@5/2");
  EXPECT_EQ(c.node, 3U);
  EXPECT_EQ(c.at, Rational(5, 2));
  const auto f = parse_link_failure("4-2@1");
  EXPECT_EQ(f.a, 4U);
  EXPECT_EQ(f.b, 2U);
  EXPECT_EQ(f.at, Rational(1));
  EXPECT_EQ(parse_link_failure("0-1").at, Rational(0));
  EXPECT_EQ(setting_of([] { (void)parse_crash("3"); }), "crash=3");
  EXPECT_EQ(setting_of([] { (void)parse_crash("1.5@2"); }), "crash=1.5@2");
  EXPECT_EQ(setting_of([] { (void)parse_link_failure("0-1-2"); }), "fail_links=0-1-2");
  EXPECT_EQ(setting_of([] { (void)parse_link_failure("0-1@later"); }), "fail_links=0-1@later");
}

}  // namespace
}  // namespace starnet::api
