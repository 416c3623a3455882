#include <starnet/algorithms/optimal/drat_check.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <unordered_map>

namespace starnet::algorithms::optimal {

namespace {

using Clock = std::chrono::steady_clock;
/// Lemmas between two looks at the clock.
constexpr std::uint64_t CLOCK_EVERY = 256;

class Checker {
 public:
  /// Adds a clause to the database; false when top-level propagation now conflicts.
  bool add(std::vector<int> lits) {
    std::sort(lits.begin(), lits.end());
    lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
    for (std::size_t i = 1; i < lits.size(); ++i) {
      if (lits[i] == -lits[i - 1]) return true;  // a tautology constrains nothing
    }
    for (const int l : lits) grow(l);
    const auto id = static_cast<std::uint32_t>(clauses_.size());
    by_key_[key(lits)].push_back(id);
    clauses_.push_back({lits, true});
    if (lits.empty()) return conflict_ = false;
    if (lits.size() == 1) return assign_top(lits[0]);
    // Watch two literals not false at top level if possible.
    auto& c = clauses_[id].lits;
    std::stable_partition(c.begin(), c.end(), [&](int l) { return value(l) >= 0; });
    watch(c[0], id);
    watch(c[1], id);
    if (value(c[0]) < 0) return conflict_ = false;  // all false
    if (value(c[1]) < 0 && value(c[0]) == 0) return assign_top(c[0]);
    return true;
  }

  void remove(std::vector<int> lits) {
    std::sort(lits.begin(), lits.end());
    lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
    if (lits.size() <= 1) return;  // unit deletions are ignored (they may be reasons)
    const auto it = by_key_.find(key(lits));
    if (it == by_key_.end()) return;
    for (auto& id : it->second) {
      if (clauses_[id].alive && clauses_[id].sorted() == lits) {
        clauses_[id].alive = false;
        id = it->second.back();
        it->second.pop_back();
        return;
      }
    }
  }

  [[nodiscard]] bool top_conflict() const { return !conflict_; }

  /// Asserting ¬lits and propagating conflicts.
  bool rup(const std::vector<int>& lits) {
    if (!conflict_) return true;
    const auto mark = trail_.size();
    bool refuted = false;
    for (const int l : lits) {
      grow(l);
      if (value(l) > 0) {
        refuted = true;
        break;
      }
      if (value(l) == 0) set(-l);
    }
    if (!refuted) refuted = !propagate(mark);
    undo(mark);
    return refuted;
  }

  bool rat(const std::vector<int>& lits) {
    if (lits.empty()) return false;
    const int p = lits[0];
    for (const auto& c : clauses_) {
      if (!c.alive || std::find(c.lits.begin(), c.lits.end(), -p) == c.lits.end()) continue;
      std::vector<int> resolvent = lits;
      for (const int l : c.lits) {
        if (l != -p) resolvent.push_back(l);
      }
      if (!rup(resolvent)) return false;
    }
    return true;
  }

 private:
  struct Clause {
    std::vector<int> lits;
    bool alive;
    [[nodiscard]] std::vector<int> sorted() const {
      auto s = lits;
      std::sort(s.begin(), s.end());
      return s;
    }
  };
  static std::uint64_t key(const std::vector<int>& sorted) {
    std::uint64_t h = sorted.size();
    for (const int l : sorted) h = h * 0x9E3779B97F4A7C15ULL + static_cast<std::uint32_t>(l);
    return h;
  }
  static std::size_t index(int l) { return 2 * static_cast<std::size_t>(std::abs(l)) + (l < 0 ? 1 : 0); }
  void grow(int l) {
    const auto v = static_cast<std::size_t>(std::abs(l));
    if (v >= values_.size()) {
      values_.resize(v + 1, 0);
      watches_.resize(2 * v + 2);
    }
  }
  [[nodiscard]] int value(int l) const {
    const int v = values_[static_cast<std::size_t>(std::abs(l))];
    return l > 0 ? v : -v;
  }
  void set(int l) {
    values_[static_cast<std::size_t>(std::abs(l))] = static_cast<std::int8_t>(l > 0 ? 1 : -1);
    trail_.push_back(l);
  }
  void undo(std::size_t mark) {
    while (trail_.size() > mark) {
      values_[static_cast<std::size_t>(std::abs(trail_.back()))] = 0;
      trail_.pop_back();
    }
    head_ = std::min(head_, mark);
  }
  void watch(int l, std::uint32_t id) { watches_[index(l)].push_back(id); }
  bool assign_top(int l) {
    if (value(l) > 0) return true;
    if (value(l) < 0) return conflict_ = false;
    set(l);
    if (!propagate(trail_.size() - 1)) return conflict_ = false;
    head_ = trail_.size();
    return true;
  }

  /// Propagates from trail position @p from; false on a conflict.
  bool propagate(std::size_t from) {
    for (std::size_t i = std::min(from, head_); i < trail_.size(); ++i) {
      const int falsified = -trail_[i];
      auto& ws = watches_[index(falsified)];
      std::size_t keep = 0;
      bool ok = true;
      for (std::size_t w = 0; w < ws.size(); ++w) {
        const std::uint32_t id = ws[w];
        auto& c = clauses_[id];
        if (!c.alive) continue;  // dropped lazily
        if (!ok) {
          ws[keep++] = id;
          continue;
        }
        auto& lits = c.lits;
        if (lits[0] == falsified) std::swap(lits[0], lits[1]);
        if (value(lits[0]) > 0) {
          ws[keep++] = id;
          continue;
        }
        bool moved = false;
        for (std::size_t k = 2; k < lits.size(); ++k) {
          if (value(lits[k]) >= 0) {
            std::swap(lits[1], lits[k]);
            watch(lits[1], id);
            moved = true;
            break;
          }
        }
        if (moved) continue;
        ws[keep++] = id;
        if (value(lits[0]) < 0) {
          ok = false;
        } else {
          set(lits[0]);
        }
      }
      ws.resize(keep);
      if (!ok) return false;
    }
    return true;
  }

  std::vector<Clause> clauses_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_key_;
  std::vector<std::int8_t> values_{0};
  std::vector<std::vector<std::uint32_t>> watches_{2};
  std::vector<int> trail_;
  std::size_t head_ = 0;  // top-level assignments below this are propagated
  bool conflict_ = true;   // false once the database is refuted at top level
};

}  // namespace

DratResult check_drat(const std::vector<std::vector<int>>& clauses, std::istream& proof, double max_seconds) {
  const auto start = Clock::now();
  DratResult r;
  Checker checker;
  const auto finish = [&](bool verified, std::string failure) {
    r.verified = verified;
    r.failure = std::move(failure);
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  for (const auto& c : clauses) {
    if (!checker.add(c)) return finish(true, {});
  }
  std::string line;
  std::uint64_t number = 0;
  std::vector<int> lits;
  while (std::getline(proof, line)) {
    ++number;
    std::istringstream in(line);
    std::string word;
    bool deletion = false;
    bool ended = false;
    lits.clear();
    while (in >> word) {
      if (word == "d" && lits.empty() && !deletion) {
        deletion = true;
        continue;
      }
      char* end = nullptr;
      const long x = std::strtol(word.c_str(), &end, 10);
      if (end == word.c_str() || *end != '\0' || x > 0x7ffffffe || x < -0x7ffffffe) {
        return finish(false, "line " + std::to_string(number) + ": '" + word + "' is not a literal");
      }
      if (x == 0) {
        ended = true;
        break;
      }
      lits.push_back(static_cast<int>(x));
    }
    if (!ended) {
      if (lits.empty() && !deletion) continue;  // a blank line
      return finish(false, "line " + std::to_string(number) + ": a clause without its terminating 0");
    }
    if (deletion) {
      ++r.deletions;
      checker.remove(lits);
      continue;
    }
    ++r.lemmas;
    if (r.lemmas % CLOCK_EVERY == 0 && std::chrono::duration<double>(Clock::now() - start).count() > max_seconds) {
      return finish(false, "time limit after " + std::to_string(r.lemmas) + " lemmas");
    }
    if (!checker.rup(lits)) {
      if (!checker.rat(lits)) {
        std::string text;
        for (const int l : lits) text += std::to_string(l) + " ";
        return finish(false, "lemma " + std::to_string(r.lemmas) + " (line " + std::to_string(number) + "): " + text +
                                 "0 is neither RUP nor RAT");
      }
      ++r.rat_lemmas;
    }
    if (lits.empty() || !checker.add(lits)) return finish(true, {});
  }
  return finish(false, "the proof never derives the empty clause");
}

}  // namespace starnet::algorithms::optimal
