#include <starnet/algorithms/steady_state/problem.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace starnet::algorithms::steady_state {
namespace {

/// The series as the paper names it: a series of personalised all-to-alls is its "gossip".
const char* paper_name(Collective c) {
  return c == Collective::SCATTER ? "scatter" : c == Collective::ALLTOALL ? "gossip" : "reduce";
}

}  // namespace


using topology::Platform;
using topology::Role;


namespace {

std::vector<char> reachable_from(const Platform& platform, Vertex from) {
  const auto& g = platform.graph();
  std::vector<char> seen(boost::num_vertices(g), 0);
  std::vector<Vertex> stack{from};
  seen[from] = 1;
  while (!stack.empty()) {
    const Vertex v = stack.back();
    stack.pop_back();
    for (const auto e : boost::make_iterator_range(boost::out_edges(v, g))) {
      const Vertex w = boost::target(e, g);
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back(w);
      }
    }
  }
  return seen;
}

/// The processors called @p names, in order. @p what names the list in error messages.
std::vector<Vertex> resolve(const Platform& platform, const std::vector<std::string>& names, std::string_view what) {
  std::vector<Vertex> out;
  std::set<Vertex> seen;
  for (const auto& name : names) {
    const Vertex v = platform.at(name, what);
    if (platform.graph()[v].role == Role::ROUTER) {
      throw ScheduleError(fmt::format("{}: node \"{}\" is a router (participants must be processors)", what, name));
    }
    if (!seen.insert(v).second) throw ScheduleError(fmt::format("{}: node \"{}\" is given twice", what, name));
    out.push_back(v);
  }
  return out;
}

void require_non_empty(const std::vector<std::string>& names, std::string_view what) {
  if (names.empty()) throw ScheduleError(fmt::format("{}: the list is empty (expected at least one node)", what));
}

void require_reachable(const Platform& platform, Vertex from, Vertex to, std::string_view what_to,
                       std::string_view what_from) {
  if (!reachable_from(platform, from)[to]) {
    const auto& g = platform.graph();
    throw ScheduleError(fmt::format("{} \"{}\" is unreachable from {} \"{}\" (the throughput would be 0)", what_to,
                                    g[to].name, what_from, g[from].name));
  }
}

}  // namespace

SteadyStateProblem::SteadyStateProblem(const Platform& platform, Collective collective)
    : platform_(&platform), collective_(collective) {
  platform.validate();
}

std::size_t SteadyStateProblem::key(Location where) const {
  return static_cast<std::size_t>(where.type) * platform_->num_nodes() + where.node;
}

bool SteadyStateProblem::is_leaf(Location where) const { return leaf_[key(where)] != 0; }
int SteadyStateProblem::sink_index(Location where) const { return sink_[key(where)]; }
const std::vector<int>& SteadyStateProblem::producers(Location where) const { return producers_[key(where)]; }
const std::vector<int>& SteadyStateProblem::consumers(Location where) const { return consumers_[key(where)]; }

std::vector<Location> SteadyStateProblem::inputs(int t) const {
  const Task& task = tasks_[static_cast<std::size_t>(t)];
  if (task.kind == TaskKind::SEND) return {Location{task.type, task.from}};
  return {Location{task.left, task.from}, Location{task.right, task.from}};
}

Location SteadyStateProblem::output(int t) const {
  const Task& task = tasks_[static_cast<std::size_t>(t)];
  return {task.type, task.to};
}

const std::string& SteadyStateProblem::node_name(Vertex v) const { return platform_->graph()[v].name; }

std::string SteadyStateProblem::task_label(int t) const {
  const Task& task = tasks_[static_cast<std::size_t>(t)];
  if (task.kind == TaskKind::SEND) {
    return fmt::format("send({}->{}, {})", node_name(task.from), node_name(task.to),
                       types_[static_cast<std::size_t>(task.type)].label);
  }
  const auto& left = types_[static_cast<std::size_t>(task.left)];
  const auto& result = types_[static_cast<std::size_t>(task.type)];
  return fmt::format("cons({}, T[{},{},{}])", node_name(task.from), result.first, left.last, result.last);
}

std::string SteadyStateProblem::location_label(Location where) const {
  return types_[static_cast<std::size_t>(where.type)].label + "@" + node_name(where.node);
}

std::string SteadyStateProblem::describe() const {
  std::vector<std::string> from;
  std::vector<std::string> to;
  for (const auto& leaf : leaves_) {
    const auto& name = node_name(leaf.node);
    if (std::find(from.begin(), from.end(), name) == from.end()) from.push_back(name);
  }
  for (const auto& sink : sinks_) {
    const auto& name = node_name(sink.node);
    if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
  }
  return fmt::format("{} {} -> {} on {}", paper_name(collective_), fmt::join(from, ","), fmt::join(to, ","),
                     platform_->name());
}

void SteadyStateProblem::add_send_tasks() {
  const std::size_t keys = types_.size() * platform_->num_nodes();
  leaf_.assign(keys, 0);
  sink_.assign(keys, -1);
  for (const auto& leaf : leaves_) leaf_[key(leaf)] = 1;
  for (std::size_t s = 0; s < sinks_.size(); ++s) sink_[key(sinks_[s])] = static_cast<int>(s);
  const auto& g = platform_->graph();
  for (const auto e : boost::make_iterator_range(boost::edges(g))) {
    const Vertex u = boost::source(e, g);
    const Vertex v = boost::target(e, g);
    const mpq_class cost = to_mpq(g[e].cost);
    // α–β: each message of a type pays the link's latency once (docs/steady_state.md).
    const mpq_class latency = to_mpq(g[e].latency);
    for (int type = 0; type < static_cast<int>(types_.size()); ++type) {
      // Nothing enters a leaf and nothing leaves a sink (file comment of problem.hpp).
      if (is_leaf({type, v}) || sink_index({type, u}) >= 0) continue;
      tasks_.push_back(Task{TaskKind::SEND, u, v, type, -1, -1, latency + types_[static_cast<std::size_t>(type)].size * cost});
    }
  }
}

void SteadyStateProblem::index_locations() {
  const std::size_t keys = types_.size() * platform_->num_nodes();
  producers_.assign(keys, {});
  consumers_.assign(keys, {});
  for (int t = 0; t < static_cast<int>(tasks_.size()); ++t) {
    producers_[key(output(t))].push_back(t);
    for (const auto& in : inputs(t)) consumers_[key(in)].push_back(t);
  }
}

SteadyStateProblem SteadyStateProblem::scatter(const Platform& platform, std::string_view source,
                                               const std::vector<std::string>& targets) {
  SteadyStateProblem p(platform, Collective::SCATTER);
  const Vertex s = resolve(platform, {std::string(source)}, "scatter source").front();
  require_non_empty(targets, "scatter targets");
  const auto ts = resolve(platform, targets, "scatter targets");
  p.participants_.push_back(s);
  for (const Vertex t : ts) {
    if (t == s) {
      throw ScheduleError(fmt::format("scatter targets: node \"{}\" is the source (expected other nodes)",
                                      platform.graph()[t].name));
    }
    require_reachable(platform, s, t, "scatter target", "source");
    const int type = static_cast<int>(p.types_.size());
    p.types_.push_back(MessageType{fmt::format("m[{}]", platform.graph()[t].name), 1, -1, -1});
    p.leaves_.push_back({type, s});
    p.sinks_.push_back({type, t});
    p.participants_.push_back(t);
  }
  p.add_send_tasks();
  p.index_locations();
  return p;
}

SteadyStateProblem SteadyStateProblem::gossip(const Platform& platform, const std::vector<std::string>& sources,
                                              const std::vector<std::string>& targets) {
  SteadyStateProblem p(platform, Collective::ALLTOALL);
  require_non_empty(sources, "gossip sources");
  require_non_empty(targets, "gossip targets");
  const auto ss = resolve(platform, sources, "gossip sources");
  const auto ts = resolve(platform, targets, "gossip targets");
  p.participants_ = ss;
  for (const Vertex t : ts) {
    if (std::find(ss.begin(), ss.end(), t) == ss.end()) p.participants_.push_back(t);
  }
  const auto& g = platform.graph();
  for (const Vertex s : ss) {
    for (const Vertex t : ts) {
      if (s == t) continue;
      require_reachable(platform, s, t, "gossip target", "source");
      const int type = static_cast<int>(p.types_.size());
      p.types_.push_back(MessageType{fmt::format("m[{},{}]", g[s].name, g[t].name), 1, -1, -1});
      p.leaves_.push_back({type, s});
      p.sinks_.push_back({type, t});
    }
  }
  if (p.types_.empty()) {
    throw ScheduleError(fmt::format("gossip: sources {} and targets {} form no pair of distinct nodes",
                                    fmt::join(sources, ","), fmt::join(targets, ",")));
  }
  p.add_send_tasks();
  p.index_locations();
  return p;
}

SteadyStateProblem SteadyStateProblem::reduce(const Platform& platform, const std::vector<std::string>& participants,
                                              std::string_view target, const ReduceCosts& costs) {
  SteadyStateProblem p(platform, Collective::REDUCE);
  if (participants.size() < 2) {
    throw ScheduleError(fmt::format("reduce participants: {} given (expected at least two nodes)", participants.size()));
  }
  p.participants_ = resolve(platform, participants, "reduce participants");
  p.target_ = resolve(platform, {std::string(target)}, "reduce target").front();
  for (const Vertex v : p.participants_) require_reachable(platform, v, p.target_, "reduce target", "participant");
  const int n = static_cast<int>(p.participants_.size()) - 1;  // v_0 … v_N
  // type index of v[k,m], k <= m
  std::vector<std::vector<int>> index(static_cast<std::size_t>(n + 1), std::vector<int>(static_cast<std::size_t>(n + 1), -1));
  for (int k = 0; k <= n; ++k) {
    for (int m = k; m <= n; ++m) {
      const Rational size = costs.message_size ? costs.message_size(k, m) : Rational(1);
      if (!(size > 0)) {
        throw InputError(fmt::format("reduce message size of v[{},{}] is {} (must be > 0)", k, m, size.to_string()));
      }
      index[static_cast<std::size_t>(k)][static_cast<std::size_t>(m)] = static_cast<int>(p.types_.size());
      p.types_.push_back(MessageType{fmt::format("v[{},{}]", k, m), to_mpq(size), k, m});
    }
  }
  const auto type_of = [&](int k, int m) { return index[static_cast<std::size_t>(k)][static_cast<std::size_t>(m)]; };
  for (int i = 0; i <= n; ++i) p.leaves_.push_back({type_of(i, i), p.participants_[static_cast<std::size_t>(i)]});
  p.sinks_.push_back({type_of(0, n), p.target_});
  p.add_send_tasks();
  const auto& g = platform.graph();
  for (const auto v : boost::make_iterator_range(boost::vertices(g))) {
    if (g[v].role != Role::PROCESSOR) continue;
    const mpq_class speed = to_mpq(g[v].speed);
    for (int k = 0; k < n; ++k) {
      for (int m = k + 1; m <= n; ++m) {
        for (int l = k; l < m; ++l) {
          const Rational work = costs.task_work ? costs.task_work(k, l, m) : Rational(1);
          if (!(work > 0)) {
            throw InputError(fmt::format("reduce work of T[{},{},{}] is {} (must be > 0)", k, l, m, work.to_string()));
          }
          p.tasks_.push_back(
              Task{TaskKind::COMPUTE, v, v, type_of(k, m), type_of(k, l), type_of(l + 1, m), to_mpq(work) / speed});
        }
      }
    }
  }
  p.index_locations();
  return p;
}

LinearProgram SteadyStateProblem::linear_program() const {
  LinearProgram lp;
  for (int t = 0; t < static_cast<int>(tasks_.size()); ++t) lp.add_variable(task_label(t));
  const int tp = lp.add_variable("TP", 1);
  const auto n = platform_->num_nodes();
  // One-port and compute rows, created on first use so that idle nodes add no empty rows.
  std::vector<int> out_row(n, -1);
  std::vector<int> in_row(n, -1);
  std::vector<int> cpu_row(n, -1);
  const auto row_of = [&](std::vector<int>& rows, Vertex v, const char* what) {
    if (rows[v] < 0) rows[v] = lp.add_constraint(fmt::format("{} of {}", what, node_name(v)), Sense::LESS_EQUAL, 1);
    return rows[v];
  };
  for (int t = 0; t < static_cast<int>(tasks_.size()); ++t) {
    const Task& task = tasks_[static_cast<std::size_t>(t)];
    if (task.kind == TaskKind::SEND) {
      lp.set_coefficient(row_of(out_row, task.from, "send port"), t, task.time);
      lp.set_coefficient(row_of(in_row, task.to, "receive port"), t, task.time);
    } else {
      lp.set_coefficient(row_of(cpu_row, task.from, "compute"), t, task.time);
    }
  }
  for (int type = 0; type < static_cast<int>(types_.size()); ++type) {
    for (Vertex v = 0; v < n; ++v) {
      const Location here{type, v};
      if (is_leaf(here)) continue;
      const auto& made = producers(here);
      const auto& used = consumers(here);
      const bool sink = sink_index(here) >= 0;
      if (!sink && made.empty() && used.empty()) continue;
      const int row = lp.add_constraint(fmt::format("{} of {}", sink ? "throughput" : "conservation", location_label(here)),
                                        Sense::EQUAL, 0);
      for (const int t : made) lp.set_coefficient(row, t, 1);
      for (const int t : used) lp.set_coefficient(row, t, -1);
      if (sink) lp.set_coefficient(row, tp, -1);
    }
  }
  return lp;
}

}  // namespace starnet::algorithms::steady_state
