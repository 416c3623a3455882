#include <starnet/algorithms/stochastic/summary.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace starnet::algorithms::stochastic {

void Moments::add(double x) {
  ++count_;
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta * (x - mean_);
}

void Moments::merge(const Moments& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  const double n_a = static_cast<double>(count_);
  const double n_b = static_cast<double>(other.count_);
  const double n = n_a + n_b;
  const double delta = other.mean_ - mean_;
  mean_ += delta * (n_b / n);
  m2_ += other.m2_ + delta * delta * (n_a * n_b / n);
  count_ += other.count_;
}

double Moments::variance() const {
  return count_ < 2 ? std::numeric_limits<double>::quiet_NaN() : m2_ / static_cast<double>(count_ - 1);
}

double Moments::stddev() const { return std::sqrt(variance()); }

double Moments::sem() const { return stddev() / std::sqrt(static_cast<double>(count_)); }

double quantile_in_place(std::span<double> samples, double p) {
  if (samples.empty()) throw InputError("quantile of an empty sample set (need at least one sample)");
  if (!(p >= 0 && p <= 1)) throw InputError(fmt::format("quantile level p = {} (must be in [0, 1])", p));
  const double h = static_cast<double>(samples.size() - 1) * p;
  const auto lower = static_cast<std::size_t>(std::floor(h));
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(lower), samples.end());
  const double below = samples[lower];
  if (lower + 1 >= samples.size()) return below;
  // After nth_element every element right of `lower` is ≥ below: the next order statistic is
  // their minimum.
  const double above = *std::min_element(samples.begin() + static_cast<std::ptrdiff_t>(lower) + 1, samples.end());
  return below + (h - static_cast<double>(lower)) * (above - below);
}

Summary summarize(std::span<const double> samples) {
  if (samples.empty()) throw InputError("summary of an empty sample set (need at least one sample)");
  Moments moments;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i])) {
      throw InputError(fmt::format("sample {} is {} (samples must be finite)", i, samples[i]));
    }
    moments.add(samples[i]);
  }
  std::vector<double> work(samples.begin(), samples.end());
  Summary s;
  s.count = samples.size();
  s.mean = moments.mean();
  s.stddev = moments.stddev();
  s.sem = moments.sem();
  s.min = *std::min_element(work.begin(), work.end());
  s.max = *std::max_element(work.begin(), work.end());
  s.q10 = quantile_in_place(work, 0.1);
  s.q50 = quantile_in_place(work, 0.5);
  s.q90 = quantile_in_place(work, 0.9);
  return s;
}

}  // namespace starnet::algorithms::stochastic
