// The DRAT checker that confirms `starnet optimal`'s refutations: it accepts CaDiCaL's proofs and
// refuses broken ones, naming the lemma.
#include <starnet/algorithms/optimal/drat_check.hpp>

#include <cadical.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace starnet::algorithms::optimal {
namespace {

using Cnf = std::vector<std::vector<int>>;

DratResult check(const Cnf& f, const std::string& proof) {
  std::istringstream in(proof);
  return check_drat(f, in);
}

/// All four clauses over two variables: UNSAT, and unit propagation alone does not show it.
const Cnf TWO_VARIABLES = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2}};

TEST(DratCheck, AcceptsARupProofAndRefusesALemmaThatIsNotImplied) {
  EXPECT_TRUE(check(TWO_VARIABLES, "2 0\n0\n").verified);
  const auto bad = check({{1, 2}, {-1, 2}, {1, -2}}, "-2 0\n0\n");
  EXPECT_FALSE(bad.verified);
  EXPECT_THAT(bad.failure, ::testing::HasSubstr("lemma 1 (line 1): -2 0 is neither RUP nor RAT"));
}

TEST(DratCheck, AcceptsARatLemmaOnAFreshVariable) {
  // The unit 3 is not RUP (no clause mentions 3, nothing propagates) but is RAT on 3: no clause
  // contains ¬3.
  const auto r = check(TWO_VARIABLES, "3 0\n2 0\n0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.rat_lemmas, 1U);
}

TEST(DratCheck, RefusesProofsThatStopShortOrAreMalformed) {
  EXPECT_THAT(check(TWO_VARIABLES, "3 0\n").failure, ::testing::HasSubstr("never derives the empty clause"));
  EXPECT_THAT(check(TWO_VARIABLES, "2 x 0\n").failure, ::testing::HasSubstr("line 1: 'x' is not a literal"));
  EXPECT_THAT(check(TWO_VARIABLES, "2\n").failure, ::testing::HasSubstr("line 1: a clause without its terminating 0"));
  EXPECT_FALSE(check(TWO_VARIABLES, "0\n").verified);  // propagation alone does not refute it
}

TEST(DratCheck, ToleratesDeletingAClauseThatIsNotThere) {
  const auto r = check(TWO_VARIABLES, "d 5 6 0\n2 0\n0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.deletions, 1U);
}

/// Pigeonhole: n + 1 pigeons in n holes.
Cnf pigeonhole(int n) {
  Cnf f;
  const auto x = [n](int p, int h) { return p * n + h + 1; };
  for (int p = 0; p <= n; ++p) {
    std::vector<int> c;
    for (int h = 0; h < n; ++h) c.push_back(x(p, h));
    f.push_back(c);
  }
  for (int h = 0; h < n; ++h) {
    for (int p = 0; p <= n; ++p) {
      for (int q = p + 1; q <= n; ++q) f.push_back({-x(p, h), -x(q, h)});
    }
  }
  return f;
}

Cnf random_3sat(int vars, int clauses, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> var(1, vars);
  Cnf f;
  for (int i = 0; i < clauses; ++i) {
    std::vector<int> c;
    for (int k = 0; k < 3; ++k) c.push_back((rng() & 1) ? var(rng) : -var(rng));
    f.push_back(c);
  }
  return f;
}

/// CaDiCaL's text DRAT proof of @p f, or "" when it finds @p f satisfiable.
std::string cadical_proof(const Cnf& f) {
  const auto path = std::filesystem::temp_directory_path() / ("starnet_drat_" + std::to_string(::getpid()) + ".drat");
  CaDiCaL::Solver s;
  s.set("binary", 0);
  s.trace_proof(path.c_str());
  for (const auto& c : f) {
    for (const int l : c) s.add(l);
    s.add(0);
  }
  const int answer = s.solve();
  s.close_proof_trace();
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  return answer == 20 ? text.str() : "";
}

TEST(DratCheck, AcceptsCadicalsProofsAndRefusesThemCutShort) {
  std::vector<Cnf> formulas = {pigeonhole(4), pigeonhole(5), pigeonhole(6), pigeonhole(7)};
  formulas.push_back(random_3sat(60, 300, 7));
  for (std::size_t i = 0; i < formulas.size(); ++i) {
    const auto proof = cadical_proof(formulas[i]);
    if (proof.empty()) continue;  // the random formula happened to be satisfiable
    const auto r = check(formulas[i], proof);
    EXPECT_TRUE(r.verified) << "formula " << i << ": " << r.failure;
    EXPECT_GT(r.lemmas, 0U);
    // Only the last line (the empty clause) kept: unit propagation alone does not refute these.
    const auto cut = check(formulas[i], "0\n");
    EXPECT_FALSE(cut.verified) << "formula " << i;
  }
}

}  // namespace
}  // namespace starnet::algorithms::optimal
