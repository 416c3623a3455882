#pragma once
/// @file
/// Exact expectation and variance of Tree-dyn's completion time when transfer times are
/// exponential and computations take no time, by first-step analysis of a Markov chain.
///
/// Paper: Benoit, Canon, Marchal, "Non-clairvoyant reduction algorithms for heterogeneous
/// platforms", HeteroPar 2013, Section 3 (Markov chain analysis). Tree-dyn keeps one shared slot;
/// an idle processor that finds the slot empty puts itself in it, otherwise it empties the slot
/// and sends its value to the processor found there. Every transfer time d_ij is Exp(λ) and
/// independent (each processor sends once, so no pair is used twice); computation is free.
///
/// States (i, j): i transfers in progress, j = 1 when a processor waits in the slot; the other
/// n − 2i − j processors have sent their value and finished. At time 0 the n processors pair up
/// through the slot: the initial state is (⌊n/2⌋, n mod 2). While i ≥ 1, one of the i transfers
/// ends at rate iλ; its receiver becomes idle at once and
///   (i, 0) → (i − 1, 1)   it waits in the empty slot;
///   (i, 1) → (i, 0)       it empties the slot and starts a new transfer with the waiting one.
/// (0, 1) is absorbing: one processor holds the whole reduction. The chain is built by applying
/// these rules from the initial state, not from a closed form.
///
/// First-step analysis (for any absorbing chain without cycles): with q_s the total rate out of
/// s and r_ss' the rate s → s', the time T_s to absorption satisfies
///   E[T_s]  = (1 + Σ_s' r_ss' E[T_s']) / q_s,
///   E[T_s²] = (2 E[T_s] + Σ_s' r_ss' E[T_s'²]) / q_s       (T_s = τ + T_s', τ ~ Exp(q_s) independent),
/// and Var[T_s] = E[T_s²] − E[T_s]², all in exact rationals.
///
/// Exact arithmetic: GMP mpq_class directly, as nearly every value is beyond 64 bits (where
/// starnet::Rational would hold it in GMP anyway): E[T] involves the harmonic number H(n/2), whose
/// denominator lcm(1..n/2) exceeds 2^63 for n/2 ≥ 43, and E[T²] squares such denominators
/// (Σ 1/i² passes 64 bits from n/2 ≈ 22 on).
///
/// Complexity: n states and n − 1 transitions; O(n) rational operations on numbers of O(n)
/// digits, so O(n²)-ish time in practice (n = 10^4 takes well under a second).
///
/// Notation departing from the paper: the paper's λ_d is λ here; it writes "λ_c = 0" for free
/// computations (a rate of 0 would mean computations never end; the model is c_i = 0).
/// IMPORTANT: exact only for zero computation costs; with exponential c_i, a processor that
/// reduces several values reuses its one c_i, which a memoryless chain cannot represent.

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace starnet::algorithms::stochastic {

/// First-step analysis of an absorbing continuous-time Markov chain given by its rates.
///
/// Usage:
/// @code
///   FirstStepAnalysis fsa(/*num_states=*/2);
///   fsa.add_transition(0, 1, mpq_class(3));   // state 1 has no way out: absorbing
///   if (fsa.run() == FirstStepAnalysis::Status::SOLVED) use(fsa.expected(0), fsa.variance(0));
/// @endcode
class FirstStepAnalysis {
 public:
  /// SOLVED: moments computed for every state. CYCLIC: some state can return to itself, which
  /// the recursion (evaluated in reverse topological order) does not handle.
  enum class Status { SOLVED, CYCLIC };

  /// @param num_states states are 0..num_states−1; a state without outgoing transition is absorbing.
  explicit FirstStepAnalysis(std::size_t num_states);

  /// Adds the transition @p from → @p to at rate @p rate (rates of parallel transitions add).
  /// @throws InputError naming the states when one is out of range, from == to, or rate ≤ 0.
  FirstStepAnalysis& add_transition(std::size_t from, std::size_t to, const mpq_class& rate);

  /// Computes E[T_s] and E[T_s²] for every state s. O(states + transitions) rational operations.
  Status run();

  /// @pre run() returned SOLVED; s < num_states.
  [[nodiscard]] const mpq_class& expected(std::size_t s) const { return expected_.at(s); }
  [[nodiscard]] const mpq_class& second_moment(std::size_t s) const { return second_moment_.at(s); }
  [[nodiscard]] mpq_class variance(std::size_t s) const;

 private:
  struct Arc {
    std::size_t to;
    mpq_class rate;
  };
  std::vector<std::vector<Arc>> out_;
  std::vector<mpq_class> expected_;
  std::vector<mpq_class> second_moment_;
};

[[nodiscard]] std::string_view to_string(FirstStepAnalysis::Status status);

/// The Markov chain of Tree-dyn with Exp(λ) transfers and free computations, and its exact
/// completion-time moments.
///
/// Usage:
/// @code
///   TreeDynMarkovChain chain(/*n=*/64);
///   chain.transfer_rate(mpq_class(2)).run();
///   std::cout << chain.expected() << " " << chain.variance() << "\n";
/// @endcode
class TreeDynMarkovChain {
 public:
  struct State {
    std::int64_t transfers;  ///< i: transfers in progress
    bool slot_full;          ///< j: a processor waits in the shared slot
    std::int64_t finished;   ///< n − 2i − j processors that sent their value
  };
  struct Transition {
    std::size_t from;
    std::size_t to;
    mpq_class rate;
  };

  /// @param n number of processors.
  /// @throws InputError naming n when n < 1.
  explicit TreeDynMarkovChain(std::int64_t n);

  /// λ > 0, the rate of every transfer time (mean 1/λ); 1 by default.
  /// @throws InputError naming the rate when it is ≤ 0.
  TreeDynMarkovChain& transfer_rate(const mpq_class& rate);

  /// Builds the chain from the initial state and solves it. O(n) rational operations.
  TreeDynMarkovChain& run();

  /// @pre run() must be called (for all queries below).
  /// The reachable states; states()[0] is the initial state, the last one is absorbing.
  [[nodiscard]] const std::vector<State>& states() const { return states_; }
  [[nodiscard]] const std::vector<Transition>& transitions() const { return transitions_; }
  /// E[T], E[T²] and Var[T] of the completion time T, exact.
  [[nodiscard]] const mpq_class& expected() const { return expected_; }
  [[nodiscard]] const mpq_class& second_moment() const { return second_moment_; }
  [[nodiscard]] const mpq_class& variance() const { return variance_; }
  [[nodiscard]] std::int64_t n() const { return n_; }
  [[nodiscard]] const mpq_class& rate() const { return rate_; }

 private:
  std::int64_t n_;
  mpq_class rate_{1};
  std::vector<State> states_;
  std::vector<Transition> transitions_;
  mpq_class expected_;
  mpq_class second_moment_;
  mpq_class variance_;
};

/// Mean and variance of a completion time.
struct TimeMoments {
  mpq_class expected;
  mpq_class variance;
};

/// The chain's closed form, a certificate for TreeDynMarkovChain: the chain is a path whose
/// sojourns are independent exponentials (rates kλ, then (k−1)λ twice, …, λ twice for n = 2k;
/// kλ twice, …, λ twice for n = 2k+1), so with H(k) = Σ_{i≤k} 1/i and H₂(k) = Σ_{i≤k} 1/i²:
///   n = 2k:    E[T] = (2H(k) − 1/k)/λ,   Var[T] = (2H₂(k) − 1/k²)/λ²;
///   n = 2k+1:  E[T] = 2H(k)/λ,           Var[T] = 2H₂(k)/λ².
/// The HeteroPar 2013 paper prints (2H(n/2) + 2/n)/λ for even n: a sign typo (docs/stochastic.md).
/// @throws InputError naming n or the rate when n < 1 or rate ≤ 0. O(n) rational operations.
[[nodiscard]] TimeMoments tree_dyn_closed_form(std::int64_t n, const mpq_class& rate);

}  // namespace starnet::algorithms::stochastic
