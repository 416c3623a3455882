// The DRAT checker that confirms `starnet optimal`'s refutations: it accepts CaDiCaL's proofs,
// refuses broken ones naming the lemma or line, and follows drat-trim's conventions.
#include <starnet/algorithms/optimal/drat_check.hpp>

#include <cadical.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace starnet::algorithms::optimal {
namespace {

using ::testing::HasSubstr;
using Cnf = std::vector<std::vector<int>>;

DratResult check(const Cnf& formula, const std::string& proof, double max_seconds = 600) {
  std::istringstream in(proof);
  return check_drat(formula, in, max_seconds);
}

/// All 2^vars clauses over variables 1..vars: UNSAT, and for vars ≥ 3 no single assumed literal
/// propagates to a conflict (every pair of assumed literals does).
Cnf every_sign_combination(int vars) {
  Cnf f;
  for (int signs = 0; signs < (1 << vars); ++signs) {
    std::vector<int> c;
    for (int v = 1; v <= vars; ++v) c.push_back((signs >> (v - 1)) & 1 ? -v : v);
    f.push_back(c);
  }
  return f;
}

const Cnf TWO_VARIABLES = every_sign_combination(2);
const Cnf THREE_VARIABLES = every_sign_combination(3);

TEST(DratCheck, AcceptsAFormulaThatPropagationAloneRefutes) {
  const Cnf contradiction = {{1}, {-1}};
  const auto with_empty_lemma = check(contradiction, "0\n");
  EXPECT_TRUE(with_empty_lemma.verified) << with_empty_lemma.failure;
  EXPECT_TRUE(with_empty_lemma.failure.empty());
  const auto without_proof = check(contradiction, "");
  EXPECT_TRUE(without_proof.verified) << without_proof.failure;
  EXPECT_EQ(without_proof.lemmas, 0U);
  EXPECT_TRUE(check({{1, 2}, {}}, "").verified);  // an empty clause in the formula
}

TEST(DratCheck, AcceptsRupLemmasFollowedByTheEmptyClause) {
  const auto one = check(TWO_VARIABLES, "2 0\n0\n");
  EXPECT_TRUE(one.verified) << one.failure;
  EXPECT_EQ(one.rat_lemmas, 0U);
  // (1 2) is needed: assuming ¬1 alone propagates nothing in the formula.
  const auto chain = check(THREE_VARIABLES, "1 2 0\n1 0\n2 0\n0\n");
  EXPECT_TRUE(chain.verified) << chain.failure;
  EXPECT_EQ(chain.rat_lemmas, 0U);
  EXPECT_GE(chain.lemmas, 3U);
}

TEST(DratCheck, StopsAsSoonAsALemmaMakesPropagationConflict) {
  // After the unit 2, top-level propagation of (1 ∨ ¬2) and (¬1 ∨ ¬2) conflicts: the empty clause is
  // RUP from then on, as drat-trim also accepts; the rest of the proof is not read.
  const auto r = check(TWO_VARIABLES, "2 0\nnot read 0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.lemmas, 1U);
}

TEST(DratCheck, RefusesALemmaThatIsNotImpliedNamingItsNumberAndLine) {
  const Cnf satisfiable = {{1, 2}, {-1, 2}, {1, -2}};  // only 1 = 2 = true
  const auto r = check(satisfiable, "2 0\nd 5 6 0\n\n-2 0\n0\n");
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.failure, "lemma 2 (line 4): -2 0 is neither RUP nor RAT");
  const auto not_rat = check({{1, 2}}, "-1 0\n");  // resolvent on 1 with (1 2) is (¬1 2): not RUP
  EXPECT_EQ(not_rat.failure, "lemma 1 (line 1): -1 0 is neither RUP nor RAT");
}

TEST(DratCheck, RefusesTheEmptyClauseWhenPropagationDoesNotConflict) {
  const auto r = check(THREE_VARIABLES, "0\n");
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.failure, "lemma 1 (line 1): 0 is neither RUP nor RAT");
}

TEST(DratCheck, RefusesAProofThatNeverDerivesTheEmptyClause) {
  for (const std::string proof : {"", "1 2 0\n", "1 2 0\n1 0\nd 1 2 0\n"}) {
    const auto r = check(THREE_VARIABLES, proof);
    EXPECT_FALSE(r.verified) << proof;
    EXPECT_EQ(r.failure, "the proof never derives the empty clause") << proof;
  }
}

TEST(DratCheck, RefusesMalformedTextNamingTheLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1 2 0\n2 x 0\n", "line 2: 'x' is not a literal"},
      {"1 2\n", "line 1: a clause without its terminating 0"},
      {"d 1 2\n", "line 1: a clause without its terminating 0"},
      {"1 2 0 3 0\n", "line 1: text after the terminating 0"},
      {"1 2 0\n\n2147483647 0\n", "line 3: '2147483647' is not a literal"},
      {"-2147483648 0\n", "line 1: '-2147483648' is not a literal"},
      {"99999999999999999999999 0\n", "line 1: '99999999999999999999999' is not a literal"},
      {"d d 1 0\n", "line 1: 'd' is not a literal"},
      {"1 --2 0\n", "line 1: '--2' is not a literal"},
      {"1 +2 0\n", "line 1: '+2' is not a literal"},
      {"1 2.5 0\n", "line 1: '2.5' is not a literal"},
      {std::string("1 \0 0\n", 6), "line 1: '" + std::string(1, '\0') + "' is not a literal"},
  };
  for (const auto& [proof, failure] : cases) {
    const auto r = check(THREE_VARIABLES, proof);
    EXPECT_FALSE(r.verified) << proof;
    EXPECT_EQ(r.failure, failure) << proof;
  }
  EXPECT_EQ(check({{1, 2}, {3, 0}}, "0\n").failure, "formula clause 2: '0' is not a literal");
}

TEST(DratCheck, SkipsBlankAndCommentLines) {
  const auto r = check(TWO_VARIABLES, "c a comment\n\n   \r\n2 0\r\n0\n");
  EXPECT_TRUE(r.verified) << r.failure;
}

TEST(DratCheck, AcceptsTheLargestLiteralsWithoutHugeAllocations) {
  const auto r = check(THREE_VARIABLES, "2147483646 0\n-2147483646 1 2 0\n1 2 0\n1 0\n2 0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.rat_lemmas, 1U);  // the unit on a fresh variable
}

TEST(DratCheck, ToleratesDeletingAClauseThatIsNotThere) {
  const auto r = check(TWO_VARIABLES, "d 5 6 0\nd 1 -1 0\nd 0\nd 7 0\n2 0\n0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.deletions, 4U);
}

TEST(DratCheck, MatchesADeletedClauseWhateverItsLiteralOrder) {
  // Without (1 2 3), assuming ¬1 ¬2 only propagates ¬3, and no resolvent on 1 is RUP.
  EXPECT_EQ(check(THREE_VARIABLES, "d 3 2 1 0\n1 2 0\n0\n").failure, "lemma 1 (line 2): 1 2 0 is neither RUP nor RAT");
  EXPECT_EQ(check(THREE_VARIABLES, "d 3 1 3 2 0\n1 2 0\n0\n").failure,
            "lemma 1 (line 2): 1 2 0 is neither RUP nor RAT");
  EXPECT_EQ(check(THREE_VARIABLES, "d 3 2 4 0\n1 2 0\n").failure, "the proof never derives the empty clause");
}

TEST(DratCheck, DeletesOneCopyOfAClauseThatOccursTwice) {
  Cnf twice = THREE_VARIABLES;
  twice.push_back({2, 3, 1});
  const auto r = check(twice, "d 1 2 3 0\n1 2 0\n1 0\n2 0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(check(twice, "d 1 2 3 0\nd 3 1 2 0\n1 2 0\n").failure, "lemma 1 (line 3): 1 2 0 is neither RUP nor RAT");
}

TEST(DratCheck, KeepsTheTopLevelAssignmentWhenItsUnitOrReasonIsDeleted) {
  // Propagation sets 1, then 2 by (¬1 2); 3 is RUP only while 2 holds. drat-trim ignores both
  // deletions by default, and so does this checker.
  const Cnf f = {{1}, {-1, 2}, {-2, 3, 4}, {-2, 3, -4}, {-2, -3, 4}, {-2, -3, -4}};
  const auto r = check(f, "d 1 0\nd 2 -1 0\n3 0\n0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.deletions, 2U);
}

TEST(DratCheck, AcceptsTautologiesAndDuplicateLiterals) {
  const auto r = check(THREE_VARIABLES, "1 -1 0\n2 2 1 1 0\n1 1 0\n2 0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.lemmas, 4U);
  EXPECT_EQ(r.rat_lemmas, 0U);
}

TEST(DratCheck, AcceptsRatLemmasOnTheirFirstLiteral) {
  // (4 1) is RAT on the fresh 4: no clause holds ¬4. (1 ¬4) is not RUP, but RAT on 1: resolving
  // with each (¬1 ±2 ±3) gives a clause whose negation falsifies (1 ∓2 ∓3). Together they give 1.
  const auto r = check(THREE_VARIABLES, "4 1 0\n1 -4 0\n1 0\n2 0\n");
  EXPECT_TRUE(r.verified) << r.failure;
  EXPECT_EQ(r.rat_lemmas, 2U);
  // The same clause written with ¬4 first is not RAT on ¬4: resolving with (4 1) gives (¬4 1).
  EXPECT_EQ(check(THREE_VARIABLES, "4 1 0\n-4 1 0\n1 0\n2 0\n").failure,
            "lemma 2 (line 2): -4 1 0 is neither RUP nor RAT");
}

TEST(DratCheck, GivesUpAtTheTimeLimit) {
  std::string proof;
  for (int i = 0; i < 1000; ++i) proof += "1 2 0\n";
  proof += "1 0\n2 0\n";
  EXPECT_TRUE(check(THREE_VARIABLES, proof).verified);
  const auto r = check(THREE_VARIABLES, proof, /*max_seconds=*/0);
  EXPECT_FALSE(r.verified);
  EXPECT_THAT(r.failure, HasSubstr("time limit"));
}

TEST(DratCheck, KeepsCheckingAcrossTheCompactionOfManyDeletedClauses) {
  // 9000 added and deleted clauses of 14 literals make the arena mostly garbage, so it is compacted
  // (twice), and the clauses added among them move: (1 2), and (7 ¬5), the reason of 7 (5 is a
  // formula unit, (7 ¬5) is RAT on the fresh 7).
  constexpr int GARBAGE = 9000;
  Cnf f = THREE_VARIABLES;
  f.push_back({5});
  std::string garbage;
  for (int k = 0; k < GARBAGE; ++k) {
    const std::string c = "1 2 10 11 12 13 14 15 16 17 18 19 20 " + std::to_string(100 + k) + " 0\n";
    garbage += c + "d " + c;
    if (k == GARBAGE / 100) garbage += "1 2 0\n";
    if (k == GARBAGE * 2 / 3) garbage += "7 -5 0\n";
  }
  // The moved (1 2) still propagates: with it the unit 1 is RUP (assuming ¬1 propagates nothing
  // in the formula alone).
  const auto kept = check(f, garbage + "d 7 -5 0\n1 0\n2 0\n");
  EXPECT_TRUE(kept.verified) << kept.failure;
  EXPECT_EQ(kept.deletions, GARBAGE + 1U);
  EXPECT_EQ(kept.rat_lemmas, 1U);
  // The moved (1 2) is still found by its deletion: the unit 1 is then only RAT (on 1, every
  // resolvent with a (¬1 ±2 ±3) is RUP).
  const auto deleted = check(f, garbage + "d 2 1 0\n1 0\n2 0\n");
  EXPECT_TRUE(deleted.verified) << deleted.failure;
  EXPECT_EQ(deleted.rat_lemmas, 2U);
}

/// Pigeonhole: n + 1 pigeons in n holes; @p skip_pigeon (if in range) loses its "somewhere" clause,
/// which leaves a satisfiable formula.
Cnf pigeonhole(int n, int skip_pigeon = -1) {
  Cnf f;
  const auto x = [n](int p, int h) { return p * n + h + 1; };
  for (int p = 0; p <= n; ++p) {
    if (p == skip_pigeon) continue;
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
  std::bernoulli_distribution negative(0.5);
  Cnf f;
  for (int i = 0; i < clauses; ++i) {
    std::vector<int> c;
    for (int k = 0; k < 3; ++k) c.push_back(negative(rng) ? -var(rng) : var(rng));
    f.push_back(c);
  }
  return f;
}

/// A naive DRAT checker straight from the definitions (propagation by repeated scans of a clause
/// list), to compare with on small random cases. It ignores the deletion of every clause that is
/// unit or has one true literal and the others false at top level: a superset of the reasons the
/// checker keeps, but such a clause stays satisfied at top level, so keeping it changes no RUP
/// check, and no RAT check either (a candidate D ∋ ¬p has ¬p true, making p false, which fails
/// the lemma at once, or has ¬p false, making the lemma true, hence RUP).
class NaiveChecker {
 public:
  explicit NaiveChecker(const Cnf& formula) {
    for (const auto& c : formula) {
      if (const auto n = normalized(c)) db_.push_back(*n);
    }
  }

  /// Without duplicates, first occurrences first; nullopt for a tautology.
  static std::optional<std::vector<int>> normalized(const std::vector<int>& c) {
    std::vector<int> n;
    for (const int l : c) {
      if (std::find(n.begin(), n.end(), -l) != n.end()) return std::nullopt;
      if (std::find(n.begin(), n.end(), l) == n.end()) n.push_back(l);
    }
    return n;
  }

  [[nodiscard]] bool refuted() const { return !propagate({}); }
  [[nodiscard]] bool rup(const std::vector<int>& c) const {
    std::vector<int> assumptions;
    for (const int l : c) assumptions.push_back(-l);
    return !propagate(assumptions);
  }
  [[nodiscard]] bool rat(const std::vector<int>& c) const {
    if (c.empty()) return false;
    return std::all_of(db_.begin(), db_.end(), [&](const std::vector<int>& d) {
      if (std::find(d.begin(), d.end(), -c[0]) == d.end()) return true;
      std::vector<int> resolvent = c;
      for (const int l : d) {
        if (l != -c[0]) resolvent.push_back(l);
      }
      return rup(resolvent);
    });
  }
  void add(const std::vector<int>& c) { db_.push_back(c); }
  void remove(const std::vector<int>& c) {
    if (c.size() <= 1) return;
    const auto same = [&](const std::vector<int>& d) {
      return d.size() == c.size() && std::all_of(c.begin(), c.end(), [&](int l) {
               return std::find(d.begin(), d.end(), l) != d.end();
             });
    };
    const auto it = std::find_if(db_.begin(), db_.end(), same);
    if (it == db_.end()) return;
    const auto top = propagate({});
    const auto truth = [&](int l) {
      const auto v = top->find(std::abs(l));
      return v == top->end() ? 0 : v->second == (l > 0) ? 1 : -1;
    };
    const auto true_lits = std::count_if(c.begin(), c.end(), [&](int l) { return truth(l) > 0; });
    const auto false_lits = std::count_if(c.begin(), c.end(), [&](int l) { return truth(l) < 0; });
    if (true_lits == 1 && false_lits + 1 == static_cast<std::ptrdiff_t>(c.size())) return;  // a pseudo-unit
    db_.erase(it);
  }

 private:
  /// The unit-propagation closure of @p assumptions, nullopt on a conflict.
  [[nodiscard]] std::optional<std::map<int, bool>> propagate(const std::vector<int>& assumptions) const {
    std::map<int, bool> value;
    const auto set = [&](int l) {
      const auto [it, fresh] = value.emplace(std::abs(l), l > 0);
      return fresh || it->second == (l > 0);
    };
    for (const int l : assumptions) {
      if (!set(l)) return std::nullopt;
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& d : db_) {
        int open = 0;
        int unit = 0;
        bool satisfied = false;
        for (const int l : d) {
          const auto it = value.find(std::abs(l));
          if (it == value.end()) {
            ++open, unit = l;
          } else if (it->second == (l > 0)) {
            satisfied = true;
          }
        }
        if (satisfied || open > 1) continue;
        if (open == 0) return std::nullopt;
        set(unit);
        changed = true;
      }
    }
    return value;
  }

  Cnf db_;
};

struct Step {
  bool deletion;
  std::vector<int> lits;
};

std::string proof_text(const std::vector<Step>& steps) {
  std::string text;
  for (const auto& s : steps) {
    if (s.deletion) text += "d ";
    for (const int l : s.lits) text += std::to_string(l) + " ";
    text += "0\n";
  }
  return text;
}

/// What the checker must answer, by the naive one.
DratResult naive_check(const Cnf& formula, const std::vector<Step>& steps) {
  DratResult r;
  NaiveChecker naive(formula);
  for (std::size_t i = 0; i < steps.size() && !naive.refuted(); ++i) {
    const auto c = NaiveChecker::normalized(steps[i].lits);
    if (steps[i].deletion) {
      ++r.deletions;
      if (c) naive.remove(*c);
      continue;
    }
    ++r.lemmas;
    if (!c) continue;
    if (!naive.rup(*c)) {
      if (!naive.rat(*c)) {
        std::string text;
        for (const int l : steps[i].lits) text += std::to_string(l) + " ";
        r.failure = "lemma " + std::to_string(r.lemmas) + " (line " + std::to_string(i + 1) + "): " + text +
                    "0 is neither RUP nor RAT";
        return r;
      }
      ++r.rat_lemmas;
    }
    naive.add(*c);
  }
  r.verified = naive.refuted();
  if (!r.verified) r.failure = "the proof never derives the empty clause";
  return r;
}

/// A random proof, mostly of lemmas the naive checker accepts (so that proofs run long), with
/// duplicate literals, tautologies, fresh variables (for RAT), and deletions of clauses seen in the
/// formula or the proof (in shuffled order, perhaps already deleted) or of random ones.
std::vector<Step> random_proof(const Cnf& formula, int vars, std::mt19937& rng) {
  constexpr int FRESH = 2;  // variables beyond the formula's
  constexpr int MAX_STEPS = 60;
  constexpr int TRIES = 30;          // random clauses drawn in search of an acceptable lemma
  constexpr double ANY_LEMMA = 0.03;  // the chance of taking the first clause drawn, acceptable or not
  constexpr double DELETION = 0.2;
  std::uniform_int_distribution<int> var(1, vars + FRESH);
  std::uniform_int_distribution<int> length(0, 4);
  std::bernoulli_distribution coin(0.5);
  const auto random_clause = [&] {
    std::vector<int> c(static_cast<std::size_t>(length(rng)));
    for (int& l : c) l = coin(rng) ? var(rng) : -var(rng);
    return c;
  };
  NaiveChecker naive(formula);
  Cnf seen = formula;  // clauses to draw deletions from (some already deleted)
  std::vector<Step> steps;
  while (steps.size() < MAX_STEPS && !naive.refuted()) {
    if (std::bernoulli_distribution(DELETION)(rng)) {
      std::vector<int> c = coin(rng) ? seen[std::uniform_int_distribution<std::size_t>(0, seen.size() - 1)(rng)]
                                     : random_clause();
      std::shuffle(c.begin(), c.end(), rng);
      if (!c.empty() && coin(rng)) c.push_back(c.front());
      if (const auto n = NaiveChecker::normalized(c)) naive.remove(*n);
      steps.push_back({true, c});
      continue;
    }
    const auto acceptable = [&](const std::vector<int>& c) {
      const auto n = NaiveChecker::normalized(c);
      return !n || naive.rup(*n) || naive.rat(*n);
    };
    std::vector<int> c = random_clause();
    if (!std::bernoulli_distribution(ANY_LEMMA)(rng)) {
      for (int t = 0; t < TRIES && !acceptable(c); ++t) c = random_clause();
    }
    steps.push_back({false, c});
    if (!acceptable(c)) break;  // the proof fails here
    if (const auto n = NaiveChecker::normalized(c)) naive.add(*n), seen.push_back(c);
  }
  return steps;
}

TEST(DratCheck, AgreesWithANaiveCheckerOnRandomSmallProofs) {
  constexpr int CASES = 1500;
  constexpr int VARS = 6;
  std::mt19937 rng(2024);
  int verified = 0;
  int with_rat = 0;
  int refused_lemma = 0;
  for (int i = 0; i < CASES; ++i) {
    const Cnf f = random_3sat(VARS, std::uniform_int_distribution<int>(10, 40)(rng), static_cast<unsigned>(rng()));
    const auto steps = random_proof(f, VARS, rng);
    const auto expected = naive_check(f, steps);
    const auto text = proof_text(steps);
    const auto r = check(f, text);
    ASSERT_EQ(r.verified, expected.verified) << "case " << i << ":\n" << text;
    ASSERT_EQ(r.failure, expected.failure) << "case " << i << ":\n" << text;
    ASSERT_EQ(r.lemmas, expected.lemmas) << "case " << i;
    ASSERT_EQ(r.deletions, expected.deletions) << "case " << i;
    ASSERT_EQ(r.rat_lemmas, expected.rat_lemmas) << "case " << i;
    verified += r.verified ? 1 : 0;
    with_rat += r.rat_lemmas > 0 ? 1 : 0;
    refused_lemma += r.failure.rfind("lemma", 0) == 0 ? 1 : 0;
  }
  // Every outcome is well represented.
  EXPECT_GT(verified, CASES / 10);
  EXPECT_GT(with_rat, CASES / 10);
  EXPECT_GT(refused_lemma, CASES / 20);
}

constexpr int CADICAL_UNSAT = 20;

/// Solves @p f with CaDiCaL writing a text DRAT proof to @p path. @return CaDiCaL's answer.
int solve_with_proof(const Cnf& f, const std::filesystem::path& path) {
  CaDiCaL::Solver s;
  s.set("quiet", 1);
  s.set("binary", 0);
  s.trace_proof(path.c_str());
  for (const auto& c : f) {
    for (const int l : c) s.add(l);
    s.add(0);
  }
  const int answer = s.solve();
  s.close_proof_trace();
  return answer;
}

/// A proof file of CaDiCaL's, removed with the object.
class CadicalProof {
 public:
  explicit CadicalProof(const Cnf& f)
      : path_(std::filesystem::temp_directory_path() /
              ("starnet_drat_check_" + std::to_string(std::random_device{}()) + ".drat")),
        unsat_(solve_with_proof(f, path_) == CADICAL_UNSAT) {}
  ~CadicalProof() { std::filesystem::remove(path_); }
  CadicalProof(const CadicalProof&) = delete;
  CadicalProof& operator=(const CadicalProof&) = delete;

  [[nodiscard]] bool unsat() const { return unsat_; }
  [[nodiscard]] DratResult check(const Cnf& f) const {
    std::ifstream in(path_);
    return check_drat(f, in);
  }

 private:
  std::filesystem::path path_;
  bool unsat_;
};

TEST(DratCheck, AcceptsCadicalsProofsOfThePigeonholeFormulas) {
  for (const int n : {4, 5, 6, 7, 8}) {
    const Cnf f = pigeonhole(n);
    const CadicalProof proof(f);
    ASSERT_TRUE(proof.unsat()) << n;
    const auto r = proof.check(f);
    EXPECT_TRUE(r.verified) << "n=" << n << ": " << r.failure;
    EXPECT_GT(r.lemmas, 0U) << n;
  }
}

TEST(DratCheck, AcceptsCadicalsProofOfARandom3SatFormulaAtRatioFive) {
  constexpr int VARS = 60;
  const Cnf f = random_3sat(VARS, 5 * VARS, /*seed=*/7);
  const CadicalProof proof(f);
  if (!proof.unsat()) GTEST_SKIP() << "the random formula happens to be satisfiable";
  const auto r = proof.check(f);
  EXPECT_TRUE(r.verified) << r.failure;
}

TEST(DratCheck, RefusesCadicalsPigeonholeProofAgainstASatisfiableWeakening) {
  // Without one pigeon's "somewhere" clause the formula is satisfiable: no proof may refute it.
  constexpr int HOLES = 5;
  const CadicalProof proof(pigeonhole(HOLES));
  ASSERT_TRUE(proof.unsat());
  const auto r = proof.check(pigeonhole(HOLES, /*skip_pigeon=*/0));
  EXPECT_FALSE(r.verified);
  EXPECT_FALSE(r.failure.empty());
}

TEST(DratCheck, RefusesCadicalsPigeonholeProofCutDownToTheEmptyClause) {
  constexpr int HOLES = 5;
  const auto r = check(pigeonhole(HOLES), "0\n");
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.failure, "lemma 1 (line 1): 0 is neither RUP nor RAT");
}

}  // namespace
}  // namespace starnet::algorithms::optimal
