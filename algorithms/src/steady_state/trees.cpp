#include <starnet/algorithms/steady_state/trees.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <utility>

namespace starnet::algorithms::steady_state {
namespace {

/// A cycle of positive sends of one type, as task indices, or nothing.
std::optional<std::vector<int>> find_cycle(const SteadyStateProblem& problem, const std::vector<int>& sends,
                                           const std::vector<mpz_class>& amounts) {
  const std::size_t n = problem.platform().num_nodes();
  std::vector<std::vector<int>> out(n);
  for (const int t : sends) {
    if (amounts[static_cast<std::size_t>(t)] > 0) out[problem.tasks()[static_cast<std::size_t>(t)].from].push_back(t);
  }
  enum : char { WHITE, GREY, BLACK };
  std::vector<char> colour(n, WHITE);
  std::vector<int> entered_by(n, -1);  // task through which the DFS entered a node
  for (Vertex root = 0; root < n; ++root) {
    if (colour[root] != WHITE || out[root].empty()) continue;
    std::vector<std::pair<Vertex, std::size_t>> stack{{root, 0}};
    colour[root] = GREY;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next == out[u].size()) {
        colour[u] = BLACK;
        stack.pop_back();
        continue;
      }
      const int t = out[u][next++];
      const Vertex v = problem.tasks()[static_cast<std::size_t>(t)].to;
      if (colour[v] == GREY) {
        std::vector<int> cycle{t};
        for (Vertex w = u; w != v; w = problem.tasks()[static_cast<std::size_t>(entered_by[w])].from) {
          cycle.push_back(entered_by[w]);
        }
        return cycle;
      }
      if (colour[v] == WHITE) {
        colour[v] = GREY;
        entered_by[v] = t;
        stack.emplace_back(v, 0);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

void cancel_circulations(const SteadyStateProblem& problem, std::vector<mpz_class>& amounts) {
  std::vector<std::vector<int>> sends_of_type(problem.types().size());
  for (int t = 0; t < static_cast<int>(problem.tasks().size()); ++t) {
    const Task& task = problem.tasks()[static_cast<std::size_t>(t)];
    if (task.kind == TaskKind::SEND) sends_of_type[static_cast<std::size_t>(task.type)].push_back(t);
  }
  for (const auto& sends : sends_of_type) {
    while (const auto cycle = find_cycle(problem, sends, amounts)) {
      mpz_class least = amounts[static_cast<std::size_t>(cycle->front())];
      for (const int t : *cycle) least = std::min(least, amounts[static_cast<std::size_t>(t)]);
      for (const int t : *cycle) amounts[static_cast<std::size_t>(t)] -= least;
    }
  }
}

namespace {

/// FIND_TREE (Figure 8) from sink @p sink through tasks with positive @p amounts.
WeightedTree find_tree(const SteadyStateProblem& problem, const std::vector<mpz_class>& amounts, int sink) {
  WeightedTree tree;
  tree.sink = sink;
  struct Pending {
    Location where;
    int consumer;  // position in tree.tasks, -1 for the sink
    int slot;
  };
  std::vector<Pending> pending{{problem.sinks()[static_cast<std::size_t>(sink)], -1, 0}};
  std::set<std::pair<int, Vertex>> visited;
  while (!pending.empty()) {
    const Pending p = pending.back();
    pending.pop_back();
    if (p.consumer >= 0 && problem.is_leaf(p.where)) continue;  // producers[..] stays -1
    if (!visited.emplace(p.where.type, p.where.node).second) {
      throw ScheduleError(fmt::format("tree extraction: {} is reached twice (the solution contains a circulation)",
                                      problem.location_label(p.where)));
    }
    int chosen = -1;
    for (const TaskKind kind : {TaskKind::COMPUTE, TaskKind::SEND}) {  // computed in place first
      for (const int t : problem.producers(p.where)) {
        if (chosen < 0 && problem.tasks()[static_cast<std::size_t>(t)].kind == kind && amounts[static_cast<std::size_t>(t)] > 0) {
          chosen = t;
        }
      }
    }
    if (chosen < 0) {
      throw ScheduleError(fmt::format("tree extraction: nothing produces {} (the solution violates the conservation law)",
                                      problem.location_label(p.where)));
    }
    const int position = static_cast<int>(tree.tasks.size());
    tree.tasks.push_back(chosen);
    tree.producers.push_back({-1, -1});
    if (p.consumer >= 0) tree.producers[static_cast<std::size_t>(p.consumer)][static_cast<std::size_t>(p.slot)] = position;
    const auto ins = problem.inputs(chosen);
    for (std::size_t k = 0; k < ins.size(); ++k) pending.push_back({ins[k], position, static_cast<int>(k)});
  }
  return tree;
}

}  // namespace

std::vector<WeightedTree> extract_trees(const SteadyStateProblem& problem, std::vector<mpz_class> amounts,
                                        const mpz_class& per_sink) {
  std::vector<WeightedTree> trees;
  for (int sink = 0; sink < static_cast<int>(problem.sinks().size()); ++sink) {
    mpz_class covered = 0;
    while (covered < per_sink) {
      WeightedTree tree = find_tree(problem, amounts, sink);
      tree.weight = amounts[static_cast<std::size_t>(tree.tasks.front())];
      for (const int t : tree.tasks) tree.weight = std::min(tree.weight, amounts[static_cast<std::size_t>(t)]);
      for (const int t : tree.tasks) amounts[static_cast<std::size_t>(t)] -= tree.weight;
      covered += tree.weight;
      trees.push_back(std::move(tree));
    }
  }
  return trees;
}

CertificateCheck check_trees(const SteadyStateProblem& problem, const std::vector<WeightedTree>& trees,
                             const std::vector<mpz_class>& amounts) {
  const auto fail = [](std::string why) { return CertificateCheck{false, std::move(why)}; };
  const std::size_t num_tasks = problem.tasks().size();
  if (amounts.size() != num_tasks) {
    return fail(fmt::format("{} amounts given for {} tasks", amounts.size(), num_tasks));
  }
  std::vector<mpz_class> sum(num_tasks);
  for (std::size_t i = 0; i < trees.size(); ++i) {
    const WeightedTree& tree = trees[i];
    const std::string name = fmt::format("tree {}", i);
    if (tree.weight <= 0) return fail(fmt::format("{} has weight {} (must be > 0)", name, tree.weight.get_str()));
    if (tree.tasks.empty() || tree.producers.size() != tree.tasks.size()) return fail(name + " is malformed");
    if (tree.sink < 0 || tree.sink >= static_cast<int>(problem.sinks().size()) ||
        !(problem.output(tree.tasks.front()) == problem.sinks()[static_cast<std::size_t>(tree.sink)])) {
      return fail(fmt::format("{}: its first task does not produce its sink", name));
    }
    const int size = static_cast<int>(tree.tasks.size());
    std::vector<int> referrers(tree.tasks.size(), 0);
    std::set<int> distinct;
    for (int p = 0; p < size; ++p) {
      const int t = tree.tasks[static_cast<std::size_t>(p)];
      if (t < 0 || t >= static_cast<int>(num_tasks)) return fail(fmt::format("{}: task index {} out of range", name, t));
      if (!distinct.insert(t).second) return fail(fmt::format("{} uses {} twice", name, problem.task_label(t)));
      const auto ins = problem.inputs(t);
      for (std::size_t k = 0; k < 2; ++k) {
        const int q = tree.producers[static_cast<std::size_t>(p)][k];
        if (k >= ins.size()) {
          if (q != -1) return fail(fmt::format("{}: {} has a second input", name, problem.task_label(t)));
          continue;
        }
        if (q == -1) {
          if (!problem.is_leaf(ins[k])) {
            return fail(fmt::format("{}: input {} of {} is neither produced in the tree nor a leaf", name,
                                    problem.location_label(ins[k]), problem.task_label(t)));
          }
          continue;
        }
        if (q <= 0 || q >= size || !(problem.output(tree.tasks[static_cast<std::size_t>(q)]) == ins[k])) {
          return fail(fmt::format("{}: input {} of {} is not produced by the recorded task", name,
                                  problem.location_label(ins[k]), problem.task_label(t)));
        }
        ++referrers[static_cast<std::size_t>(q)];
      }
      sum[static_cast<std::size_t>(t)] += tree.weight;
    }
    // Each task but the root feeds exactly one input (so no cycle hangs from the root), and all
    // hang from the root: a tree.
    for (int p = 1; p < size; ++p) {
      if (referrers[static_cast<std::size_t>(p)] != 1) {
        return fail(fmt::format("{}: {} feeds {} inputs (expected 1)", name,
                                problem.task_label(tree.tasks[static_cast<std::size_t>(p)]), referrers[static_cast<std::size_t>(p)]));
      }
    }
    std::vector<int> stack{0};
    int reached = 0;
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      ++reached;
      for (const int q : tree.producers[static_cast<std::size_t>(p)]) {
        if (q > 0) stack.push_back(q);
      }
    }
    if (reached != size) return fail(fmt::format("{}: {} of its {} tasks hang from its root", name, reached, size));
  }
  for (std::size_t t = 0; t < num_tasks; ++t) {
    if (sum[t] != amounts[t]) {
      return fail(fmt::format("sum of w(T) over trees using {} is {}, A is {}", problem.task_label(static_cast<int>(t)),
                              sum[t].get_str(), amounts[t].get_str()));
    }
  }
  return {};
}

std::vector<int> start_periods(const WeightedTree& tree) {
  std::vector<int> start(tree.tasks.size(), -1);
  const std::function<int(int)> visit = [&](int p) {
    auto& s = start[static_cast<std::size_t>(p)];
    if (s >= 0) return s;
    s = 0;
    for (const int q : tree.producers[static_cast<std::size_t>(p)]) {
      if (q >= 0) s = std::max(s, visit(q) + 1);
    }
    return s;
  };
  for (int p = 0; p < static_cast<int>(tree.tasks.size()); ++p) visit(p);
  return start;
}

}  // namespace starnet::algorithms::steady_state
