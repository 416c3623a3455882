#include <starnet/algorithms/nonclairvoyant/worst_case.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <set>
#include <utility>

namespace starnet::algorithms::nonclairvoyant {

namespace {

const double LOG2_PHI = std::log2((1 + std::sqrt(5.0)) / 2);

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

void check_costs(const std::string& what, const Rational& d, const Rational& D) {
  require(d > 0, fmt::format("{}: d = {} (expected d > 0: the ratios divide by it)", what, d.to_string()));
  require(D >= d, fmt::format("{}: D = {} (expected D >= d = {})", what, D.to_string(), d.to_string()));
}

std::vector<int> identity(int n) {
  std::vector<int> label(static_cast<std::size_t>(n));
  for (int m = 0; m < n; ++m) label[static_cast<std::size_t>(m)] = m;
  return label;
}

bool is_reducer(const trees::ReductionPlan& plan, int m) { return !plan.children[static_cast<std::size_t>(m)].empty(); }

/// Labels the machines of @p w so that every transfer goes from a lower to a higher label and
/// every reducer has an odd label (Theorem 1's optimal solution). Greedy from the top label down
/// (a machine may take label p once its parent holds a higher one): an odd label goes to an
/// available reducer — the one with the most leaf children, which makes leaves available for the
/// even labels below — or else to a leaf; an even label to a leaf.
/// @throws Error when the greedy gets stuck, e.g. for odd n (the root would need the even top
/// label); the tests cover every tree used here.
std::vector<int> ascending_odd_reducer_labels(const trees::ReductionPlan& w) {
  const int n = w.n();
  std::vector<int> leaf_children(static_cast<std::size_t>(n), 0);
  for (int m = 0; m < n; ++m) {
    const int q = w.parent[static_cast<std::size_t>(m)];
    if (q >= 0 && !is_reducer(w, m)) ++leaf_children[static_cast<std::size_t>(q)];
  }
  std::set<std::pair<int, int>> reducers;  // (−leaf children, machine): most leaf children first
  std::vector<int> leaves;
  const auto make_available = [&](int m) {
    if (is_reducer(w, m)) {
      reducers.insert({-leaf_children[static_cast<std::size_t>(m)], m});
    } else {
      leaves.push_back(m);
    }
  };
  make_available(w.root);
  std::vector<int> label(static_cast<std::size_t>(n), -1);
  for (int p = n - 1; p >= 0; --p) {
    int m = -1;
    if (p % 2 == 1 && !reducers.empty()) {
      m = reducers.begin()->second;
      reducers.erase(reducers.begin());
    } else if (!leaves.empty()) {
      m = leaves.back();
      leaves.pop_back();
    } else {
      throw Error(fmt::format("worst case: no labelling with reducers on odd labels for this tree of {} machines "
                              "(stuck at label {})",
                              n, p));
    }
    label[static_cast<std::size_t>(m)] = p;
    for (const int child : w.children[static_cast<std::size_t>(m)]) make_available(child);
  }
  return label;
}

WorstCaseInstance finish(WorstCaseInstance instance) {
  instance.lower_bound = instance.witness.length;
  return instance;
}

}  // namespace

WorstCaseInstance theorem1_instance(int log2_n, Rational d, Rational D, Rational c, Rational C) {
  require(log2_n >= 1 && log2_n <= 16, fmt::format("theorem 1 instance: m = {} (expected 1 <= m <= 16, n = 2^m)", log2_n));
  check_costs("theorem 1 instance", d, D);
  require(c == 0 || c == d,
          fmt::format("theorem 1 instance: c = {} (expected 0 or d = {}: the two cases the proof reaches)", c.to_string(),
                      d.to_string()));
  require(C >= c, fmt::format("theorem 1 instance: C = {} (expected C >= c = {})", C.to_string(), c.to_string()));
  const int n = 1 << log2_n;
  std::vector<Rational> compute(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) compute[static_cast<std::size_t>(i)] = i % 2 == 0 ? C : c;
  WorstCaseInstance w{
      .name = c == 0 ? "theorem1-low-overlap" : "theorem1-high-overlap",
      .source = c == 0 ? "Theorem 1, first ratio (min(c, d) = 0)" : "Theorem 1, second ratio (c = d)",
      .algorithms = {Algorithm::BINOMIAL_STAT, Algorithm::TREE_DYN},
      .costs = FixedCosts([d, D](int i, int j) { return i < j ? d : D; }, std::move(compute)),
      .d = d,
      .D = D,
      .c = c,
      .C = C,
  };
  w.witness = trees::greedy_plan(n, trees::CostModel(d, c));
  w.witness_label = ascending_odd_reducer_labels(w.witness);
  const double sum = (C + D).to_double();
  if (c == 0) {
    w.bound_formula = "(C+D)/max(c,d)";
    w.bound = sum / d.to_double();
    w.bound_exact = true;
  } else {
    w.bound_formula = "(C+D)/min(c,d)*(1+1/log2 n)*log2(phi)";
    w.bound = sum / c.to_double() * (1 + 1.0 / log2_n) * LOG2_PHI;
  }
  return finish(std::move(w));
}

WorstCaseInstance theorem2_root_instance(int n, Rational d, Rational D) {
  require(n >= 2 && n <= 65536, fmt::format("theorem 2 instance: n = {} (expected 2 <= n <= 65536)", n));
  check_costs("theorem 2 instance", d, D);
  const auto fibonacci = static_plan(Algorithm::FIBONACCI_STAT, n);
  const int root = fibonacci.root;
  auto into_root = std::make_shared<std::vector<bool>>(static_cast<std::size_t>(n), false);
  for (const int child : fibonacci.children[static_cast<std::size_t>(root)]) (*into_root)[static_cast<std::size_t>(child)] = true;
  WorstCaseInstance w{
      .name = "theorem2-root",
      .source = n == 8 ? "Section 4, Figure 2(b) (Fibonacci-stat's root receives four values of cost D)"
                       : "Theorem 2, first ratio (the Figure 2(b) argument at order k)",
      .algorithms = {Algorithm::FIBONACCI_STAT},
      .costs = FixedCosts([d, D, root, into_root](int i, int j) { return j == root && (*into_root)[static_cast<std::size_t>(i)] ? D : d; },
                          std::vector<Rational>(static_cast<std::size_t>(n), 0)),
      .d = d,
      .D = D,
      .c = 0,
      .C = 0,
  };
  w.witness = trees::greedy_plan(n, trees::CostModel(d, 0));
  // Any labelling in which Fibonacci-stat's root only sends: swap it with a leaf of the witness.
  w.witness_label = identity(n);
  if (is_reducer(w.witness, root)) {
    int leaf = n - 1;
    while (is_reducer(w.witness, leaf)) --leaf;
    std::swap(w.witness_label[static_cast<std::size_t>(root)], w.witness_label[static_cast<std::size_t>(leaf)]);
  }
  w.bound_formula = "max(C,D)/max(c,d)/log2(phi) + (C+D)/(max(c,d)*ceil(log2 n))";
  w.bound = D.to_double() / d.to_double() * (1 / LOG2_PHI + 1.0 / trees::ceil_log2(n));
  return finish(std::move(w));
}

WorstCaseInstance theorem2_all_max_instance(int order, Rational d, Rational D) {
  require(order >= 1 && order <= 22,
          fmt::format("theorem 2 instance: order k = {} (expected 1 <= k <= 22, n = F(k+2))", order));
  check_costs("theorem 2 instance", d, D);
  const int n = static_cast<int>(trees::fibonacci_number(order + 2));
  const auto fibonacci = static_plan(Algorithm::FIBONACCI_STAT, n);
  auto parent = std::make_shared<std::vector<int>>(fibonacci.parent);
  std::vector<Rational> compute(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) compute[static_cast<std::size_t>(i)] = is_reducer(fibonacci, i) ? D : d;
  WorstCaseInstance w{
      .name = "theorem2-all-max",
      .source = "Theorem 2, second ratio (c = d, C = D)",
      .algorithms = {Algorithm::FIBONACCI_STAT},
      .costs = FixedCosts([d, D, parent](int i, int j) { return (*parent)[static_cast<std::size_t>(i)] == j ? D : d; },
                          std::move(compute)),
      .d = d,
      .D = D,
      .c = d,
      .C = D,
  };
  w.witness = trees::greedy_plan(n, trees::CostModel(d, d));
  // The witness's reducers are played by Fibonacci-stat's leaves: they receive only through
  // transfers that are not Fibonacci-stat's and reduce at cost c.
  std::vector<int> leaves;
  std::vector<int> others;
  for (int i = 0; i < n; ++i) (is_reducer(fibonacci, i) ? others : leaves).push_back(i);
  w.witness_label.assign(static_cast<std::size_t>(n), -1);
  std::size_t next_leaf = 0;
  for (int m = 0; m < n; ++m) {
    if (!is_reducer(w.witness, m)) continue;
    if (next_leaf == leaves.size()) {
      throw Error(fmt::format("worst case: the witness on {} machines has more reducers than Fibonacci-stat has leaves", n));
    }
    w.witness_label[static_cast<std::size_t>(m)] = leaves[next_leaf++];
  }
  others.insert(others.end(), leaves.begin() + static_cast<std::ptrdiff_t>(next_leaf), leaves.end());
  std::size_t next_other = 0;
  for (auto& label : w.witness_label) {
    if (label < 0) label = others[next_other++];
  }
  w.bound_formula = "max(C,D)/min(c,d)";
  w.bound = D.to_double() / d.to_double();
  w.bound_exact = true;
  return finish(std::move(w));
}

WorstCaseInstance figure3_instance(Rational d, Rational D, Rational epsilon) {
  check_costs("figure 3 instance", d, D);
  require(epsilon > 0 && D - epsilon >= d,
          fmt::format("figure 3 instance: epsilon = {} (expected 0 < epsilon <= D - d = {})", epsilon.to_string(),
                      (D - d).to_string()));
  const Rational early = D - epsilon;
  WorstCaseInstance w{
      .name = "figure3-noncommut",
      .source = "Section 4, Figure 3 (Non-Commut-Tree-dyn takes four steps)",
      .algorithms = {Algorithm::NONCOMMUT_TREE_DYN},
      .costs = FixedCosts(
          [d, D, early](int i, int j) {
            if ((i == 3 && j == 2) || (i == 5 && j == 4)) return early;
            // P0 → P6 is the last step of the emulated run (the processor that becomes idle
            // sends to the waiting neighbour): D too, as every transfer the algorithm makes.
            return i > j || (i == 0 && j == 6) ? D : d;
          },
          std::vector<Rational>(8, 0)),
      .d = d,
      .D = D,
      .c = 0,
      .C = 0,
  };
  w.witness = trees::greedy_plan(8, trees::CostModel(d, 0));
  w.witness_label = ascending_odd_reducer_labels(w.witness);
  w.bound_formula = "4D/(3d) (Section 4, text)";
  w.bound = 4 * D.to_double() / (3 * d.to_double());
  return finish(std::move(w));
}

std::vector<WorstCaseInstance> table1_instances() {
  std::vector<WorstCaseInstance> all;
  for (const int m : {3, 6, 10}) all.push_back(theorem1_instance(m, 1, 4, 0, 3));
  for (const int m : {3, 6, 10, 12}) all.push_back(theorem1_instance(m, 1, 4, 1, 4));
  for (const int n : {8, 64, 1024, 4096}) all.push_back(theorem2_root_instance(n, 1, 4));
  for (const int k : {4, 9, 15}) all.push_back(theorem2_all_max_instance(k, 1, 4));
  for (const auto& eps : {Rational(1, 10), Rational(1, 100), Rational(1, 1000)}) all.push_back(figure3_instance(1, 4, eps));
  return all;
}

std::vector<WorstCaseOutcome> run_worst_case(const WorstCaseInstance& instance) {
  const auto witness = emulate_tree(instance.witness, instance.witness_label, instance.costs);
  std::vector<WorstCaseOutcome> out;
  for (const Algorithm a : instance.algorithms) {
    const auto run = emulate(a, instance.costs);
    out.push_back({
        .instance = instance.name,
        .algorithm = a,
        .n = instance.n(),
        .makespan = run.makespan,
        .verified = run.verified,
        .optimum = witness.makespan,
        .optimum_certified = witness.verified && witness.makespan == instance.lower_bound,
        .ratio = run.makespan / witness.makespan,
        .bound = instance.bound,
        .bound_exact = instance.bound_exact,
        .bound_formula = instance.bound_formula,
    });
  }
  return out;
}

}  // namespace starnet::algorithms::nonclairvoyant
