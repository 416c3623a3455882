#include <starnet/algorithms/steady_state/schedule.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace starnet::algorithms::steady_state {
namespace {

mpz_class floor_of(const mpq_class& q) {
  mpz_class out;
  mpz_fdiv_q(out.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return out;
}

std::vector<mpz_class> served_per_sink(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees) {
  std::vector<mpz_class> served(problem.sinks().size());
  for (const auto& tree : trees) served[static_cast<std::size_t>(tree.sink)] += tree.weight;
  return served;
}

}  // namespace

PeriodicSchedule build_periodic_schedule(const SteadyStateProblem& problem, std::vector<WeightedTree> trees,
                                         const mpq_class& period) {
  PeriodicSchedule s;
  s.period = period;
  s.trees = std::move(trees);
  const auto served = served_per_sink(problem, s.trees);
  s.operations_per_period = served.empty() ? mpz_class(0) : *std::min_element(served.begin(), served.end());
  s.matchings = decompose_into_matchings(problem, s.trees);
  for (int tree = 0; tree < static_cast<int>(s.trees.size()); ++tree) {
    const auto& t = s.trees[static_cast<std::size_t>(tree)];
    const auto starts = start_periods(t);
    s.startup_periods = std::max(s.startup_periods, starts.front());
    for (std::size_t p = 0; p < t.tasks.size(); ++p) {
      const Task& task = problem.tasks()[static_cast<std::size_t>(t.tasks[p])];
      if (task.kind == TaskKind::COMPUTE) s.computations.push_back({task.from, t.tasks[p], tree, t.weight, starts[p]});
    }
  }
  return s;
}

PeriodicSchedule with_whole_messages(PeriodicSchedule s) {
  mpz_class l = 1;
  for (const auto& m : s.matchings) {
    for (const auto& tr : m.transfers) mpz_lcm(l.get_mpz_t(), l.get_mpz_t(), tr.amount.get_den_mpz_t());
  }
  if (l == 1) return s;
  s.period *= l;
  s.operations_per_period *= l;
  for (auto& tree : s.trees) tree.weight *= l;
  for (auto& m : s.matchings) {
    m.duration *= l;
    for (auto& tr : m.transfers) tr.amount *= l;
  }
  for (auto& c : s.computations) c.amount *= l;
  return s;
}

PeriodicSchedule fixed_period_schedule(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees,
                                       const mpq_class& period, const mpq_class& fixed_period) {
  if (fixed_period <= 0) {
    throw InputError(fmt::format("fixed period {} is not valid (must be > 0)", fixed_period.get_str()));
  }
  std::vector<WeightedTree> scaled;
  for (const auto& tree : trees) {
    WeightedTree t = tree;
    t.weight = floor_of(tree.weight * fixed_period / period);
    scaled.push_back(std::move(t));
  }
  const auto served = served_per_sink(problem, scaled);
  const mpz_class common = served.empty() ? mpz_class(0) : *std::min_element(served.begin(), served.end());
  std::vector<mpz_class> excess(served.size());
  for (std::size_t k = 0; k < served.size(); ++k) excess[k] = served[k] - common;
  for (auto it = scaled.rbegin(); it != scaled.rend(); ++it) {
    auto& e = excess[static_cast<std::size_t>(it->sink)];
    const mpz_class cut = std::min(e, it->weight);
    it->weight -= cut;
    e -= cut;
  }
  std::erase_if(scaled, [](const WeightedTree& t) { return t.weight == 0; });
  return build_periodic_schedule(problem, std::move(scaled), fixed_period);
}

CertificateCheck check_schedule(const SteadyStateProblem& problem, const PeriodicSchedule& s) {
  const auto fail = [](std::string why) { return CertificateCheck{false, std::move(why)}; };
  if (s.period <= 0) return fail(fmt::format("period {} (must be > 0)", s.period.get_str()));
  std::vector<mpz_class> amounts(problem.tasks().size());
  for (const auto& tree : s.trees) {
    if (tree.sink < 0 || tree.sink >= static_cast<int>(problem.sinks().size())) return fail("a tree names no sink");
    for (const int t : tree.tasks) {
      if (t >= 0 && t < static_cast<int>(amounts.size())) amounts[static_cast<std::size_t>(t)] += tree.weight;
    }
  }
  if (auto check = check_trees(problem, s.trees, amounts); !check) return check;
  const auto served = served_per_sink(problem, s.trees);
  for (std::size_t k = 0; k < served.size(); ++k) {
    if (served[k] != s.operations_per_period) {
      return fail(fmt::format("sink {} receives {} per period, not operations_per_period = {}",
                              problem.location_label(problem.sinks()[k]), served[k].get_str(),
                              s.operations_per_period.get_str()));
    }
  }
  if (auto check = check_matchings(problem, s.trees, s.matchings, s.period); !check) return check;

  std::vector<std::vector<int>> starts;
  std::vector<std::map<int, int>> position;  // per tree: task -> position
  int startup = 0;
  for (const auto& tree : s.trees) {
    starts.push_back(start_periods(tree));
    startup = std::max(startup, starts.back().front());
    auto& pos = position.emplace_back();
    for (std::size_t p = 0; p < tree.tasks.size(); ++p) pos[tree.tasks[p]] = static_cast<int>(p);
  }
  if (startup != s.startup_periods) {
    return fail(fmt::format("startup_periods is {}, the trees need {}", s.startup_periods, startup));
  }
  const auto start_of = [&](int tree, int task) {
    return starts[static_cast<std::size_t>(tree)][static_cast<std::size_t>(position[static_cast<std::size_t>(tree)].at(task))];
  };
  for (std::size_t k = 0; k < s.matchings.size(); ++k) {
    for (const auto& tr : s.matchings[k].transfers) {
      if (tr.start_period != start_of(tr.tree, tr.task)) {
        return fail(fmt::format("matching {}: {} of tree {} starts in period {}, expected {}", k,
                                problem.task_label(tr.task), tr.tree, tr.start_period, start_of(tr.tree, tr.task)));
      }
    }
  }
  std::map<std::pair<int, int>, mpq_class> covered;
  std::map<Vertex, mpq_class> load;
  for (const auto& c : s.computations) {
    if (c.tree < 0 || c.tree >= static_cast<int>(s.trees.size()) || !position[static_cast<std::size_t>(c.tree)].contains(c.task)) {
      return fail(fmt::format("a computation names tree {} and task {}, which it does not hold", c.tree, c.task));
    }
    const Task& task = problem.tasks()[static_cast<std::size_t>(c.task)];
    if (task.kind != TaskKind::COMPUTE || task.from != c.node) {
      return fail(fmt::format("a computation does not match its task {}", problem.task_label(c.task)));
    }
    if (c.start_period != start_of(c.tree, c.task)) {
      return fail(fmt::format("{} of tree {} starts in period {}, expected {}", problem.task_label(c.task), c.tree,
                              c.start_period, start_of(c.tree, c.task)));
    }
    covered[{c.tree, c.task}] += c.amount;
    load[c.node] += c.amount * task.time;
  }
  for (int tree = 0; tree < static_cast<int>(s.trees.size()); ++tree) {
    for (const int t : s.trees[static_cast<std::size_t>(tree)].tasks) {
      if (problem.tasks()[static_cast<std::size_t>(t)].kind != TaskKind::COMPUTE) continue;
      const auto it = covered.find({tree, t});
      if (it == covered.end() || it->second != s.trees[static_cast<std::size_t>(tree)].weight) {
        return fail(fmt::format("{} of tree {} is not scheduled w(T) = {} times", problem.task_label(t), tree,
                                s.trees[static_cast<std::size_t>(tree)].weight.get_str()));
      }
    }
  }
  for (const auto& [node, time] : load) {
    if (time > s.period) {
      return fail(fmt::format("{} computes {} per period of {}", problem.node_name(node), time.get_str(),
                              s.period.get_str()));
    }
  }
  return {};
}

PhasePlan plan_phases(const PeriodicSchedule& schedule, const mpq_class& optimal_throughput, const mpq_class& horizon) {
  if (horizon <= 0) throw InputError(fmt::format("horizon K = {} is not valid (must be > 0)", horizon.get_str()));
  PhasePlan plan;
  plan.horizon = horizon;
  plan.whole_periods = floor_of(horizon / schedule.period);
  plan.startup_periods = schedule.startup_periods;
  plan.repetitions = plan.whole_periods - schedule.startup_periods;
  if (plan.repetitions < 0) plan.repetitions = 0;
  plan.completed = plan.repetitions * schedule.operations_per_period;
  plan.bound = optimal_throughput * horizon;
  plan.ratio = plan.bound > 0 ? mpq_class(mpq_class(plan.completed) / plan.bound) : mpq_class(0);
  return plan;
}

}  // namespace starnet::algorithms::steady_state
