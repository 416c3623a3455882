#include <starnet/algorithms/stochastic/random_stream.hpp>
#include <starnet/algorithms/stochastic/summary.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace starnet::algorithms::stochastic {
namespace {

// Oracle: type-7 quantile from a fully sorted copy, straight from its definition.
double sorted_quantile(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = static_cast<double>(x.size() - 1) * p;
  const auto j = static_cast<std::size_t>(std::floor(h));
  return j + 1 < x.size() ? x[j] + (h - static_cast<double>(j)) * (x[j + 1] - x[j]) : x[j];
}

TEST(Summary, SmallSampleByHand) {
  // 1..10 shuffled: mean 5.5, variance 55/6, type-7 q10 = 1 + 0.9·1 = 1.9, q50 = 5.5, q90 = 9.1.
  const std::vector<double> x = {7, 3, 10, 1, 5, 9, 2, 8, 6, 4};
  const Summary s = summarize(x);
  EXPECT_EQ(s.count, 10U);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(55.0 / 6));
  EXPECT_DOUBLE_EQ(s.sem, std::sqrt(55.0 / 6) / std::sqrt(10.0));
  EXPECT_DOUBLE_EQ(s.q10, 1.9);
  EXPECT_DOUBLE_EQ(s.q50, 5.5);
  EXPECT_DOUBLE_EQ(s.q90, 9.1);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 10);
}

TEST(Summary, QuantilesAreExactOrderStatisticsWithTies) {
  RandomStream stream(/*seed=*/1, /*run_index=*/0);
  for (const std::size_t n : {1U, 2U, 3U, 11U, 1000U, 4097U}) {
    std::vector<double> x(n);
    for (auto& v : x) v = std::floor(stream.next_uniform() * 20);  // many ties
    const Summary s = summarize(x);
    EXPECT_EQ(s.q10, sorted_quantile(x, 0.1)) << " n=" << n;
    EXPECT_EQ(s.q50, sorted_quantile(x, 0.5)) << " n=" << n;
    EXPECT_EQ(s.q90, sorted_quantile(x, 0.9)) << " n=" << n;
    for (const double p : {0.0, 0.25, 1.0}) {
      std::vector<double> work = x;
      EXPECT_EQ(quantile_in_place(work, p), sorted_quantile(x, p)) << " n=" << n << " p=" << p;
    }
  }
}

TEST(Summary, OneSampleHasNoSpread) {
  const std::vector<double> x = {4.25};
  const Summary s = summarize(x);
  EXPECT_EQ(s.mean, 4.25);
  EXPECT_EQ(s.q10, 4.25);
  EXPECT_EQ(s.q90, 4.25);
  EXPECT_TRUE(std::isnan(s.stddev));
  EXPECT_TRUE(std::isnan(s.sem));
}

TEST(Summary, RejectsEmptyAndNonFiniteSamples) {
  EXPECT_THROW((void)summarize(std::vector<double>{}), InputError);
  const std::vector<double> x = {1, 2, std::numeric_limits<double>::infinity()};
  try {
    (void)summarize(x);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sample 2 is inf"), std::string::npos) << e.what();
  }
  std::vector<double> y = {1, 2};
  try {
    (void)quantile_in_place(y, 1.5);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("p = 1.5"), std::string::npos) << e.what();
  }
}

TEST(Moments, MergedPartsEqualTheWhole) {
  RandomStream stream(/*seed=*/2, /*run_index=*/0);
  std::vector<double> x(100000);
  for (auto& v : x) v = 1e6 + stream.next_uniform();  // large offset: naive Σx² would cancel
  Moments whole;
  for (const double v : x) whole.add(v);
  const auto merged = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, x.size(), 1000), Moments{},
      [&](const tbb::blocked_range<std::size_t>& r, Moments m) {
        for (std::size_t i = r.begin(); i != r.end(); ++i) m.add(x[i]);
        return m;
      },
      [](Moments a, const Moments& b) {
        a.merge(b);
        return a;
      });
  EXPECT_EQ(merged.count(), whole.count());
  EXPECT_NEAR(merged.mean(), whole.mean(), 1e-12 * whole.mean());
  EXPECT_NEAR(merged.variance(), 1.0 / 12, 5 * std::sqrt(1.0 / 180 / static_cast<double>(x.size())));  // Var[U] = 1/12
  EXPECT_NEAR(merged.variance(), whole.variance(), 1e-9);
  EXPECT_EQ(summarize(x).mean, whole.mean());
}

}  // namespace
}  // namespace starnet::algorithms::stochastic
