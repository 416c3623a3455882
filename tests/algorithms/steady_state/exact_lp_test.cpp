#include <starnet/algorithms/steady_state/exact_lp.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace starnet::algorithms::steady_state {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// x with M·x = r for a square M, or nothing when M is singular (dense Gauss, exact).
std::optional<std::vector<mpq_class>> solve_dense(std::vector<std::vector<mpq_class>> m, std::vector<mpq_class> r) {
  const std::size_t n = r.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    while (pivot < n && m[pivot][c] == 0) ++pivot;
    if (pivot == n) return std::nullopt;
    std::swap(m[pivot], m[c]);
    std::swap(r[pivot], r[c]);
    for (std::size_t i = 0; i < n; ++i) {
      if (i == c || m[i][c] == 0) continue;
      const mpq_class f = m[i][c] / m[c][c];
      for (std::size_t j = c; j < n; ++j) m[i][j] -= f * m[c][j];
      r[i] -= f * r[c];
    }
  }
  for (std::size_t i = 0; i < n; ++i) r[i] /= m[i][i];
  return r;
}

/// Brute-force oracle for a bounded feasible LP: the best vertex, found by trying every choice of
/// n tight constraints among the rows and the bounds x_j ≥ 0.
mpq_class best_vertex(const LinearProgram& lp) {
  const int n = lp.num_variables();
  const int m = lp.num_constraints();
  std::vector<std::vector<mpq_class>> dense(static_cast<std::size_t>(m), std::vector<mpq_class>(static_cast<std::size_t>(n)));
  for (int i = 0; i < m; ++i) {
    for (const auto& [j, a] : lp.row(i)) dense[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = a;
  }
  std::optional<mpq_class> best;
  const int total = m + n;  // candidate tight constraints: rows, then x_j = 0
  for (unsigned mask = 0; mask < (1U << total); ++mask) {
    if (__builtin_popcount(mask) != n) continue;
    std::vector<std::vector<mpq_class>> mat;
    std::vector<mpq_class> rhs;
    for (int k = 0; k < total; ++k) {
      if (!(mask & (1U << k))) continue;
      if (k < m) {
        mat.push_back(dense[static_cast<std::size_t>(k)]);
        rhs.push_back(lp.rhs(k));
      } else {
        std::vector<mpq_class> unit(static_cast<std::size_t>(n));
        unit[static_cast<std::size_t>(k - m)] = 1;
        mat.push_back(unit);
        rhs.emplace_back(0);
      }
    }
    const auto x = solve_dense(mat, rhs);
    if (!x) continue;
    bool feasible = true;
    for (const auto& v : *x) feasible = feasible && v >= 0;
    for (int i = 0; i < m && feasible; ++i) {
      mpq_class act = 0;
      for (int j = 0; j < n; ++j) act += dense[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] * (*x)[static_cast<std::size_t>(j)];
      feasible = lp.sense(i) == Sense::LESS_EQUAL ? act <= lp.rhs(i) : lp.sense(i) == Sense::EQUAL ? act == lp.rhs(i) : act >= lp.rhs(i);
    }
    if (!feasible) continue;
    mpq_class obj = 0;
    for (int j = 0; j < n; ++j) obj += lp.objective(j) * (*x)[static_cast<std::size_t>(j)];
    if (!best || obj > *best) best = obj;
  }
  return *best;
}

/// A random bounded LP: `rows` rows a·x ≤ b with a > 0 entrywise and b > 0, objective of any sign;
/// all data rationals with denominators up to 7 (not exact in binary floating point).
LinearProgram random_lp(std::uint64_t seed, int vars, int rows) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> num(1, 9);
  std::uniform_int_distribution<int> den(1, 7);
  std::uniform_int_distribution<int> sign(0, 3);
  LinearProgram lp;
  for (int j = 0; j < vars; ++j) {
    mpq_class c(num(rng), den(rng));
    c.canonicalize();
    lp.add_variable(fmt::format("x{}", j), sign(rng) == 0 ? mpq_class(-c) : c);
  }
  for (int i = 0; i < rows; ++i) {
    mpq_class b(num(rng), den(rng));
    b.canonicalize();
    const int row = lp.add_constraint(fmt::format("r{}", i), Sense::LESS_EQUAL, b);
    for (int j = 0; j < vars; ++j) {
      mpq_class a(num(rng), den(rng));
      a.canonicalize();
      lp.set_coefficient(row, j, a);
    }
  }
  return lp;
}

TEST(ExactLp, StatusNames) {
  EXPECT_EQ(to_string(Status::OPTIMAL), "OPTIMAL");
  EXPECT_EQ(to_string(Status::INFEASIBLE), "INFEASIBLE");
  EXPECT_EQ(to_string(Status::UNBOUNDED), "UNBOUNDED");
}

TEST(ExactLp, MatchesVertexEnumerationOnRandomSmallLps) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const int vars = 2 + static_cast<int>(seed % 2);
    const int rows = 2 + static_cast<int>(seed % 3);
    const auto lp = random_lp(seed, vars, rows);
    ExactLpSolver solver(lp);
    ASSERT_EQ(solver.run(), Status::OPTIMAL) << " seed=" << seed;
    EXPECT_TRUE(solver.certified()) << " seed=" << seed;
    EXPECT_TRUE(solver.data_exact_in_glpk()) << " seed=" << seed;
    EXPECT_TRUE(check_optimality(lp, solver.primal(), solver.dual())) << " seed=" << seed;
    EXPECT_EQ(solver.objective(), best_vertex(lp)) << " seed=" << seed;
  }
}

TEST(ExactLp, HandlesEqualityAndGreaterEqualRows) {
  // max x + y  s.t.  x + y >= 1,  x - y = 1/3,  x <= 2   →  x = 2, y = 5/3.
  LinearProgram lp;
  const int x = lp.add_variable("x", 1);
  const int y = lp.add_variable("y", 1);
  const int r0 = lp.add_constraint("at least one", Sense::GREATER_EQUAL, 1);
  const int r1 = lp.add_constraint("difference", Sense::EQUAL, mpq_class(1, 3));
  const int r2 = lp.add_constraint("cap", Sense::LESS_EQUAL, 2);
  lp.set_coefficient(r0, x, 1);
  lp.set_coefficient(r0, y, 1);
  lp.set_coefficient(r1, x, 1);
  lp.set_coefficient(r1, y, -1);
  lp.set_coefficient(r2, x, 1);
  ExactLpSolver solver(lp);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  EXPECT_EQ(solver.primal()[0], 2);
  EXPECT_EQ(solver.primal()[1], mpq_class(5, 3));
  EXPECT_EQ(solver.objective(), mpq_class(11, 3));
  EXPECT_EQ(solver.objective(), best_vertex(lp));
  EXPECT_TRUE(solver.certified());
}

TEST(ExactLp, ThirdIsNotRoundedLikeADouble) {
  // max x  s.t.  (1/3)·x <= 1/7: x = 3/7, which no double equals.
  LinearProgram lp;
  const int x = lp.add_variable("x", 1);
  const int r = lp.add_constraint("third", Sense::LESS_EQUAL, mpq_class(1, 7));
  lp.set_coefficient(r, x, mpq_class(1, 3));
  ExactLpSolver solver(lp);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  EXPECT_EQ(solver.objective(), mpq_class(3, 7));
  EXPECT_EQ(solver.dual()[0], 3);  // y = c_B / a
}

TEST(ExactLp, FloatingPointOptimumIsCorrectedExactly) {
  // max 2x + y  s.t.  x + (1/2 − δ)·y <= 1 with δ = 10^-12. After x enters, y's reduced cost 2δ is
  // below GLPK's tolerance, so the floating-point simplex stops at x = 1 (objective 2). The exact
  // check rejects that basis and glp_exact reaches y = 1/(1/2 − δ).
  const mpq_class delta(1, mpz_class("1000000000000"));
  LinearProgram lp;
  const int x = lp.add_variable("x", 2);
  const int y = lp.add_variable("y", 1);
  const int r = lp.add_constraint("r", Sense::LESS_EQUAL, 1);
  lp.set_coefficient(r, x, 1);
  lp.set_coefficient(r, y, mpq_class(mpq_class(1, 2) - delta));
  ExactLpSolver solver(lp);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  EXPECT_EQ(solver.objective(), 1 / (mpq_class(1, 2) - delta));
  EXPECT_EQ(solver.objective(), best_vertex(lp));
  EXPECT_TRUE(solver.certified());
  EXPECT_TRUE(solver.used_exact_simplex());
}

TEST(ExactLp, HugeCoefficientsAreStillCertified) {
  // 2^60 + 1 has no exact double: GLPK sees a rounded copy, the rebuild uses the exact data.
  const mpz_class big = (mpz_class(1) << 60) + 1;
  LinearProgram lp;
  const int x = lp.add_variable("x", 1);
  const int y = lp.add_variable("y", 1);
  const int r0 = lp.add_constraint("big", Sense::LESS_EQUAL, mpq_class(big));
  const int r1 = lp.add_constraint("sum", Sense::LESS_EQUAL, 3);
  lp.set_coefficient(r0, x, mpq_class(big));
  lp.set_coefficient(r1, x, 1);
  lp.set_coefficient(r1, y, 2);
  ExactLpSolver solver(lp);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  EXPECT_FALSE(solver.data_exact_in_glpk());
  EXPECT_TRUE(solver.certified());
  EXPECT_EQ(solver.objective(), 2);  // x = 1, y = 1
}

TEST(ExactLp, ReportsInfeasible) {
  LinearProgram lp;
  const int x = lp.add_variable("x", 1);
  lp.set_coefficient(lp.add_constraint("x >= 2", Sense::GREATER_EQUAL, 2), x, 1);
  lp.set_coefficient(lp.add_constraint("x <= 1", Sense::LESS_EQUAL, 1), x, 1);
  ExactLpSolver solver(lp);
  EXPECT_EQ(solver.run(), Status::INFEASIBLE);
  EXPECT_FALSE(solver.certified());
}

TEST(ExactLp, ReportsUnbounded) {
  LinearProgram lp;
  const int x = lp.add_variable("x", 1);
  const int y = lp.add_variable("y");
  const int r = lp.add_constraint("x - y <= 1", Sense::LESS_EQUAL, 1);
  lp.set_coefficient(r, x, 1);
  lp.set_coefficient(r, y, -1);
  ExactLpSolver solver(lp);
  EXPECT_EQ(solver.run(), Status::UNBOUNDED);
}

TEST(ExactLp, CertificateCheckNamesTheViolation) {
  const auto lp = random_lp(/*seed=*/7, /*vars=*/3, /*rows=*/3);
  ExactLpSolver solver(lp);
  ASSERT_EQ(solver.run(), Status::OPTIMAL);
  const auto& x = solver.primal();
  const auto& y = solver.dual();
  ASSERT_TRUE(check_optimality(lp, x, y));

  auto negative = x;
  negative[1] = -1;
  const auto c1 = check_optimality(lp, negative, y);
  EXPECT_FALSE(c1);
  EXPECT_TRUE(contains(c1.failure, "\"x1\"")) << c1.failure;

  auto too_big = x;
  for (auto& v : too_big) v += 100;
  const auto c2 = check_optimality(lp, too_big, y);
  EXPECT_FALSE(c2);
  EXPECT_TRUE(contains(c2.failure, "row \"r")) << c2.failure;

  auto zero_dual = y;
  for (auto& v : zero_dual) v = 0;
  const auto c3 = check_optimality(lp, x, zero_dual);
  EXPECT_FALSE(c3);  // either a dual row fails or the objectives differ
  EXPECT_FALSE(c3.failure.empty());

  auto wrong_sign = y;
  wrong_sign[0] = -1;
  const auto c4 = check_optimality(lp, x, wrong_sign);
  EXPECT_FALSE(c4);
  EXPECT_TRUE(contains(c4.failure, "r0")) << c4.failure;

  const auto c5 = check_optimality(lp, std::vector<mpq_class>(2), y);
  EXPECT_FALSE(c5);
  EXPECT_TRUE(contains(c5.failure, "expected 3")) << c5.failure;
}

TEST(ExactLp, IterationLimitIsSolverErrorSayingWhy) {
  const auto lp = random_lp(/*seed=*/11, /*vars=*/12, /*rows=*/10);
  ExactLpSolver solver(lp);
  solver.iteration_limit(1);
  try {
    (void)solver.run();
    FAIL() << "an LP needing several pivots was solved in one iteration";
  } catch (const SolverError& e) {
    EXPECT_TRUE(contains(e.what(), "iteration limit")) << e.what();
    EXPECT_EQ(e.exit_code(), 3);
  }
}

TEST(ExactLp, DuplicateCoefficientIsInputError) {
  LinearProgram lp;
  const int x = lp.add_variable("x", 1);
  const int r = lp.add_constraint("twice", Sense::LESS_EQUAL, 1);
  lp.set_coefficient(r, x, 1);
  lp.set_coefficient(r, x, 2);
  ExactLpSolver solver(lp);
  try {
    (void)solver.run();
    FAIL() << "duplicate coefficient accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "\"twice\"")) << e.what();
    EXPECT_TRUE(contains(e.what(), "\"x\"")) << e.what();
  }
}

TEST(ExactLp, CoefficientOutOfRangeIsInputError) {
  LinearProgram lp;
  lp.add_variable("x", 1);
  lp.add_constraint("r", Sense::LESS_EQUAL, 1);
  try {
    lp.set_coefficient(/*row=*/0, /*col=*/5, 1);
    FAIL() << "column 5 accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "column 5")) << e.what();
  }
  EXPECT_THROW(lp.set_coefficient(/*row=*/-1, /*col=*/0, 1), InputError);
}

}  // namespace
}  // namespace starnet::algorithms::steady_state
