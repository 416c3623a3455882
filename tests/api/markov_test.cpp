// Tree-dyn's Markov chain as one call (api/markov.hpp): the chain against its closed form, exact
// values derived by hand for small n, the settings a refusal names, and the JSON document.
#include "../core/expect_error.hpp"

#include <starnet/api/markov.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace starnet::api {
namespace {

using starnet::testing::setting_of;

/// E[T] and Var[T] for rate 1, by hand from the chain's path of exponential sojourns
/// (tree_dyn_markov.hpp): n = 2: one transfer, Exp(1); n = 3: Exp(1) twice; n = 4: Exp(2), then
/// Exp(1) twice, so E = 1/2 + 2 and Var = 1/4 + 2.
struct ByHand {
  std::int64_t n;
  mpq_class expected;
  mpq_class variance;
};
const ByHand BY_HAND[] = {{1, 0, 0}, {2, 1, 1}, {3, 2, 2}, {4, mpq_class(5, 2), mpq_class(9, 4)}};

TEST(TreeDynMarkov, SmallChainsAgreeWithTheClosedFormAndWithTheHandValues) {
  for (const auto& c : BY_HAND) {
    const auto r = tree_dyn_markov(c.n, "1");
    EXPECT_TRUE(r.verified) << " n=" << c.n;
    EXPECT_EQ(r.n, c.n);
    EXPECT_EQ(r.rate, 1);
    EXPECT_EQ(r.states, static_cast<std::uint64_t>(c.n)) << " n=" << c.n;  // (⌊n/2⌋, n mod 2) … (0, 1)
    EXPECT_EQ(r.expected, r.closed_expected) << " n=" << c.n;
    EXPECT_EQ(r.variance, r.closed_variance) << " n=" << c.n;
    EXPECT_EQ(r.expected, c.expected) << " n=" << c.n;
    EXPECT_EQ(r.variance, c.variance) << " n=" << c.n;
  }
}

TEST(TreeDynMarkov, ARateScalesTheMeanByOneOverRateAndTheVarianceByItsSquare) {
  const mpq_class rate(3, 2);
  for (const auto& c : BY_HAND) {
    const auto r = tree_dyn_markov(c.n, "3/2");
    EXPECT_TRUE(r.verified) << " n=" << c.n;
    EXPECT_EQ(r.rate, rate);
    EXPECT_EQ(r.expected, r.closed_expected) << " n=" << c.n;
    EXPECT_EQ(r.expected, mpq_class(c.expected / rate)) << " n=" << c.n;
    EXPECT_EQ(r.variance, mpq_class(c.variance / (rate * rate))) << " n=" << c.n;
  }
  // A decimal rate is read exactly: 0.5 is 1/2.
  EXPECT_EQ(tree_dyn_markov(/*n=*/4, "0.5").expected, 5);
}

TEST(TreeDynMarkov, RefusesAProcessorCountOutOfRangeNamingN) {
  EXPECT_EQ(setting_of([] { (void)tree_dyn_markov(0, "1"); }), "n=0");
  EXPECT_EQ(setting_of([] { (void)tree_dyn_markov(MAX_MARKOV_PROCESSORS + 1, "1"); }), "n=20001");
  EXPECT_ERROR(UsageError, tree_dyn_markov(0, "1"), "n 0", "1..20000");
  EXPECT_ERROR(UsageError, tree_dyn_markov(-3, "1"), "n -3");
  EXPECT_NO_THROW((void)tree_dyn_markov(1, "1"));
}

TEST(TreeDynMarkov, RefusesARateThatIsNotAPositiveNumberNamingRate) {
  for (const char* rate : {"0", "-1", "x", ""}) {
    EXPECT_EQ(setting_of([&] { (void)tree_dyn_markov(4, rate); }), std::string("rate=") + rate) << " rate=" << rate;
  }
  EXPECT_ERROR(UsageError, tree_dyn_markov(4, "0"), "rate 0", "> 0");
  EXPECT_ERROR(UsageError, tree_dyn_markov(4, "-1"), "rate -1");
  EXPECT_ERROR(UsageError, tree_dyn_markov(4, "x"), "rate x", "not a number");
}

TEST(TreeDynMarkov, JsonGivesCountsAsIntegersAndFractionsBesideTheirExactText) {
  const auto j = tree_dyn_markov(/*n=*/4, "1").to_json();
  EXPECT_EQ(j.at("n"), 4);
  EXPECT_EQ(j.at("states"), 4);
  EXPECT_EQ(j.at("verified"), true);
  EXPECT_EQ(j.at("rate"), 1);
  EXPECT_FALSE(j.contains("rate_exact"));  // an integer is a JSON integer (docs/json.md)
  EXPECT_DOUBLE_EQ(j.at("expected").get<double>(), 2.5);
  EXPECT_EQ(j.at("expected_exact"), "5/2");
  EXPECT_DOUBLE_EQ(j.at("variance").get<double>(), 2.25);
  EXPECT_EQ(j.at("variance_exact"), "9/4");
  const auto k = tree_dyn_markov(/*n=*/3, "3/2").to_json();
  EXPECT_EQ(k.at("rate_exact"), "3/2");
  EXPECT_EQ(k.at("expected_exact"), "4/3");  // 2 / (3/2)
  EXPECT_EQ(k.at("variance_exact"), "8/9");  // 2 / (9/4)
}

}  // namespace
}  // namespace starnet::api
