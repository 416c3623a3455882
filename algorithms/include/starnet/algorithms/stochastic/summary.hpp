#pragma once
/// @file
/// Summary statistics of Monte-Carlo results: mean, standard deviation, standard error of the
/// mean and exact 10/50/90 % quantiles.
///
/// Definitions (N samples x_1..x_N, x_(1) ≤ … ≤ x_(N) sorted):
///   mean    = (1/N) Σ x_i
///   stddev  = sample standard deviation √(Σ (x_i − mean)² / (N − 1))  (NaN when N < 2)
///   sem     = stddev / √N                                             (NaN when N < 2)
///   q(p)    = Hyndman–Fan type 7 (the default of R and NumPy): with h = (N − 1)·p,
///             q(p) = x_(⌊h⌋+1) + (h − ⌊h⌋)·(x_(⌊h⌋+2) − x_(⌊h⌋+1)); q(0) = min, q(1) = max.
/// The quantiles are exact functions of the samples (order statistics, no sketch).
///
/// Reproducibility: floating-point sums depend on their order. summarize() reads the samples in
/// the order given, so samples stored by run index give the same summary whatever the thread
/// count. Moments::merge() (Chan, Golub, LeVeque 1979) combines partial moments for a TBB
/// reduction; tbb::parallel_reduce joins partial results left to right, but the split points
/// depend on scheduling, so merged moments may differ from summarize() in the last bits.
///
/// Complexity: summarize() O(N) time (selection, not sorting) and O(N) extra memory.
/// IMPORTANT: the samples must be finite; summarize() checks it, Moments::add() does not.

#include <cstddef>
#include <span>

namespace starnet::algorithms::stochastic {

/// Count, mean and sum of squared deviations of a set of samples; mergeable.
class Moments {
 public:
  /// Adds one sample (Welford's update). O(1).
  void add(double x);
  /// Adds all the samples of @p other, as if they had been add()ed after this one's. O(1).
  void merge(const Moments& other);

  [[nodiscard]] std::size_t count() const { return count_; }
  /// @pre count() ≥ 1.
  [[nodiscard]] double mean() const { return mean_; }
  /// Sample variance Σ (x − mean)² / (N − 1); NaN when count() < 2.
  [[nodiscard]] double variance() const;
  /// √variance(); NaN when count() < 2.
  [[nodiscard]] double stddev() const;
  /// Standard error of the mean, stddev()/√N; NaN when count() < 2.
  [[nodiscard]] double sem() const;

 private:
  std::size_t count_ = 0;
  double mean_ = 0;
  double m2_ = 0;  // Σ (x − mean)²
};

/// What a Monte-Carlo study reports per algorithm (definitions in the file header).
struct Summary {
  std::size_t count = 0;
  double mean = 0;
  double stddev = 0;
  double sem = 0;
  double min = 0;
  double q10 = 0;
  double q50 = 0;
  double q90 = 0;
  double max = 0;
};

/// The type-7 quantile @p p of @p samples (any order); the span's order is changed.
/// @param p in [0, 1].
/// @throws InputError when @p samples is empty or @p p is not in [0, 1] (naming p).
/// O(N) expected time (std::nth_element).
[[nodiscard]] double quantile_in_place(std::span<double> samples, double p);

/// Summary of @p samples, read in the order given.
/// @throws InputError when @p samples is empty, or naming the index and value of the first
///         sample that is not finite.
/// O(N) expected time, O(N) extra memory.
[[nodiscard]] Summary summarize(std::span<const double> samples);

}  // namespace starnet::algorithms::stochastic
