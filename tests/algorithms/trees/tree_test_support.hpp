#pragma once
// Shared by the trees tests: the cost grid, the in-order check with a non-commutative operator,
// tree shapes up to isomorphism, and a matcher for error messages.

#include <starnet/algorithms/trees/plan_validator.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace starnet::algorithms::trees::testing {

/// d = 0, c = 0, d = c, d < c, d > c, fractional costs, and both zero.
inline std::vector<CostModel> cost_grid() {
  return {CostModel(0, 1), CostModel(1, 0), CostModel(1, 1),           CostModel(2, 3),
          CostModel(3, 2), CostModel(1, 3), CostModel(3, 1),           CostModel(Rational(3, 2), 1),
          CostModel(1, Rational(5, 2)),     CostModel(Rational(2, 3), Rational(2, 3)), CostModel(0, 0)};
}

inline std::string describe(const CostModel& m) { return " d=" + m.d().to_string() + " c=" + m.c().to_string(); }

/// The plan combines v_0 ⊕ … ⊕ v_(n−1) in order: string concatenation of "<i>" tokens.
inline bool combines_in_order(const ReductionPlan& plan) {
  std::vector<std::string> values;
  std::string expected;
  for (int i = 0; i < plan.n(); ++i) {
    std::string token(1, '<');  // (built up this way: GCC 12 warns falsely on "<" + std::string)
    token += std::to_string(i);
    token += '>';
    expected += token;
    values.push_back(std::move(token));
  }
  return combine(plan, std::move(values), std::plus<>()) == expected;
}

/// Validator verdict, in-order combination, and the plan's own length: what every algorithm's
/// output must satisfy. Returns the length recomputed by the validator.
inline Rational expect_sound(const ReductionPlan& plan, const std::string& context) {
  const PlanCheck check = check_plan(plan);
  EXPECT_TRUE(check.valid) << context << ": " << check.problem;
  EXPECT_TRUE(combines_in_order(plan)) << context;
  return check.length;
}

/// AHU canonical form of the tree below @p v: equal strings iff isomorphic rooted trees.
inline std::string shape(std::span<const int> parent) {
  const int n = static_cast<int>(parent.size());
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
  int root = -1;
  for (int i = 0; i < n; ++i) {
    if (parent[static_cast<std::size_t>(i)] < 0) root = i;
    else children[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])].push_back(i);
  }
  const std::function<std::string(int)> encode = [&](int v) {
    std::vector<std::string> parts;
    for (const int c : children[static_cast<std::size_t>(v)]) parts.push_back(encode(c));
    std::sort(parts.begin(), parts.end());
    std::string s = "(";
    for (const auto& p : parts) s += p;
    return s + ")";
  };
  return encode(root);
}

/// Runs @p f and checks that it throws E with a message containing every one of @p words.
template <class E, class F>
void expect_error(F&& f, const std::vector<std::string>& words) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning " << (words.empty() ? "" : words.front());
  } catch (const E& e) {
    for (const auto& w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what() << " lacks " << w;
  }
}

}  // namespace starnet::algorithms::trees::testing
