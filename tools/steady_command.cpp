// `starnet steady scatter|gossip|reduce`: the optimal steady-state throughput of a series of
// collectives on a weighted platform (Legrand, Marchal, Robert 2004), certified exactly, and the
// periodic schedule that achieves it (matchings, trees, start-up), optionally for a fixed period;
// with --emulate K, the schedule run on the emulator and the operations it completes.
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "gantt.hpp"

#include <starnet/algorithms/steady_state/planner.hpp>
#include <starnet/algorithms/steady_state/schedule_program.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <fmt/format.h>

#include <limits>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace starnet::tools {
namespace {

namespace ss = algorithms::steady_state;

struct SteadyOptions {
  std::string topology;
  std::string source;   // scatter
  std::string sources;  // gossip
  std::string targets;  // scatter, gossip
  std::string participants;  // reduce
  std::string target;        // reduce
  std::string message_size = "1";
  std::string task_work = "1";
  std::string period;  // --period P: the fixed-period approximation
  std::string emulate;  // --emulate K: the horizon
  std::string gantt;    // --gantt FILE.svg: the emulated run
  TraceOutput trace;    // --trace FILE: the emulated run
  int iteration_limit = 0;
  bool whole_messages = false;
  bool json = false;
};

/// "A,B,,C" → {"A", "B", "C"}: empty items are dropped, so "" is the empty list.
std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::optional<mpq_class> parse_period(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const Rational p = Rational::parse(text, "--period");
  if (!(p > 0)) throw UsageError(fmt::format("--period {}: the period must be > 0", text));
  return ss::to_mpq(p);
}

std::optional<mpq_class> parse_horizon(const SteadyOptions& o) {
  if (o.emulate.empty()) {
    if (!o.gantt.empty()) throw UsageError("--gantt draws the emulated run: give --emulate K as well");
    if (o.trace.wanted()) throw UsageError("--trace records the emulated run: give --emulate K as well");
    return std::nullopt;
  }
  const Rational k = Rational::parse(o.emulate, "--emulate");
  if (!(k > 0)) throw UsageError(fmt::format("--emulate {}: the horizon K must be > 0 time units", o.emulate));
  return ss::to_mpq(k);
}

/// The emulations of the optimal schedule and, with --period, of the fixed-period one.
struct Emulations {
  std::optional<ss::ScheduleEmulator> optimal;
  std::optional<ss::ScheduleEmulator> fixed;
  [[nodiscard]] bool verified() const {
    return (!optimal || optimal->result().verified()) && (!fixed || fixed->result().verified());
  }
};

ss::ReduceCosts parse_costs(const SteadyOptions& o) {
  const auto positive = [](const std::string& text, const char* option) {
    const Rational value = Rational::parse(text, option);
    if (!(value > Rational(0))) throw UsageError(fmt::format("{} {}: expected a size > 0", option, text));
    return value;
  };
  const Rational size = positive(o.message_size, "--message-size");
  const Rational work = positive(o.task_work, "--task-work");
  return {[size](int, int) { return size; }, [work](int, int, int) { return work; }};
}

/// An exact GMP rational in a JSON object (json_output.hpp).
void put_q(nlohmann::json& j, const std::string& key, const mpq_class& q) { put_exact(j, key, q.get_str(), q.get_d()); }
/// A GMP count: a JSON integer, or a double beside its exact digits past 64 bits.
void put_z(nlohmann::json& j, const std::string& key, const mpz_class& z) { put_exact(j, key, z.get_str(), z.get_d()); }

nlohmann::json tree_json(const ss::SteadyStateProblem& problem, const ss::WeightedTree& tree) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const int t : tree.tasks) tasks.push_back(problem.task_label(t));
  nlohmann::json j = {{"tasks", tasks}};
  put_q(j, "weight", tree.weight);
  return j;
}

nlohmann::json schedule_json(const ss::SteadyStateProblem& problem, const ss::PeriodicSchedule& s) {
  nlohmann::json matchings = nlohmann::json::array();
  for (const auto& m : s.matchings) {
    nlohmann::json transfers = nlohmann::json::array();
    for (const auto& tr : m.transfers) {
      nlohmann::json t = {{"from", problem.node_name(tr.from)},
                          {"to", problem.node_name(tr.to)},
                          {"type", problem.types()[static_cast<std::size_t>(tr.type)].label},
                          {"tree", tr.tree},
                          {"start_period", tr.start_period}};
      put_q(t, "amount", tr.amount);
      transfers.push_back(std::move(t));
    }
    nlohmann::json matching = {{"transfers", transfers}};
    put_q(matching, "weight", m.duration);
    matchings.push_back(std::move(matching));
  }
  nlohmann::json computations = nlohmann::json::array();
  for (const auto& c : s.computations) {
    nlohmann::json computation = {{"node", problem.node_name(c.node)},
                                  {"task", problem.task_label(c.task)},
                                  {"tree", c.tree},
                                  {"start_period", c.start_period}};
    put_q(computation, "amount", c.amount);
    computations.push_back(std::move(computation));
  }
  nlohmann::json trees = nlohmann::json::array();
  for (const auto& tree : s.trees) trees.push_back(tree_json(problem, tree));
  nlohmann::json j = {{"startup_periods", s.startup_periods},
                      {"matchings", matchings},
                      {"computations", computations},
                      {problem.collective() == ss::Collective::REDUCE ? "trees" : "routes", trees}};
  put_q(j, "period", s.period);
  put_q(j, "throughput", s.throughput());
  put_q(j, "operations_per_period", s.operations_per_period);
  return j;
}

nlohmann::json emulation_json(const ss::ScheduleEmulation& e) {
  nlohmann::json j = {{"startup_periods", e.plan.startup_periods},
          {"messages", e.run.counters.messages},
          {"values_verified", e.report.verified},
          {"verified", e.verified()},
          {"failure", e.failure()}};
  put_q(j, "horizon", e.plan.horizon);
  put_q(j, "bound", e.plan.bound);
  put_q(j, "ratio", e.ratio);
  put_z(j, "completed", e.report.completed);
  put_z(j, "proposition1", e.guaranteed);
  put_z(j, "predicted", e.plan.completed);
  put_z(j, "repetitions", e.plan.repetitions);
  return j;
}

nlohmann::json report_json(const ss::SteadyStateProblem& problem, const ss::SteadyStatePlanner& planner,
                           const std::string& topology, bool certified, const Emulations& emulations) {
  const auto& lp = planner.solver().linear_program();
  nlohmann::json j = schedule_json(problem, planner.schedule());
  j["collective"] = ss::to_string(problem.collective());
  j["topology"] = topology;
  j["problem"] = problem.describe();
  j["status"] = ss::to_string(planner.status());
  put_q(j, "throughput", planner.throughput());
  put_q(j, "lp_period", planner.solver().period());
  j["certified"] = certified;
  j["lp"] = {{"rows", lp.num_constraints()},
             {"columns", lp.num_variables()},
             {"exact_simplex", planner.solver().lp_solver().used_exact_simplex()}};
  if (const auto& fixed = planner.fixed_schedule()) {
    nlohmann::json f = schedule_json(problem, *fixed);
    put_q(f, "loss_bound", mpq_class(mpq_class(static_cast<long>(planner.trees().size())) / fixed->period));
    if (emulations.fixed) f["emulated"] = emulation_json(emulations.fixed->result());
    j["fixed_period"] = f;
  }
  if (emulations.optimal) j["emulated"] = emulation_json(emulations.optimal->result());
  j["verified"] = certified && emulations.verified();
  return j;
}

std::string emulation_text(const char* what, const ss::ScheduleEmulation& e) {
  std::string out = fmt::format(
      "emulated {} for K = {}: {} operations completed, bound TP·K = {}, ratio {} ({:.4f}); Proposition 1 "
      "guarantees {}\n",
      what, e.plan.horizon.get_str(), e.report.completed.get_str(), e.plan.bound.get_str(), e.ratio.get_str(),
      e.ratio.get_d(), e.guaranteed.get_str());
  out += e.verified() ? fmt::format("  {} results verified, one port respected\n", e.report.verified)
                      : fmt::format("  NOT verified: {}\n", e.failure());
  return out;
}

std::string report_text(const ss::SteadyStateProblem& problem, const ss::SteadyStatePlanner& planner,
                        const ss::CertificateCheck& check, const Emulations& emulations) {
  const auto& s = planner.schedule();
  const char* trees = problem.collective() == ss::Collective::REDUCE ? "trees" : "routes";
  std::string out = fmt::format("{}\n", problem.describe());
  out += fmt::format("throughput {} per time unit ({})\n", planner.throughput().get_str(),
                     check ? "certified optimal in exact arithmetic" : "NOT certified: " + check.failure);
  out += fmt::format("period {}: {} operations, {} matching(s), {} {}, start-up {} period(s)\n", s.period.get_str(),
                     s.operations_per_period.get_str(), s.matchings.size(), s.trees.size(), trees, s.startup_periods);
  if (const auto& fixed = planner.fixed_schedule()) {
    out += fmt::format("fixed period {}: throughput {} ({} operations, {} matching(s); loss at most {} {} / {})\n",
                       fixed->period.get_str(), fixed->throughput().get_str(), fixed->operations_per_period.get_str(),
                       fixed->matchings.size(), planner.trees().size(), trees, fixed->period.get_str());
  }
  if (emulations.optimal) out += emulation_text("schedule", emulations.optimal->result());
  if (emulations.fixed) out += emulation_text("fixed-period schedule", emulations.fixed->result());
  return out;
}

/// parse options → plan → self-check → emulate → report. Exit 1 when an exact check or the
/// emulation fails.
int run_steady(ss::Collective collective, const SteadyOptions& o) {
  const auto period = parse_period(o.period);
  const auto horizon = parse_horizon(o);
  const auto platform = std::make_unique<const topology::Platform>(topology::make_platform(o.topology));
  const ss::SteadyStateProblem problem =
      collective == ss::Collective::SCATTER ? ss::SteadyStateProblem::scatter(*platform, o.source, split_names(o.targets))
      : collective == ss::Collective::GOSSIP
          ? ss::SteadyStateProblem::gossip(*platform, split_names(o.sources), split_names(o.targets))
          : ss::SteadyStateProblem::reduce(*platform, split_names(o.participants), o.target, parse_costs(o));
  ss::SteadyStatePlanner planner(problem);
  planner.whole_messages(o.whole_messages).fixed_period(period).iteration_limit(o.iteration_limit);
  if (const auto status = planner.run(); status != ss::Status::OPTIMAL) {
    throw SolverError(fmt::format("{}: the linear program is {} (expected OPTIMAL; the problem always has the "
                                  "feasible solution 0 and a bounded throughput)",
                                  problem.describe(), ss::to_string(status)));
  }
  const ss::CertificateCheck check = planner.verify();
  Emulations emulations;
  if (horizon) {
    auto& emulator = emulations.optimal.emplace(problem, planner.schedule());
    emulator.optimal_throughput(planner.throughput()).trace(!o.gantt.empty() || o.trace.wanted());
    if (!o.gantt.empty()) require_gantt_rows(emulator.topology());
    const auto& e = emulator.run(*horizon);
    if (!o.gantt.empty()) {
      GanttOptions chart;
      chart.title = fmt::format("{}: {} periods of {}, K = {}", problem.describe(), e.plan.whole_periods.get_str(),
                                planner.schedule().period.get_str(), horizon->get_str());
      write_file_atomically(o.gantt, gantt_svg(e.run.trace, emulator.topology(), chart));
    }
    o.trace.write(e.run.trace, emulator.topology());
    if (const auto& fixed = planner.fixed_schedule()) {
      emulations.fixed.emplace(problem, *fixed).optimal_throughput(planner.throughput()).run(*horizon);
    }
  }
  if (o.json) {
    print_json(report_json(problem, planner, o.topology, static_cast<bool>(check), emulations));
  } else {
    std::cout << report_text(problem, planner, check, emulations);
  }
  return check && emulations.verified() ? 0 : 1;
}

void add_common_options(CLI::App& cmd, SteadyOptions& o) {
  cmd.add_option("--topology", o.topology,
                 "Weighted platform: a .dot/.graphml file (cost, speed, role attributes) or a family spec such as "
                 "tiers:SEED")
      ->required();
  cmd.add_option("--period", o.period,
                 "Also build the fixed-period approximation (Section 4.6) for this period P > 0 (e.g. 10 or 7/2)");
  cmd.add_option("--iteration-limit", o.iteration_limit,
                 "Give up (exit 3) when GLPK's simplex needs more iterations than this (0: no limit)")
      ->capture_default_str()
      ->check(integer_in(0, std::numeric_limits<int>::max()));
  cmd.add_flag("--whole-messages", o.whole_messages,
               "Multiply the optimal schedule's period so that no message is split across matchings (the paper's "
               "second lcm); the --period schedule keeps its period");
  cmd.add_option("--emulate", o.emulate,
                 "Run the schedule on the emulator (timed, strict single-port) for K time units, e.g. 1000 or 7/2: "
                 "start-up, steady state and clean-up; count the operations completed, every result verified, "
                 "against TP·K (Lemma 1) and Proposition 1's guarantee. With --period, the fixed-period schedule too");
  cmd.add_option("--gantt", o.gantt,
                 "Draw the emulated run of the schedule as a Gantt chart, SVG (needs --emulate; docs/viz.md)")
      ->check(output_file({".svg"}));
  o.trace.add_to(cmd, "every event of the emulated run of the schedule (needs --emulate)");
  cmd.add_flag("--json", o.json,
               "Print one JSON document: throughput, period, certified, matchings [{weight, transfers}], "
               "trees/routes [{weight, tasks}], computations, fixed_period, and with --emulate: emulated {horizon, "
               "completed, bound, ratio, proposition1, verified, ...}");
}

}  // namespace

void add_steady_command(CLI::App& app, Action& action) {
  static SteadyOptions o;
  auto* steady = app.add_subcommand(
      "steady",
      "Steady-state series of collectives (Legrand, Marchal, Robert 2004): the optimal throughput TP as an exact "
      "fraction, certified by an LP dual, and a periodic schedule of one-port matchings achieving it. Exit 1 if "
      "a certificate check fails, 3 if the LP solver fails.");
  steady->require_subcommand(0, 1);  // none: main() names the choices

  auto* scatter = steady->add_subcommand("scatter", "Series of scatters: SOURCE sends a distinct message to each target");
  add_common_options(*scatter, o);
  scatter->add_option("--source", o.source, "Source processor")->required();
  scatter->add_option("--targets", o.targets, "Target processors, comma-separated (A,B,C)")->required();
  scatter->callback([&action] { action = [] { return run_steady(ss::Collective::SCATTER, o); }; });

  auto* gossip = steady->add_subcommand(
      "gossip", "Series of personalised all-to-alls: every source sends a distinct message to every other target");
  add_common_options(*gossip, o);
  gossip->add_option("--sources", o.sources, "Source processors, comma-separated")->required();
  gossip->add_option("--targets", o.targets, "Target processors, comma-separated")->required();
  gossip->callback([&action] { action = [] { return run_steady(ss::Collective::GOSSIP, o); }; });

  auto* reduce = steady->add_subcommand(
      "reduce", "Series of reduces v_0 ⊕ … ⊕ v_N (⊕ associative, non-commutative) to one target processor");
  add_common_options(*reduce, o);
  reduce->add_option("--participants", o.participants,
                     "Processors holding v_0, v_1, … in this order (the order of ⊕), comma-separated")
      ->required();
  reduce->add_option("--target", o.target, "Processor that receives v_0 ⊕ … ⊕ v_N")->required();
  reduce->add_option("--message-size", o.message_size, "Size of every partial result v[k,m], in unit messages")
      ->capture_default_str();
  reduce->add_option("--task-work", o.task_work,
                     "Work of every task T[k,l,m]; it takes work/speed on a processor")
      ->capture_default_str();
  reduce->callback([&action] { action = [] { return run_steady(ss::Collective::REDUCE, o); }; });
}

}  // namespace starnet::tools
