// Reduction trees as library calls (api/reduce.hpp): every algorithm of Canon and Antoniu (RR-7898,
// 2012) planned, checked and emulated at small n, its length against the paper's bounds and
// against Algorithm 1 (optimal, Theorem 4); the settings a refusal names; the Figure 2 study.
#include "../core/expect_error.hpp"

#include <starnet/api/reduce.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/core/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace starnet::api {
namespace {

namespace trees = algorithms::trees;

using starnet::testing::setting_of;

/// The request a face builds from these texts, with the api's parsers.
ReduceRequest request(const std::string& algorithm, int n, const std::string& d, const std::string& c,
                      std::optional<int> k = std::nullopt) {
  ReduceRequest r;
  r.algorithm = parse_algorithm(algorithm);
  r.n = n;
  r.d = parse_number(d, "d");
  r.c = parse_number(c, "c");
  r.k = k;
  return r;
}

/// The sizes each algorithm is defined for, up to 8.
std::vector<int> sizes_of(const std::string& algorithm) {
  if (algorithm == "binomial") return {1, 2, 4, 8};     // 2^k
  if (algorithm == "fibonacci") return {1, 2, 3, 5, 8};  // F_(k+2)
  return {1, 2, 3, 4, 5, 6, 7, 8};
}

/// The limits K to try at @p n for the algorithms that take one (1 and the largest allowed).
std::vector<std::optional<int>> limits_of(const std::string& algorithm, int n) {
  const auto a = trees::parse_algorithm(algorithm);
  if (!trees::takes_limit(a)) return {std::nullopt};
  const int most = a == trees::Algorithm::GREEDY_TRANSFERS ? trees::max_concurrent_transfers_limit(n)
                                                           : trees::max_reducers_limit(n);
  return most == 1 ? std::vector<std::optional<int>>{1} : std::vector<std::optional<int>>{1, most};
}

struct Costs {
  const char* d;
  const char* c;
};
const Costs COSTS[] = {{"3/2", "1"}, {"1", "3/2"}, {"1", "1"}, {"0.5", "0"}};

TEST(PlanReduction, EveryAlgorithmRunsAsPlannedWithinThePapersBounds) {
  const auto names = split_list(trees::algorithm_names());
  ASSERT_EQ(names.size(), 7U);
  for (const auto& [d_text, c_text] : COSTS) {
    const Rational d = parse_number(d_text, "d");
    const Rational c = parse_number(c_text, "c");
    const Rational big = std::max(d, c);
    const Rational small = std::min(d, c);
    for (const auto& name : names) {
      for (const int n : sizes_of(name)) {
        const auto optimum = plan_reduction(request("greedy", n, d_text, c_text)).plan.length;
        for (const auto& k : limits_of(name, n)) {
          const auto r = plan_reduction(request(name, n, d_text, c_text, k));
          const std::string where = name + " n=" + std::to_string(n) + " d=" + d_text + " c=" + c_text +
                                    (k ? " k=" + std::to_string(*k) : "");
          ASSERT_TRUE(r.verified()) << where << ": " << r.problem();
          EXPECT_TRUE(r.problem().empty()) << where;
          EXPECT_EQ(r.plan.n(), n) << where;
          EXPECT_EQ(r.run.makespan, r.plan.length) << where;
          EXPECT_EQ(r.check.length, r.plan.length) << where;
          EXPECT_EQ(r.root_shown, std::to_string(n * (n + 1) / 2)) << where;  // Σ (i + 1)
          // Lemma 5 and Proposition 6 bracket the optimum; Algorithm 1 is the optimum (Theorem 4).
          EXPECT_EQ(r.lower_bound, Rational(trees::ceil_log2(n)) * big) << where;
          EXPECT_EQ(r.upper_bound, Rational(trees::ceil_log2(n)) * (d + c)) << where;
          EXPECT_LE(r.lower_bound, optimum) << where;
          EXPECT_LE(optimum, r.upper_bound) << where;
          EXPECT_LE(optimum, r.plan.length) << where;
          if (name == "greedy") {
            EXPECT_EQ(r.plan.length, optimum) << where;
          }
          if (name == "binomial") {
            EXPECT_EQ(r.plan.length, r.upper_bound) << where;  // Proposition 13
          }
          if (name == "fibonacci" && n == 8) {
            EXPECT_EQ(r.plan.length, d + Rational(3) * big + c) << where;  // Proposition 16, order 4
          }
          if (name == "binomial-strategy") {  // Theorem 18
            EXPECT_LE(r.plan.length, (big == 0 ? Rational(1) : Rational(1) + small / big) * optimum) << where;
          }
          if (name == "fibonacci-strategy") {
            EXPECT_LE(r.plan.length, Rational(2) * optimum) << where;  // Theorem 19
          }
          if (name == "greedy-transfers") {
            EXPECT_LE(r.check.max_concurrent_transfers, *k) << where;
          }
          if (name == "greedy-reducers") {
            EXPECT_LE(r.check.reducers, *k) << where;
          }
          if (k && *k <= trees::max_concurrent_transfers_limit(n)) {  // Proposition 8, corrected
            ASSERT_TRUE(r.limited_upper_bound.has_value()) << where;
            EXPECT_EQ(*r.limited_upper_bound, trees::limited_length_upper_bound(n, *k, r.plan.model)) << where;
            EXPECT_LE(r.plan.length, *r.limited_upper_bound) << where;
          } else {
            EXPECT_FALSE(r.limited_upper_bound.has_value()) << where;
          }
        }
      }
    }
  }
}

TEST(PlanReduction, ConcatCombinesInOrderAndIsLimitedInSize) {
  auto r = request("greedy", /*n=*/6, "3/2", "1");
  r.op = ReduceOp::CONCAT;
  const auto out = plan_reduction(r);
  EXPECT_TRUE(out.verified()) << out.problem();
  EXPECT_TRUE(out.in_order);
  EXPECT_EQ(out.root_shown, "[0][1][2][3][4][5]");
  EXPECT_EQ(out.to_json().at("emulated_root_value"), "[0][1][2][3][4][5]");
  r.n = MAX_CONCAT_ELEMENTS + 1;
  EXPECT_EQ(setting_of([&] { (void)plan_reduction(r); }), "op=concat");
  EXPECT_ERROR(UsageError, plan_reduction(r), "op concat", "20001", "use sum");
}

TEST(PlanReduction, JsonListsTheTransfersAndTheBoundsExactly) {
  auto r = request("greedy-transfers", /*n=*/5, "3/2", "1", /*k=*/2);
  r.trace = true;
  const auto out = plan_reduction(r);
  ASSERT_TRUE(out.verified()) << out.problem();
  EXPECT_FALSE(out.run.trace.empty());
  const auto j = out.to_json();
  EXPECT_EQ(j.begin().key(), "algo");
  EXPECT_EQ(j.at("algo"), "greedy-transfers");
  EXPECT_EQ(j.at("n"), 5);
  EXPECT_EQ(j.at("d_exact"), "3/2");
  EXPECT_EQ(j.at("c"), 1);
  EXPECT_EQ(j.at("k"), 2);
  EXPECT_EQ(j.at("transfers").size(), 4U);  // n − 1
  EXPECT_EQ(j.at("parents").size(), 5U);
  EXPECT_EQ(j.at("lower_bound_exact"), "9/2");  // Lemma 5: ⌈log₂ 5⌉ · max(d, c) = 3 · 3/2
  EXPECT_EQ(j.at("upper_bound_exact"), "15/2");  // Proposition 6: ⌈log₂ 5⌉ · (d + c)
  EXPECT_EQ(j.at("verified"), true);
  EXPECT_FALSE(j.contains("problem"));
  EXPECT_TRUE(j.contains("limited_upper_bound"));
  EXPECT_EQ(j.at("emulated_root_value"), "15");
}

TEST(PlanReduction, RefusesBadInputNamingTheSetting) {
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy", 0, "1", "1")); }), "n=0");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy", MAX_REDUCE_ELEMENTS + 1, "1", "1")); }),
            "n=10000001");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy-transfers", 6, "1", "1", 0)); }), "k=0");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy", 6, "x", "1")); }), "d=x");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy", 6, "-1", "1")); }), "d=-1");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy", 6, "1", "1/0")); }), "c=1/0");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedy", 6, "1", "")); }), "c=");
  EXPECT_EQ(setting_of([] { (void)plan_reduction(request("greedier", 6, "1", "1")); }), "algorithm=greedier");
  EXPECT_EQ(setting_of([] { (void)parse_reduce_op("prod"); }), "op=prod");
  auto negative = request("greedy", 6, "1", "1");
  negative.c = Rational(-1, 2);  // built in C++, past the parser: the call checks it too
  EXPECT_EQ(setting_of([&] { (void)plan_reduction(negative); }), "c=-1/2");
  EXPECT_ERROR(UsageError, plan_reduction(request("greedy", 0, "1", "1")), "n 0", "n ≥ 1");
  EXPECT_ERROR(UsageError, plan_reduction(request("greedy", 6, "-1", "1")), "d -1", "≥ 0");
  EXPECT_ERROR(UsageError, plan_reduction(request("greedier", 6, "1", "1")), "algorithm greedier", "greedy-reducers");
}

TEST(ReduceFigure2, EveryRatioLiesWithinTheorems18And19) {
  const auto f = reduce_figure2(/*max_n=*/40);
  EXPECT_TRUE(f.verified);
  ASSERT_EQ(f.rows.size(), 39U);  // n = 2..40
  Rational binomial_max = 0;
  for (const auto& row : f.rows) {
    EXPECT_GE(row.binomial_ratio(), 1) << " n=" << row.n;
    EXPECT_LE(row.binomial_ratio(), 2) << " n=" << row.n;
    EXPECT_GE(row.fibonacci_ratio(), 1) << " n=" << row.n;
    EXPECT_LE(row.fibonacci_ratio(), 2) << " n=" << row.n;
    binomial_max = std::max(binomial_max, row.binomial_ratio());
  }
  EXPECT_EQ(f.binomial_max, binomial_max);
  EXPECT_EQ(f.rows[static_cast<std::size_t>(f.binomial_at - 2)].binomial_ratio(), f.binomial_max);
  EXPECT_EQ(f.rows[static_cast<std::size_t>(f.fibonacci_at - 2)].fibonacci_ratio(), f.fibonacci_max);
  const auto j = f.to_json();
  EXPECT_EQ(j.at("max_n"), 40);
  EXPECT_EQ(j.at("verified"), true);
  EXPECT_EQ(j.at("binomial_strategy_d_eq_c").at("at_n"), f.binomial_at);
  const auto csv = f.csv();
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 40);  // a header and one row per n
}

TEST(ReduceFigure2, ItsLengthsAreThoseOfPlanReduction) {
  // The study builds its trees incrementally; plan_reduction builds each from scratch.
  for (const auto& row : reduce_figure2(/*max_n=*/12).rows) {
    EXPECT_EQ(row.binomial_length, plan_reduction(request("binomial-strategy", row.n, "1", "1")).plan.length)
        << " n=" << row.n;
    EXPECT_EQ(row.equal_cost_optimum, plan_reduction(request("greedy", row.n, "1", "1")).plan.length) << " n=" << row.n;
    EXPECT_EQ(row.fibonacci_length, plan_reduction(request("fibonacci-strategy", row.n, "1", "0")).plan.length)
        << " n=" << row.n;
    EXPECT_EQ(row.zero_cost_optimum, plan_reduction(request("greedy", row.n, "1", "0")).plan.length) << " n=" << row.n;
  }
}

TEST(ReduceFigure2, RefusesMaxNOutOfRange) {
  EXPECT_EQ(setting_of([] { (void)reduce_figure2(1); }), "max_n=1");
  EXPECT_EQ(setting_of([] { (void)reduce_figure2(MAX_REDUCE_ELEMENTS + 1); }), "max_n=10000001");
  EXPECT_ERROR(UsageError, reduce_figure2(1), "max_n 1", "2..10000000");
}

}  // namespace
}  // namespace starnet::api
