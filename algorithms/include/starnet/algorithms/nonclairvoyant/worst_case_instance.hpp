#pragma once
/// @file
/// A worst-case instance of Section 4 of Benoit, Canon and Marchal (CCPE 2014) and what one
/// algorithm gave on it, apart from the constructions and the runs (worst_case.hpp, whose file
/// comment tells the instances and how their optima are certified).

#include <starnet/algorithms/nonclairvoyant/algorithm_outcome.hpp>
#include <starnet/algorithms/nonclairvoyant/fixed_costs.hpp>
#include <starnet/algorithms/trees/reduction_plan.hpp>
#include <starnet/core/rational.hpp>

#include <string>
#include <vector>

namespace starnet::algorithms::nonclairvoyant {

/// One instance: the costs, the algorithms it is built against, and the optimum's certificate.
struct WorstCaseInstance {
  std::string name;    ///< e.g. "theorem1-low-overlap"
  std::string source;  ///< where the paper describes it
  std::vector<Algorithm> algorithms;
  FixedCosts costs;
  Rational d, D, c, C;                ///< the instance's extreme costs (the proofs' notation)
  trees::ReductionPlan witness;       ///< Algorithm 1's tree for (d, c)
  std::vector<int> witness_label;     ///< machine m of the witness is processor witness_label[m]
  Rational lower_bound;               ///< OPT_hom(n, d, c) = witness.length
  std::string bound_formula;          ///< Table I's (or the text's) ratio, in words
  double bound = 0;                   ///< its value for these parameters
  bool bound_exact = false;           ///< true: the ratio equals the bound; false: approaches it as n grows
  [[nodiscard]] int n() const { return costs.n(); }
};

/// One algorithm on one instance, and the optimum's certificate.
struct WorstCaseOutcome {
  std::string instance;
  Algorithm algorithm = Algorithm::TREE_DYN;
  int n = 0;
  Rational makespan;          ///< emulated, exact
  bool verified = false;      ///< the algorithm's result was right
  Rational optimum;           ///< the witness's emulated length
  bool optimum_certified = false;  ///< witness verified and equal to the lower bound OPT_hom
  Rational ratio;             ///< makespan / optimum
  double bound = 0;
  bool bound_exact = false;
  std::string bound_formula;
};

}  // namespace starnet::algorithms::nonclairvoyant
