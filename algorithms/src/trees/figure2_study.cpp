#include <starnet/algorithms/trees/figure2_study.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>

#include <algorithm>
#include <cstdio>

namespace starnet::algorithms::trees {

std::vector<Rational> prefix_lengths(std::span<const int> parent, const CostModel& model) {
  const std::size_t n = parent.size();
  check_elements(static_cast<int>(n));
  std::vector<std::vector<int>> children(n);
  std::vector<Rational> ready(n);
  std::vector<Rational> lengths(n);
  std::vector<Rational> times;
  std::vector<Rational> starts;
  if (parent[0] != -1) throw ScheduleError("prefix lengths: machine 0 has parent " + std::to_string(parent[0]) + " (expected -1)");
  for (std::size_t i = 1; i < n; ++i) {
    const int p = parent[i];
    if (p < 0 || static_cast<std::size_t>(p) >= i) {
      throw ScheduleError("prefix lengths: machine " + std::to_string(i) + " has parent " + std::to_string(p) +
                          " (expected a machine in 0.." + std::to_string(i - 1) + ")");
    }
    children[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
    // A new leaf changes the readiness of its ancestors only up to the first that keeps its own.
    for (int v = p; v != -1; v = parent[static_cast<std::size_t>(v)]) {
      times.clear();
      for (const int child : children[static_cast<std::size_t>(v)]) times.push_back(ready[static_cast<std::size_t>(child)]);
      std::sort(times.begin(), times.end());
      starts.resize(times.size());
      asap_starts(times, model, starts);
      const Rational now = completion_time(starts, model);
      if (now == ready[static_cast<std::size_t>(v)]) break;
      ready[static_cast<std::size_t>(v)] = now;
    }
    lengths[i] = ready[0];
  }
  return lengths;
}

std::vector<Figure2Row> figure2_study(int max_n) {
  if (max_n < 2) throw ScheduleError("Figure 2 study: max n = " + std::to_string(max_n) + " (expected max n >= 2)");
  const CostModel equal(1, 1);
  const CostModel zero(1, 0);
  const std::vector<Rational> binomial = prefix_lengths(binomial_strategy_tree(max_n), equal);
  const std::vector<Rational> equal_optimum = prefix_lengths(greedy_tree(max_n, equal).parent, equal);
  const std::vector<Rational> fibonacci = prefix_lengths(fibonacci_strategy_tree(max_n), zero);
  const std::vector<Rational> zero_optimum = prefix_lengths(greedy_tree(max_n, zero).parent, zero);
  std::vector<Figure2Row> rows;
  rows.reserve(static_cast<std::size_t>(max_n - 1));
  for (int n = 2; n <= max_n; ++n) {
    const auto i = static_cast<std::size_t>(n - 1);
    rows.push_back({n, binomial[i], equal_optimum[i], fibonacci[i], zero_optimum[i]});
  }
  return rows;
}

std::string figure2_csv(std::span<const Figure2Row> rows) {
  std::string out =
      "n,binomial_length,optimal_length_d_eq_c,binomial_ratio,binomial_ratio_decimal,"
      "fibonacci_length,optimal_length_c_zero,fibonacci_ratio,fibonacci_ratio_decimal\n";
  char decimal[32];
  for (const Figure2Row& row : rows) {
    const Rational b = row.binomial_ratio();
    const Rational f = row.fibonacci_ratio();
    out += std::to_string(row.n) + ',' + row.binomial_length.to_string() + ',' + row.equal_cost_optimum.to_string() +
           ',' + b.to_string() + ',';
    std::snprintf(decimal, sizeof decimal, "%.6f", b.to_double());
    out += std::string(decimal) + ',' + row.fibonacci_length.to_string() + ',' + row.zero_cost_optimum.to_string() +
           ',' + f.to_string() + ',';
    std::snprintf(decimal, sizeof decimal, "%.6f", f.to_double());
    out += std::string(decimal) + '\n';
  }
  return out;
}

}  // namespace starnet::algorithms::trees
