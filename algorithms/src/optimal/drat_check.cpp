#include <starnet/algorithms/optimal/drat_check.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <limits>
#include <new>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>

namespace starnet::algorithms::optimal {

namespace {

using Clock = std::chrono::steady_clock;
using Lit = std::uint32_t;  ///< internal literal: 2·(dense variable) + 1 if negative
using Ref = std::uint32_t;  ///< offset of a clause in the arena

/// Largest |literal| accepted (DIMACS literals are ints whose negation is an int too, and 2^31 − 1
/// is kept out so that the dense renumbering can never overflow).
constexpr long long MAX_VARIABLE = (1LL << 31) - 2;
/// External variables below this are renumbered through a vector (4 MiB at most), larger ones
/// through a hash map, so that one huge literal in a proof costs no huge allocation.
constexpr std::uint32_t DENSE_VARIABLES = 1U << 20;
constexpr Ref NO_REASON = std::numeric_limits<Ref>::max();
constexpr Lit NO_LIT = std::numeric_limits<Lit>::max();
/// Arena words before a clause's literals: its size and its liveness.
constexpr std::size_t HEADER = 2;
/// Dead arena words below which compacting is not worth a pass over the database.
constexpr std::size_t MIN_GARBAGE = std::size_t{1} << 16;
/// Proof lines between two looks at the clock.
constexpr std::uint64_t CLOCK_EVERY = 256;
/// Longest malformed word quoted back in a failure message.
constexpr std::size_t MAX_QUOTED = 40;
constexpr std::string_view WHITESPACE = " \t\r\n\v\f";

constexpr Lit negate(Lit l) { return l ^ 1U; }
constexpr std::uint32_t variable(Lit l) { return l >> 1; }

/// Order-independent, so that a deletion finds its clause whatever the literal order.
std::uint64_t clause_hash(const Lit* first, const Lit* last) {
  std::uint64_t h = 0;
  for (; first != last; ++first) {
    std::uint64_t x = *first + 0x9E3779B97F4A7C15ULL;  // splitmix64 finalizer
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    h += x ^ (x >> 31);
  }
  return h;
}

/// Dense renumbering of the external variables, which may be as large as 2^31 − 2.
class Variables {
 public:
  /// @pre lit ≠ 0 and |lit| ≤ MAX_VARIABLE.
  Lit intern(int lit) {
    const auto var = static_cast<std::uint32_t>(lit < 0 ? -static_cast<long long>(lit) : lit);
    std::uint32_t& slot = var < DENSE_VARIABLES ? dense_slot(var) : sparse_[var];
    if (slot == 0) slot = ++count_;
    return 2 * (slot - 1) + (lit < 0 ? 1U : 0U);
  }
  [[nodiscard]] std::uint32_t count() const { return count_; }

 private:
  std::uint32_t& dense_slot(std::uint32_t var) {
    if (var >= dense_.size()) dense_.resize(std::size_t{var} + 1, 0);
    return dense_[var];
  }
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint32_t, std::uint32_t> sparse_;
  std::uint32_t count_ = 0;  ///< slot values are 1-based, 0 means not yet seen
};

struct Watch {
  Ref clause;
  Lit blocker;  ///< another literal of the clause: when true, the clause need not be visited
};

/// The clause database, its top-level assignment and the RUP/RAT checks.
class Checker {
 public:
  /// Renumbers @p lits into @p out without duplicates, keeping the first occurrence first (the RAT
  /// pivot). @return false for a tautology.
  bool normalize(const std::vector<int>& lits, std::vector<Lit>& out);
  /// Adds a normalized, non-tautological clause and propagates at top level.
  void add(const std::vector<Lit>& clause);
  /// Removes one copy of a normalized clause unless it is a unit or a reason (see the file comment).
  void remove(const std::vector<Lit>& clause);
  [[nodiscard]] bool rup(const std::vector<Lit>& clause);
  /// @pre the clause is not RUP.
  [[nodiscard]] bool rat(const std::vector<Lit>& clause);
  /// Top-level propagation has conflicted: the empty clause is RUP.
  [[nodiscard]] bool inconsistent() const { return inconsistent_; }

 private:
  [[nodiscard]] int value(Lit l) const { return values_[l]; }
  [[nodiscard]] std::uint32_t size(Ref c) const { return arena_[c]; }
  [[nodiscard]] bool alive(Ref c) const { return arena_[c + 1] != 0; }
  Lit* literals(Ref c) { return arena_.data() + c + HEADER; }
  [[nodiscard]] Ref next(Ref c) const { return static_cast<Ref>(c + HEADER + size(c)); }

  void grow();
  void assign(Lit l, Ref reason);
  void assign_top(Lit l, Ref reason);
  /// Assigns the negation of every literal in [first, last) but @p skip; true when one is already true.
  bool assume_negation(const Lit* first, const Lit* last, Lit skip);
  /// Unit propagation from the trail head; false on a conflict.
  bool propagate();
  void undo(std::size_t mark);
  Ref allocate(const std::vector<Lit>& clause);
  void watch(Ref c);
  [[nodiscard]] bool same_clause(Ref c, const std::vector<Lit>& clause);
  [[nodiscard]] bool is_reason(Ref c) const;
  /// Drops the dead clauses from the arena and rebuilds watches, keys and reasons.
  void collect();

  Variables variables_;
  std::vector<std::uint32_t> arena_;  ///< clauses of size ≥ 2: size, alive, literals
  std::unordered_multimap<std::uint64_t, Ref> keys_;  ///< live clauses by clause_hash
  std::vector<std::vector<Watch>> watches_;           ///< by literal
  std::vector<std::int8_t> values_;                   ///< by literal: 1 true, −1 false, 0 unassigned
  std::vector<std::uint8_t> marks_;                   ///< by literal, scratch, all 0 between calls
  std::vector<Ref> reason_;                           ///< by variable, valid while assigned
  std::vector<Lit> trail_;
  std::size_t head_ = 0;  ///< trail entries before it are propagated
  std::size_t live_words_ = 0;
  std::size_t dead_words_ = 0;
  bool inconsistent_ = false;
};

bool Checker::normalize(const std::vector<int>& lits, std::vector<Lit>& out) {
  out.clear();
  for (const int l : lits) out.push_back(variables_.intern(l));
  grow();
  bool tautology = false;
  std::size_t kept = 0;
  for (const Lit l : out) {
    if (marks_[l] != 0) continue;
    tautology = tautology || marks_[negate(l)] != 0;
    marks_[l] = 1;
    out[kept++] = l;
  }
  out.resize(kept);
  for (const Lit l : out) marks_[l] = 0;
  return !tautology;
}

void Checker::grow() {
  const std::size_t literals = 2 * std::size_t{variables_.count()};
  if (literals <= values_.size()) return;
  values_.resize(literals, 0);
  marks_.resize(literals, 0);
  watches_.resize(literals);
  reason_.resize(variables_.count(), NO_REASON);
}

void Checker::assign(Lit l, Ref reason) {
  values_[l] = 1;
  values_[negate(l)] = -1;
  reason_[variable(l)] = reason;
  trail_.push_back(l);
}

void Checker::assign_top(Lit l, Ref reason) {
  if (value(l) > 0) return;
  if (value(l) < 0) {
    inconsistent_ = true;
    return;
  }
  assign(l, reason);
  if (!propagate()) inconsistent_ = true;
}

bool Checker::assume_negation(const Lit* first, const Lit* last, Lit skip) {
  for (; first != last; ++first) {
    const Lit l = *first;
    if (l == skip) continue;
    if (value(l) > 0) return true;
    if (value(l) == 0) assign(negate(l), NO_REASON);
  }
  return false;
}

bool Checker::propagate() {
  while (head_ < trail_.size()) {
    const Lit falsified = negate(trail_[head_++]);
    std::vector<Watch>& ws = watches_[falsified];
    std::size_t keep = 0;
    std::size_t i = 0;
    bool conflict = false;
    for (; i < ws.size() && !conflict; ++i) {
      const Watch w = ws[i];
      if (value(w.blocker) > 0) {
        ws[keep++] = w;
        continue;
      }
      if (!alive(w.clause)) continue;  // deleted clauses leave their watches lazily
      Lit* lits = literals(w.clause);
      if (lits[0] == falsified) std::swap(lits[0], lits[1]);
      if (value(lits[0]) > 0) {
        ws[keep++] = {w.clause, lits[0]};
        continue;
      }
      const std::uint32_t n = size(w.clause);
      std::uint32_t k = 2;
      while (k < n && value(lits[k]) < 0) ++k;
      if (k < n) {  // lits[k] is not false: watch it instead (its list is not ws: lits[k] ≠ falsified)
        std::swap(lits[1], lits[k]);
        watches_[lits[1]].push_back({w.clause, lits[0]});
        continue;
      }
      ws[keep++] = w;
      if (value(lits[0]) < 0) {
        conflict = true;
      } else {
        assign(lits[0], w.clause);
      }
    }
    for (; i < ws.size(); ++i) ws[keep++] = ws[i];
    ws.resize(keep);
    if (conflict) return false;
  }
  return true;
}

void Checker::undo(std::size_t mark) {
  for (std::size_t i = mark; i < trail_.size(); ++i) {
    values_[trail_[i]] = 0;
    values_[negate(trail_[i])] = 0;
  }
  trail_.resize(mark);
  head_ = mark;  // checks start from a fully propagated top level
}

Ref Checker::allocate(const std::vector<Lit>& clause) {
  const std::size_t words = HEADER + clause.size();
  if (arena_.size() + words >= NO_REASON) throw std::length_error("the clause database outgrew 2^32 words");
  const auto c = static_cast<Ref>(arena_.size());
  arena_.push_back(static_cast<std::uint32_t>(clause.size()));
  arena_.push_back(1);
  arena_.insert(arena_.end(), clause.begin(), clause.end());
  keys_.emplace(clause_hash(clause.data(), clause.data() + clause.size()), c);
  live_words_ += words;
  return c;
}

void Checker::watch(Ref c) {
  const Lit* lits = literals(c);
  watches_[lits[0]].push_back({c, lits[1]});
  watches_[lits[1]].push_back({c, lits[0]});
}

void Checker::add(const std::vector<Lit>& clause) {
  if (inconsistent_) return;
  if (clause.empty()) {
    inconsistent_ = true;
    return;
  }
  if (clause.size() == 1) {
    assign_top(clause[0], NO_REASON);
    return;
  }
  const Ref c = allocate(clause);
  Lit* lits = literals(c);
  // Watch the best two literals, true before unassigned before false, so that the watch invariant
  // holds for the kept top-level assignment.
  for (std::size_t i = 0; i < 2; ++i) {
    std::size_t best = i;
    for (std::size_t j = i + 1; j < clause.size(); ++j) {
      if (value(lits[j]) > value(lits[best])) best = j;
    }
    std::swap(lits[i], lits[best]);
  }
  watch(c);
  if (value(lits[0]) < 0) {
    inconsistent_ = true;  // every literal false
  } else if (value(lits[0]) == 0 && value(lits[1]) < 0) {
    assign_top(lits[0], c);
  }
}

bool Checker::same_clause(Ref c, const std::vector<Lit>& clause) {
  if (size(c) != clause.size()) return false;
  for (const Lit l : clause) marks_[l] = 1;
  const Lit* lits = literals(c);
  const bool same = std::all_of(lits, lits + size(c), [&](Lit l) { return marks_[l] != 0; });
  for (const Lit l : clause) marks_[l] = 0;
  return same;
}

bool Checker::is_reason(Ref c) const {
  const Lit* lits = arena_.data() + c + HEADER;
  return std::any_of(lits, lits + size(c), [&](Lit l) { return value(l) > 0 && reason_[variable(l)] == c; });
}

void Checker::remove(const std::vector<Lit>& clause) {
  if (clause.size() <= 1) return;  // unit deletions are ignored, as drat-trim does
  const auto [first, last] = keys_.equal_range(clause_hash(clause.data(), clause.data() + clause.size()));
  for (auto it = first; it != last; ++it) {
    const Ref c = it->second;
    if (!same_clause(c, clause)) continue;
    if (is_reason(c)) return;  // keeps the top-level assignment justified
    arena_[c + 1] = 0;
    keys_.erase(it);
    live_words_ -= HEADER + clause.size();
    dead_words_ += HEADER + clause.size();
    if (dead_words_ > MIN_GARBAGE && dead_words_ > live_words_) collect();
    return;
  }
}

bool Checker::rup(const std::vector<Lit>& clause) {
  if (inconsistent_) return true;
  const std::size_t mark = trail_.size();
  const bool conflict = assume_negation(clause.data(), clause.data() + clause.size(), NO_LIT) || !propagate();
  undo(mark);
  return conflict;
}

bool Checker::rat(const std::vector<Lit>& clause) {
  if (clause.empty()) return false;
  const Lit pivot = clause[0];
  // ¬p true at top level comes from a unit (¬p) or a reason clause whose other literals are false:
  // either is a resolution candidate whose resolvent is RUP only if the lemma itself is.
  if (value(pivot) < 0) return false;
  const std::size_t outer = trail_.size();
  bool ok = assume_negation(clause.data(), clause.data() + clause.size(), NO_LIT) || !propagate();
  if (!ok) {
    // ¬C stays assigned: each resolvent only adds the negation of D \ {¬p}.
    const std::size_t inner = trail_.size();
    ok = true;
    for (Ref c = 0; ok && c < arena_.size(); c = next(c)) {
      const Lit* lits = literals(c);
      if (!alive(c) || std::find(lits, lits + size(c), negate(pivot)) == lits + size(c)) continue;
      ok = assume_negation(lits, lits + size(c), negate(pivot)) || !propagate();
      undo(inner);
    }
  }
  undo(outer);
  return ok;
}

void Checker::collect() {
  std::vector<std::pair<Ref, Ref>> moved;  // (old, new) offset of each live clause, old ascending
  Ref to = 0;
  for (Ref from = 0; from < arena_.size();) {
    const Ref after = next(from);
    if (alive(from)) {
      moved.emplace_back(from, to);
      // to ≤ from: copying downwards never overwrites what is still to be read
      if (to != from) std::copy(arena_.begin() + from, arena_.begin() + after, arena_.begin() + to);
      to += after - from;
    }
    from = after;
  }
  arena_.resize(to);
  dead_words_ = 0;
  for (const Lit l : trail_) {
    Ref& reason = reason_[variable(l)];
    if (reason == NO_REASON) continue;
    // Reasons are never deleted, so the old offset is among the moved ones.
    reason = std::lower_bound(moved.begin(), moved.end(), std::make_pair(reason, Ref{0}))->second;
  }
  for (auto& ws : watches_) ws.clear();
  keys_.clear();
  for (const auto& entry : moved) {
    const Ref c = entry.second;
    watch(c);
    keys_.emplace(clause_hash(literals(c), literals(c) + size(c)), c);
  }
}

/// One line of the text proof.
struct ProofLine {
  bool blank = true;  ///< only whitespace, or a comment
  bool deletion = false;
  std::vector<int> lits;
  std::string error;  ///< empty unless malformed
};

std::string quoted(std::string_view word) {
  if (word.size() > MAX_QUOTED) return "'" + std::string(word.substr(0, MAX_QUOTED)) + "...'";
  return "'" + std::string(word) + "'";
}

void parse_line(std::string_view text, ProofLine& line) {
  line.blank = true;
  line.deletion = false;
  line.lits.clear();
  line.error.clear();
  bool ended = false;
  for (std::size_t pos = text.find_first_not_of(WHITESPACE); pos != std::string_view::npos;
       pos = text.find_first_not_of(WHITESPACE, pos)) {
    const std::size_t end = std::min(text.find_first_of(WHITESPACE, pos), text.size());
    const std::string_view word = text.substr(pos, end - pos);
    pos = end;
    if (line.blank && word.front() == 'c') return;  // a DIMACS comment
    if (ended) {
      line.error = "text after the terminating 0";
      return;
    }
    if (line.blank && word == "d") {
      line.blank = false;
      line.deletion = true;
      continue;
    }
    line.blank = false;
    long long x = 0;
    const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), x);
    if (ec != std::errc{} || ptr != word.data() + word.size() || x < -MAX_VARIABLE || x > MAX_VARIABLE) {
      line.error = quoted(word) + " is not a literal";
      return;
    }
    if (x == 0) {
      ended = true;
    } else {
      line.lits.push_back(static_cast<int>(x));
    }
  }
  if (!line.blank && !ended) line.error = "a clause without its terminating 0";
}

std::string clause_text(const std::vector<int>& lits) {
  std::string text;
  for (const int l : lits) text += std::to_string(l) + " ";
  return text + "0";
}

/// Loads the formula; false (with @p result.failure set) on a literal out of range.
bool load_formula(const std::vector<std::vector<int>>& clauses, Checker& checker, DratResult& result) {
  std::vector<Lit> normalized;
  for (std::size_t i = 0; i < clauses.size(); ++i) {
    for (const int l : clauses[i]) {
      if (l == 0 || l < -MAX_VARIABLE || l > MAX_VARIABLE) {
        result.failure = "formula clause " + std::to_string(i + 1) + ": " + quoted(std::to_string(l)) +
                         " is not a literal";
        return false;
      }
    }
    if (checker.normalize(clauses[i], normalized)) checker.add(normalized);
  }
  return true;
}

/// The forward check proper; fills @p result but for its time.
void run_check(const std::vector<std::vector<int>>& clauses, std::istream& proof, double max_seconds,
               Clock::time_point start, DratResult& result) {
  Checker checker;
  if (!load_formula(clauses, checker, result)) return;
  std::string text;
  ProofLine line;
  std::vector<Lit> normalized;
  for (std::uint64_t number = 1; !checker.inconsistent() && std::getline(proof, text); ++number) {
    if (number % CLOCK_EVERY == 0 && std::chrono::duration<double>(Clock::now() - start).count() > max_seconds) {
      result.failure = "time limit reached at line " + std::to_string(number) + ", after " +
                       std::to_string(result.lemmas) + " lemmas";
      return;
    }
    parse_line(text, line);
    if (!line.error.empty()) {
      result.failure = "line " + std::to_string(number) + ": " + line.error;
      return;
    }
    if (line.blank) continue;
    const bool tautology = !checker.normalize(line.lits, normalized);
    if (line.deletion) {
      ++result.deletions;
      if (!tautology) checker.remove(normalized);
      continue;
    }
    ++result.lemmas;
    if (tautology) continue;  // satisfied by every assignment: implied, and constrains nothing
    if (!checker.rup(normalized)) {
      if (!checker.rat(normalized)) {
        result.failure = "lemma " + std::to_string(result.lemmas) + " (line " + std::to_string(number) +
                         "): " + clause_text(line.lits) + " is neither RUP nor RAT";
        return;
      }
      ++result.rat_lemmas;
    }
    checker.add(normalized);  // the empty lemma passed only because the database is inconsistent
  }
  if (!checker.inconsistent()) {
    result.failure = proof.bad() ? "the proof could not be read" : "the proof never derives the empty clause";
    return;
  }
  result.verified = true;
}

}  // namespace

DratResult check_drat(const std::vector<std::vector<int>>& clauses, std::istream& proof, double max_seconds) {
  const auto start = Clock::now();
  DratResult result;
  try {
    run_check(clauses, proof, max_seconds, start, result);
  } catch (const std::bad_alloc&) {
    result.failure = "out of memory";
  } catch (const std::length_error& e) {
    result.failure = e.what();
  }
  if (!result.failure.empty()) result.verified = false;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace starnet::algorithms::optimal
