// `starnet markov`, run as a user runs it.
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace starnet::tools::testing {
namespace {

using ::testing::HasSubstr;

TEST(MarkovCommand, SmallCasesByHand) {
  // Rate 3/2. n = 1: nothing to do. n = 2: one Exp(λ) transfer. n = 3: two in a row.
  // n = 4: Exp(2λ) then two Exp(λ): E = 5/(2λ), Var = 9/(4λ²).
  struct Case {
    int n;
    const char* expected;
    const char* variance;
  };
  for (const Case& c : {Case{1, "0", "0"}, Case{2, "2/3", "4/9"}, Case{3, "4/3", "8/9"}, Case{4, "5/3", "1"}}) {
    const auto r = run_starnet("markov --n " + std::to_string(c.n) + " --rate 3/2 --json");
    ASSERT_EQ(r.exit_code, 0) << " n=" << c.n << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["n"], c.n);
    EXPECT_EQ(exact(j, "rate"), "3/2");
    EXPECT_EQ(j["states"], c.n) << " n=" << c.n;
    EXPECT_EQ(exact(j, "expected"), c.expected) << " n=" << c.n;
    EXPECT_EQ(exact(j, "variance"), c.variance) << " n=" << c.n;
    EXPECT_EQ(j["verified"], true) << " n=" << c.n;
  }
}

TEST(MarkovCommand, NumbersApproximateTheExactFractions) {
  const auto r = run_starnet("markov --n 64 --rate 0.5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = r.json();
  // n = 64: E = (2H(32) − 1/32)/λ ≈ 8.0857404/0.5, Var = (2H₂(32) − 1/32²)/λ² ≈ 3.2273580/0.25.
  EXPECT_NEAR(j["expected"].get<double>(), 2 * 8.08574039087304, 1e-9);
  EXPECT_NEAR(j["variance"].get<double>(), 4 * 3.22735796315585, 1e-9);
  EXPECT_EQ(exact(j, "rate"), "1/2");
}

TEST(MarkovCommand, HumanOutputMatchesTranscript) {
  const auto r = run_starnet("markov --n 6 --rate 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("markov_n6_rate2.txt", r.out));
}

TEST(MarkovCommand, JsonMatchesTranscript) {
  const auto r = run_starnet("markov --n 9 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, golden("markov_n9.json", r.out));
}

TEST(MarkovCommand, BadInputExitsTwoNamingTheFlag) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {Case{"--n 0", "--n: \"0\""}, Case{"--n -5", "--n: \"-5\""}, Case{"--n 20001", "--n: \"20001\""},
                        Case{"--n 4 --rate 0", "--rate 0"}, Case{"--n 4 --rate -1/2", "--rate -1/2"},
                        Case{"--n 4 --rate abc", "--rate"}, Case{"--n x", "--n"}, Case{"", "--n is required"}}) {
    const auto r = run_starnet(std::string("markov ") + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
    EXPECT_EQ(r.out, "") << c.args;
  }
}

TEST(MarkovCommand, HelpDescribesTheOptions) {
  const auto r = run_starnet("markov --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* text : {"--n", "--rate", "--json", "first-step analysis", "sign typo"}) {
    EXPECT_THAT(r.out, HasSubstr(text)) << text;
  }
}

}  // namespace
}  // namespace starnet::tools::testing
