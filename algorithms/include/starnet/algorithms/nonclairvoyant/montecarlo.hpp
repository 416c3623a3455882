#pragma once
/// @file
/// The four non-clairvoyant reductions of Benoit, Canon and Marchal (2014, Section 3) run on the
/// emulator with random heterogeneous costs, and the Monte-Carlo studies of Section 5.
///
/// Binomial-stat and Fibonacci-stat are static plans (the binomial and Fibonacci trees of
/// Canon–Antoniu, cut to the first n processors) executed by the generic plan program as soon as
/// each machine is ready; Tree-dyn and Non-Commut-Tree-dyn are node programs (tree_dyn.hpp).
/// Every run is verified: the sum of all values for all four, and the non-commutative interval
/// concatenation for the three that keep neighbours together (reduce_value.hpp).
///
/// Costs: in run r of a study with seed S, transfer times d_ij and computation times c_i are
/// drawn from RandomStream(S, r, algorithm index) — reproducible whatever the thread count. A
/// processor sends its value once, so each d_ij is drawn when (and if) its transfer starts;
/// each c_i is drawn once per run, before it starts. μ_c = 0 means no computation cost.
///
/// Runs go through the fast path (fast_path.hpp), which gives the general engine's makespans bit
/// for bit, unless told otherwise (fast_path(false)); a run with its trace (emulate_study_run())
/// always goes through the general engine.
///
/// Complexity: one run costs O(n log n) emulator work; runs are spread over threads with TBB.
/// IMPORTANT: the dynamic algorithms share their slot among all processors: local engine only.

#include <starnet/algorithms/nonclairvoyant/algorithm_outcome.hpp>
#include <starnet/algorithms/stochastic/cost_distribution.hpp>
#include <starnet/algorithms/stochastic/summary.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// Parent array of the static algorithms' trees on n processors (root 0, parents before
/// children, each node receiving its children in increasing order).
/// @throws UsageError for the dynamic algorithms.
[[nodiscard]] std::vector<int> static_tree(Algorithm a, int n);

/// Monte-Carlo runs of several algorithms on one scenario. LEMON-style: set parameters, run(),
/// then query.
///
/// Usage:
/// @code
///   MonteCarlo mc;
///   mc.algorithms({Algorithm::TREE_DYN}).scenario({64, DistributionKind::GAMMA, 0.5, 1, 0}).runs(1000).seed(1);
///   mc.run();
///   double mean = mc.outcomes()[0].summary.mean;
/// @endcode
class MonteCarlo {
 public:
  MonteCarlo& algorithms(std::vector<Algorithm> list);
  /// @throws InputError when the CV is outside the distribution's range (named), n < 1 or
  /// n > 65535, or a mean is negative.
  MonteCarlo& scenario(const Scenario& s);
  MonteCarlo& runs(std::uint64_t r);
  MonteCarlo& seed(std::uint64_t s);
  /// Worker threads (0: TBB's default).
  MonteCarlo& threads(unsigned t);
  /// Called from time to time with the runs done so far and the total (for a progress bar).
  MonteCarlo& progress(std::function<void(std::uint64_t, std::uint64_t)> f);
  /// Run on the fast path (fast_path.hpp; the default) or, when false, on the emulator's general
  /// engine: the same makespans bit for bit, every run verified either way.
  MonteCarlo& fast_path(bool fast);
  /// Keep every run's makespan (outcomes()[i].makespans); off by default for big studies.
  MonteCarlo& keep_samples(bool keep);

  /// Runs everything. @throws Error when a run breaks the emulator's model (a bug).
  void run();

  /// @pre run() must be called. One entry per algorithm, in the order given.
  [[nodiscard]] const std::vector<AlgorithmOutcome>& outcomes() const { return outcomes_; }
  [[nodiscard]] double wall_seconds() const { return wall_seconds_; }

 private:
  std::vector<Algorithm> algorithms_{Algorithm::BINOMIAL_STAT, Algorithm::FIBONACCI_STAT, Algorithm::TREE_DYN,
                                     Algorithm::NONCOMMUT_TREE_DYN};
  Scenario scenario_;
  std::uint64_t runs_ = 1000;
  std::uint64_t seed_ = 1;
  unsigned threads_ = 0;
  bool keep_ = false;
  bool fast_ = true;
  std::function<void(std::uint64_t, std::uint64_t)> progress_;
  std::vector<AlgorithmOutcome> outcomes_;
  double wall_seconds_ = 0;
};

}  // namespace starnet::algorithms::nonclairvoyant
