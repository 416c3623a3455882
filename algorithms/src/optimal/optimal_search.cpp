#include <starnet/algorithms/optimal/drat_check.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/algorithms/optimal/step_encoding.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/core/interrupt.hpp>

#include <cadical.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <sys/wait.h>
#include <unistd.h>

namespace starnet::algorithms::optimal {

using topology::NodeId;
using Clock = std::chrono::steady_clock;

std::string to_string(Status s) { return s == Status::OPTIMAL ? "optimal" : "time limit"; }

namespace {

/// CryptoMiniSat's exit codes (SAT competition convention).
constexpr int SOLVER_SAT = 10;
constexpr int SOLVER_UNSAT = 20;
constexpr int TIMEOUT_EXPIRED = 124;
constexpr int COMMAND_NOT_FOUND = 127;
/// Seconds the uniform search may spend on an upper bound before the SAT calls.
constexpr double UNIFORM_BOUND_SECONDS = 10;

class Deadline final : public CaDiCaL::Terminator {
 public:
  explicit Deadline(std::optional<Clock::time_point> at) : at_(at) {}
  bool terminate() override { return stop_requested() || (at_ && Clock::now() >= *at_); }

 private:
  std::optional<Clock::time_point> at_;
};

class LearnCounter final : public CaDiCaL::Learner {
 public:
  bool learning(int) override {
    ++count;
    return false;
  }
  void learn(int) override {}
  std::uint64_t count = 0;
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// Every node reaches every other (gossip) or the root reaches every node (broadcast).
std::optional<std::string> unreachable(const topology::Topology& t, Goal goal, NodeId root) {
  const NodeId n = t.num_nodes();
  std::vector<std::vector<NodeId>> reverse(n);
  for (NodeId v = 0; v < n; ++v) {
    for (topology::Port p = 0; p < t.degree(v); ++p) reverse[t.neighbor(v, p)].push_back(v);
  }
  const auto reach = [&](NodeId from, bool backwards) {
    std::vector<char> seen(n, 0);
    std::vector<NodeId> queue{from};
    seen[from] = 1;
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const NodeId v = queue[i];
      const auto visit = [&](NodeId u) {
        if (!seen[u]) seen[u] = 1, queue.push_back(u);
      };
      if (backwards) {
        for (const NodeId u : reverse[v]) visit(u);
      } else {
        for (topology::Port p = 0; p < t.degree(v); ++p) visit(t.neighbor(v, p));
      }
    }
    for (NodeId v = 0; v < n; ++v) {
      if (!seen[v]) return std::optional<NodeId>(v);
    }
    return std::optional<NodeId>();
  };
  const NodeId from = goal == Goal::GOSSIP ? 0 : root;
  if (const auto v = reach(from, false)) {
    return fmt::format("node {} cannot reach node {}", t.node_name(from), t.node_name(*v));
  }
  if (goal == Goal::GOSSIP) {
    if (const auto v = reach(from, true)) {
      return fmt::format("node {} cannot reach node {}", t.node_name(*v), t.node_name(from));
    }
  }
  return std::nullopt;
}

/// The exit code of CryptoMiniSat on @p cnf, within @p seconds.
std::string second_opinion(const Cnf& cnf, const std::filesystem::path& file, double seconds) {
  {
    std::ofstream out(file);
    cnf.write_dimacs(out);
    if (!out) return "not run (the CNF could not be written)";
  }
  const auto command = fmt::format("timeout {} cryptominisat5 --verb=0 {} > /dev/null 2>&1",
                                   std::max(1, static_cast<int>(seconds)), file.string());
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == SOLVER_UNSAT) return "confirmed";
  if (code == SOLVER_SAT) {
    throw SolverError(fmt::format("CaDiCaL and CryptoMiniSat disagree on {}: CryptoMiniSat finds it satisfiable",
                                  file.string()));
  }
  if (code == TIMEOUT_EXPIRED) return "timed out";
  if (code == COMMAND_NOT_FOUND) return "unavailable (cryptominisat5 is not installed)";
  return fmt::format("not confirmed (cryptominisat5 exited with {})", code);
}

/// Actual knowledge after each step of the sends a model chose: what the decoded schedule moves.
schedule::Schedule decode(const StepEncoding& e, CaDiCaL::Solver& solver, const topology::Topology& t, Goal goal,
                          NodeId root) {
  const auto n = static_cast<std::uint32_t>(t.num_nodes());
  using schedule::Collective;
  const schedule::ChunkRules rules(goal == Goal::GOSSIP ? Collective::ALLGATHER : Collective::BROADCAST, n,
                                   goal == Goal::GOSSIP ? n : 1, static_cast<std::uint32_t>(root));
  schedule::ScheduleBuilder builder(rules, 0);
  const std::uint32_t items = goal == Goal::GOSSIP ? n : 1;
  std::vector<std::vector<char>> knows(n, std::vector<char>(items, 0));
  for (std::uint32_t v = 0; v < n; ++v) {
    if (goal == Goal::GOSSIP) knows[v][v] = 1;
  }
  if (goal == Goal::BROADCAST) knows[root][0] = 1;
  std::vector<schedule::TransferItem> carried;
  for (std::uint64_t step = 1; step <= e.steps; ++step) {
    auto next = knows;
    for (std::size_t a = 0; a < e.arcs.size(); ++a) {
      if (solver.val(e.send_variable(step, a)) <= 0) continue;
      const auto [x, y] = e.arcs[a];
      carried.clear();
      for (std::uint32_t u = 0; u < items; ++u) {
        if (knows[x][u] && !knows[y][u]) {
          carried.push_back({u, u, schedule::ItemOp::COPY});
          next[y][u] = 1;
        }
      }
      if (!carried.empty()) {
        builder.add_transfer(static_cast<std::uint32_t>(step - 1), static_cast<std::uint32_t>(x),
                             static_cast<std::uint32_t>(y), carried);
      }
    }
    knows = std::move(next);
  }
  return std::move(builder).build();
}

}  // namespace

std::optional<std::string> steps_problem(const schedule::ScheduleRun& r, std::uint64_t steps) {
  if (!r.verified) {
    const auto first = r.report.first_problem();
    return first.empty() ? std::string("it does not verify, and the check names no problem") : first;
  }
  if (r.run.makespan == Rational(static_cast<std::int64_t>(steps))) return std::nullopt;
  return fmt::format("it runs verified but ends at time {}, not {}{}", r.run.makespan.to_string(), steps,
                     r.run.makespan < Rational(static_cast<std::int64_t>(steps))
                         ? " (a shorter schedule exists: a lower bound above it is wrong)"
                         : "");
}

std::optional<std::size_t> symmetric_first_arc(const topology::Topology& t, const std::string& spec, Goal goal,
                                               NodeId root) {
  topology::Spec s;
  try {
    s = topology::parse_spec(spec);
  } catch (const TopologyError&) {
    return std::nullopt;
  }
  bool transitive = s.family == "star" || s.family == "hypercube" || s.family == "complete" || s.family == "ring";
  if (s.family == "torus") {
    const auto x = s.argument.find('x');
    transitive = x != std::string::npos && s.argument.substr(0, x) == s.argument.substr(x + 1) &&
                 std::stoul(s.argument.substr(0, x)) >= 3;
  }
  if (!transitive) return std::nullopt;
  const NodeId from = goal == Goal::GOSSIP ? 0 : root;
  std::size_t index = 0;
  for (NodeId v = 0; v < from; ++v) {
    for (topology::Port p = 0; p < t.degree(v); ++p) index += t.neighbor(v, p) != v ? 1 : 0;
  }
  if (t.degree(from) == 0) return std::nullopt;
  return index;
}

bool OptimalSearch::solve(std::uint64_t steps, std::optional<std::size_t> first_arc,
                          std::optional<std::chrono::steady_clock::time_point> deadline) {
  const auto& t = *topology_;
  SolveRecord rec;
  rec.steps = steps;
  const auto solve_start = Clock::now();
  progress_detail(fmt::format("T = {}: encoding", steps));
  const StepEncoding e = encode_steps(t, goal_, root_, ports_, steps, first_arc);
  rec.variables = e.cnf.variables();
  rec.clauses = e.cnf.clauses();
  progress_detail(fmt::format("T = {}: solving ({} variables, {} clauses)", steps, rec.variables, rec.clauses));
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);  // CaDiCaL would print to standard output, which carries our JSON
  std::filesystem::path proof_file;
  if (!proof_dir_.empty()) {
    proof_file = std::filesystem::path(proof_dir_) / fmt::format("T{}.drat", steps);
    solver.set("binary", 0);
    if (!solver.trace_proof(proof_file.c_str())) {
      throw UsageError(fmt::format("proof directory {}: cannot write {}", proof_dir_, proof_file.string()));
    }
  }
  Deadline stop(deadline);
  LearnCounter learned;
  solver.connect_terminator(&stop);
  solver.connect_learner(&learned);
  for (const int lit : e.cnf.literals()) solver.add(lit);
  const int answer = solver.solve();
  solver.disconnect_terminator();
  solver.disconnect_learner();
  throw_if_stopped("the optimal search");
  rec.learned = learned.count;
  rec.seconds = seconds_since(solve_start);
  // A proof is kept only beside a refutation: for a model, or a call cut short, the trace proves
  // nothing, and a DRAT file without the CNF it refutes would pass for one.
  if (!proof_dir_.empty() && answer != 20) {
    solver.close_proof_trace();
    std::error_code ignored;  // the file was just made in a folder we write; nothing to report if it is gone
    std::filesystem::remove(proof_file, ignored);
  }
  if (answer == 0) {
    result_.solves.push_back(rec);
    if (on_solve_) on_solve_(rec);
    return false;
  }
  rec.satisfiable = answer == 10;
  if (*rec.satisfiable) {
    result_.schedule = decode(e, solver, t, goal_, root_);
    schedule::ScheduleRunSettings settings;
    settings.config.ports = ports_;
    const auto r = schedule::run_schedule(*result_.schedule, t, settings);
    const auto problem = steps_problem(r, steps);
    result_.schedule_verified = !problem;
    if (problem) {
      throw SolverError(
          fmt::format("the schedule decoded from the model at T = {} fails on the emulator: {}", steps, *problem));
    }
    result_.optimum = steps;
    result_.upper_bound = steps;
    result_.upper_source = "SAT";
    result_.upper_schedule = result_.schedule;
  } else {
    if (!proof_dir_.empty()) {
      solver.close_proof_trace();
      std::ifstream proof(proof_file);
      const auto checked = check_drat(e.cnf.clause_list(), proof,
                                      deadline ? std::max(1.0, std::chrono::duration<double>(*deadline - Clock::now()).count()) : 3600);
      rec.proof = checked.verified ? fmt::format("verified ({} lemmas)", checked.lemmas) : "NOT verified: " + checked.failure;
      if (!checked.verified && checked.failure.find("time limit") == std::string::npos) {
        throw SolverError(fmt::format("the DRAT proof {} of T = {} does not check: {}", proof_file.string(), steps,
                                      checked.failure));
      }
    }
    const auto cnf_file = proof_dir_.empty()
                              ? std::filesystem::temp_directory_path() / fmt::format("starnet_optimal_{}_{}.cnf", ::getpid(), steps)
                              : std::filesystem::path(proof_dir_) / fmt::format("T{}.cnf", steps);
    const double left = deadline ? std::chrono::duration<double>(*deadline - Clock::now()).count() : 3600;
    rec.second_solver = second_opinion(e.cnf, cnf_file, std::max(1.0, left));
    if (proof_dir_.empty()) std::filesystem::remove(cnf_file);
    result_.lower_bound = steps + 1;
  }
  result_.solves.push_back(rec);
  if (on_solve_) on_solve_(rec);
  return true;
}

void OptimalSearch::upper_bound_from_builtins() {
  const auto& t = *topology_;
  const auto candidates = builtins_ ? builtins_(t, spec_, goal_, root_, ports_) : std::vector<Candidate>{};
  for (const auto& c : candidates) {
    try {
      schedule::ScheduleRunSettings settings;
      settings.config.ports = ports_;
      const auto r = schedule::run_schedule(c.schedule, t, settings);
      const auto steps = static_cast<std::uint64_t>(r.run.makespan.num());
      if (r.verified && (!result_.upper_bound || steps < *result_.upper_bound)) {
        result_.upper_bound = steps;
        result_.upper_source = c.name;
        result_.upper_schedule = c.schedule;
      }
    } catch (const ModelViolation&) {
      // It breaks this port model.
    } catch (const ScheduleError&) {
      // It does not run on this topology as given.
    }
  }
  result_.builtin_steps = result_.upper_bound;
  result_.builtin = result_.upper_source;
  // On a Cayley graph, single port, full duplex: the shortest uniform schedule (uniform_search.hpp;
  // a uniform broadcast ends with the uniform gossip, from any root).
  if (ports_.ports != 1 || ports_.half_duplex || in_memory_) return;
  std::optional<CayleyGroup> g;
  try {
    g = CayleyGroup::of(spec_);
  } catch (const Error&) {
    return;  // not given as a Cayley graph
  }
  if (g->order() > MAX_UNIFORM_SCHEDULE_NODES || g->order() != t.num_nodes()) return;
  const auto u = uniform_exhaustive(*g, static_cast<int>(g->order()), UNIFORM_BOUND_SECONDS);
  if (u.dimensions.empty()) return;
  const auto s = goal_ == Goal::GOSSIP ? uniform_schedule(*g, u.dimensions)
                                       : uniform_broadcast_schedule(*g, u.dimensions, static_cast<std::uint32_t>(root_));
  const auto r = schedule::run_schedule(s, t, {});
  const auto steps = static_cast<std::uint64_t>(r.run.makespan.num());
  if (r.verified && (!result_.upper_bound || steps < *result_.upper_bound)) {
    result_.upper_bound = steps;
    result_.upper_source = "uniform";
    result_.upper_schedule = s;
  }
}

OptimalSearch& OptimalSearch::run() {
  const auto start = Clock::now();
  STARNET_ASSERT(topology_ != nullptr);
  const auto& t = *topology_;
  result_ = {};
  if (ports_.ports < 1) throw UsageError(fmt::format("ports {}: expected k ≥ 1", ports_.ports));
  if (t.num_nodes() > MAX_EXACT_NODES) {
    throw UsageError(fmt::format("{} has {} nodes: exact search stops at {} (the gossip formula has N² knowledge "
                                 "variables per step; beyond that no instance is decided in reasonable time)",
                                 spec_, t.num_nodes(), MAX_EXACT_NODES));
  }
  if (root_ >= t.num_nodes()) throw UsageError(fmt::format("root {}: not a node of {}", root_, spec_));
  if (const auto why = unreachable(t, goal_, root_)) {
    throw UsageError(fmt::format("{}: no schedule exists: {}", spec_, *why));
  }
  const auto deadline = deadline_after(time_limit_, start);
  // Family knowledge is vouched for by a spec, never by the name of a platform built in memory.
  bool transitive = false;
  try {
    transitive = !in_memory_ && topology::is_vertex_transitive(spec_);
  } catch (const TopologyError&) {
  }
  result_.bounds = step_bounds(t, goal_, root_, ports_, transitive);
  const NamedBound* best = nullptr;
  for (const auto& b : result_.bounds) {
    if (b.steps > result_.lower_bound) result_.lower_bound = b.steps, best = &b;
  }

  upper_bound_from_builtins();
  if (best != nullptr && result_.upper_bound && best->steps > *result_.upper_bound) {
    throw SolverError(fmt::format("{}: the {} bound, {} steps, exceeds the {} steps of {}'s schedule, run verified on "
                                  "the emulator: the bound is wrong here",
                                  spec_, best->name, best->steps, *result_.upper_bound, result_.upper_source));
  }
  const auto first_arc = in_memory_ ? std::nullopt : symmetric_first_arc(t, spec_, goal_, root_);
  for (std::uint64_t steps = result_.lower_bound; !result_.optimum; ++steps) {
    if (result_.upper_bound && steps >= *result_.upper_bound) {
      // Every shorter T is refuted (by a named bound or an UNSAT): the verified upper bound is optimal.
      result_.optimum = *result_.upper_bound;
      result_.schedule = result_.upper_schedule;
      result_.schedule_verified = true;
      break;
    }
    if (!solve(steps, first_arc, deadline)) break;  // the time limit: the bracket stands
  }
  result_.status = result_.optimum ? Status::OPTIMAL : Status::TIME_LIMIT;
  result_.seconds = seconds_since(start);
  return *this;
}

}  // namespace starnet::algorithms::optimal
