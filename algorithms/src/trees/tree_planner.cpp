#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/special_trees.hpp>
#include <starnet/algorithms/trees/tree_planner.hpp>

#include <array>
#include <utility>

namespace starnet::algorithms::trees {
namespace {

constexpr std::array<std::pair<Algorithm, std::string_view>, 7> NAMES{{
    {Algorithm::GREEDY, "greedy"},
    {Algorithm::GREEDY_TRANSFERS, "greedy-transfers"},
    {Algorithm::GREEDY_REDUCERS, "greedy-reducers"},
    {Algorithm::BINOMIAL, "binomial"},
    {Algorithm::FIBONACCI, "fibonacci"},
    {Algorithm::BINOMIAL_STRATEGY, "binomial-strategy"},
    {Algorithm::FIBONACCI_STRATEGY, "fibonacci-strategy"},
}};

}  // namespace

std::string_view to_string(Algorithm algorithm) {
  for (const auto& [a, name] : NAMES) {
    if (a == algorithm) return name;
  }
  STARNET_ASSERT(false);
  return {};
}

std::string algorithm_names() {
  std::string names;
  for (const auto& [a, name] : NAMES) names += (names.empty() ? "" : ", ") + std::string(name);
  return names;
}

Algorithm parse_algorithm(std::string_view name) {
  for (const auto& [a, known] : NAMES) {
    if (known == name) return a;
  }
  throw UsageError(Setting{"algorithm", std::string(name)}, "unknown (expected one of: " + algorithm_names() + ")");
}

bool takes_limit(Algorithm algorithm) {
  return algorithm == Algorithm::GREEDY_TRANSFERS || algorithm == Algorithm::GREEDY_REDUCERS;
}

ReductionPlan make_plan(const PlanRequest& request) {
  const std::string name(to_string(request.algorithm));
  if (takes_limit(request.algorithm) && !request.k) {
    throw UsageError(Setting{"limit K", ""}, "algorithm " + name + " needs it");
  }
  if (!takes_limit(request.algorithm) && request.k) {
    throw UsageError(Setting{"limit K", std::to_string(*request.k)},
                     "algorithm " + name + " takes no limit K (only greedy-transfers and greedy-reducers take one)");
  }
  const int n = request.n;
  const CostModel& model = request.model;
  switch (request.algorithm) {
    case Algorithm::GREEDY: return greedy_plan(n, model);
    case Algorithm::GREEDY_TRANSFERS: return greedy_transfers_plan(n, *request.k, model);
    case Algorithm::GREEDY_REDUCERS: return greedy_reducers_plan(n, *request.k, model);
    case Algorithm::BINOMIAL: return binomial_plan(n, model);
    case Algorithm::FIBONACCI: return fibonacci_plan(n, model);
    case Algorithm::BINOMIAL_STRATEGY: return binomial_strategy_plan(n, model);
    case Algorithm::FIBONACCI_STRATEGY: return fibonacci_strategy_plan(n, model);
  }
  STARNET_ASSERT(false);
  return {};
}

}  // namespace starnet::algorithms::trees
