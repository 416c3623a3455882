// `starnet reduce`: the reduction trees of Canon and Antoniu (RR-7898, 2012) — plan, self-check,
// report — and the Figure 2 study of their approximation ratios.
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "gantt.hpp"
#include "plot.hpp"

#include <starnet/algorithms/trees/figure2_study.hpp>
#include <starnet/algorithms/trees/plan_program.hpp>
#include <starnet/algorithms/trees/greedy_trees.hpp>
#include <starnet/algorithms/trees/plan_validator.hpp>
#include <starnet/algorithms/trees/tree_bounds.hpp>
#include <starnet/algorithms/trees/tree_planner.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/core/error.hpp>
#include <starnet/core/rational.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

namespace starnet::tools {
namespace {

namespace trees = algorithms::trees;

// Plans are kept in memory whole (about 100 bytes per machine) and printed with --json.
constexpr int MAX_ELEMENTS = 10'000'000;

struct ReduceOptions {
  std::string algo;
  int n = 0;
  std::string d;
  std::string c;
  int k = 0;
  bool has_n = false;
  bool has_k = false;
  std::string op = "sum";
  bool json = false;
  std::string study;
  int max_n = 10'000;
  std::string csv;
  std::string plot;
  std::string gantt;
  TraceOutput trace;
};

// Concatenated values grow with n: keep the non-commutative check to sizes it stays cheap at.
constexpr int MAX_CONCAT_ELEMENTS = 20'000;

/// Whether folding the plan with @p op gives v_0 ⊕ … ⊕ v_(n−1) computed sequentially.
bool combines_in_order(const trees::ReductionPlan& plan, const trees::Operator& op) {
  std::vector<std::string> values(static_cast<std::size_t>(plan.n()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = op.initial(i);
  const auto folded = trees::combine(plan, std::move(values),
                                     [&](const std::string& a, const std::string& b) { return op.combine(a, b); });
  return folded == op.sequential(static_cast<std::uint64_t>(plan.n()));
}

/// The plan run on the emulator at its planned times: strict single-port half-duplex checking
/// (one transfer at a time, sending or receiving), exact time, transfers d, reductions c.
struct Emulation {
  emulator::RunResult<Rational> run;
  trees::PlanRunReport report;
  bool root_right = false;
  std::string root_shown;  ///< the root's final value, readable
};

Emulation emulate(const trees::ReductionPlan& plan, const trees::Operator& op, bool trace) {
  const topology::CompleteGraph machines(static_cast<emulator::NodeId>(plan.n()));
  const emulator::UniformCosts<Rational> costs(plan.model.d(), plan.model.c());
  emulator::RunConfig config;
  config.ports.half_duplex = true;
  config.checking = emulator::Checking::STRICT;
  config.time = emulator::TimeMode::TIMED;
  config.trace = trace;
  Emulation e;
  e.run = emulator::LocalEngine<Rational>().run(
      machines, costs,
      [&](emulator::NodeRange r) {
        return trees::make_plan_program(plan, op, trees::Timing::AT_PLANNED_TIMES, r);
      },
      config);
  e.report = trees::PlanRunReport::merge(e.run.reports);
  e.root_right = e.report.root_done && e.report.root_value == op.sequential(static_cast<std::uint64_t>(plan.n()));
  e.root_shown = e.report.root_done ? op.show(e.report.root_value) : "";
  return e;
}

/// What planning and checking produced; an emulation result joins it when plans run on the emulator.
struct PlanOutcome {
  trees::ReductionPlan plan;
  trees::PlanCheck check;
  bool in_order = false;
  Emulation emulated;
  [[nodiscard]] bool emulated_as_planned() const {
    return emulated.run.makespan == plan.length && emulated.report.late == 0 && emulated.root_right;
  }
  [[nodiscard]] bool verified() const { return check.valid && in_order && emulated_as_planned(); }
  Rational lower_bound;
  Rational upper_bound;
  std::optional<Rational> limited_upper_bound;
};

nlohmann::ordered_json plan_json(const ReduceOptions& o, const PlanOutcome& r) {
  const trees::ReductionPlan& plan = r.plan;
  nlohmann::ordered_json transfers = nlohmann::ordered_json::array();
  for (const trees::Transfer& t : plan.transfers) {
    nlohmann::ordered_json transfer = {{"from", t.from}, {"to", t.to}};
    put_exact(transfer, "start", t.start);
    transfers.push_back(std::move(transfer));
  }
  nlohmann::ordered_json out = {{"algo", plan.algorithm}, {"n", plan.n()}};
  put_exact(out, "d", plan.model.d());
  put_exact(out, "c", plan.model.c());
  if (o.has_k) out["k"] = o.k;
  out["op"] = o.op;
  put_exact(out, "length", plan.length);
  put_exact(out, "lower_bound", r.lower_bound);
  put_exact(out, "upper_bound", r.upper_bound);
  if (r.limited_upper_bound) put_exact(out, "limited_upper_bound", *r.limited_upper_bound);
  out["root"] = plan.root;
  out["parents"] = plan.parent;
  out["children"] = plan.children;
  out["transfers"] = std::move(transfers);
  out["reducers"] = r.check.reducers;
  out["max_concurrent_transfers"] = r.check.max_concurrent_transfers;
  out["plan_valid"] = r.check.valid;
  out["combined_in_order"] = r.in_order;
  put_exact(out, "emulated_length", r.emulated.run.makespan);
  out["emulated_messages"] = r.emulated.run.counters.messages;
  out["emulated_root_value"] = r.emulated.root_shown;
  out["verified"] = r.verified();
  return out;
}

void print_plan(const ReduceOptions& o, const PlanOutcome& r) {
  const trees::ReductionPlan& plan = r.plan;
  fmt::print("{}: n = {}, d = {}, c = {}{}: length {} (Lemma 5: >= {}, Proposition 6: <= {}{})\n", plan.algorithm,
             plan.n(), plan.model.d().to_string(), plan.model.c().to_string(), o.has_k ? fmt::format(", K = {}", o.k) : "",
             plan.length.to_string(), r.lower_bound.to_string(), r.upper_bound.to_string(),
             r.limited_upper_bound ? fmt::format(", Proposition 8: <= {}", r.limited_upper_bound->to_string()) : "");
  fmt::print("plan {}: {} transfers, {} reducers, at most {} transfers at once; {} {} v0..v{} in order\n",
             r.check.valid ? "valid" : "INVALID", plan.transfers.size(), r.check.reducers,
             r.check.max_concurrent_transfers, o.op, r.in_order ? "combines" : "does NOT combine", plan.n() - 1);
  fmt::print("emulated (single-port half-duplex, strict): length {}{}, {} messages; the root {} v0 {} ... {} v{}\n",
             r.emulated.run.makespan.to_string(),
             r.emulated.run.makespan == plan.length ? " = predicted" : " != predicted " + plan.length.to_string(),
             r.emulated.run.counters.messages, r.emulated.root_right ? "holds" : "does NOT hold", o.op == "sum" ? "+" : "++",
             o.op == "sum" ? "+" : "++", plan.n() - 1);
  fmt::print("{}\n", r.verified() ? "verified" : "NOT VERIFIED");
}

int run_plan(const ReduceOptions& o) {
  if (o.algo.empty() || !o.has_n || o.d.empty() || o.c.empty()) {
    throw UsageError("--algo needs --n, --d and --c (e.g. starnet reduce --algo greedy --n 10 --d 1 --c 1)");
  }
  if (o.n < 1 || o.n > MAX_ELEMENTS) {
    throw UsageError(fmt::format("--n {}: expected n >= 1 and at most {} elements (the plan is kept in memory)", o.n,
                                 MAX_ELEMENTS));
  }
  if (o.has_k && o.k < 1) throw UsageError(fmt::format("--k {}: expected K >= 1", o.k));
  const auto op = trees::make_operator(o.op, "--op");
  if (!op->commutative() && o.n > MAX_CONCAT_ELEMENTS) {
    throw UsageError(fmt::format("--op {} with --n {}: at most {} elements (values grow with n; use --op sum)", o.op,
                                 o.n, MAX_CONCAT_ELEMENTS));
  }
  if (!o.gantt.empty()) {
    require_gantt_rows(topology::CompleteGraph(static_cast<emulator::NodeId>(o.n)));
  }
  trees::PlanRequest request;
  request.algorithm = trees::parse_algorithm(o.algo);
  request.n = o.n;
  const auto cost = [](const std::string& text, const char* option, const char* what) {
    const Rational value = Rational::parse(text, option);
    if (value < 0) throw UsageError(fmt::format("{} {}: expected a {} >= 0", option, text, what));
    return value;
  };
  request.model = trees::CostModel(cost(o.d, "--d", "transfer cost"), cost(o.c, "--c", "computation cost"));
  if (o.has_k) request.k = o.k;

  PlanOutcome r;
  try {
    r.plan = trees::make_plan(request);
    // Self-check: the plan against the model, and the order in which it combines the elements.
    r.check = trees::check_plan(r.plan);
    r.in_order = r.check.valid && combines_in_order(r.plan, *op);
    r.emulated = emulate(r.plan, *op, !o.gantt.empty() || o.trace.wanted());
  } catch (const OverflowError& e) {
    throw OverflowError(fmt::format("--n {} --d {} --c {}: {} (exact times are kept or refused, never rounded)", o.n,
                                    o.d, o.c, e.what()));
  }
  const topology::CompleteGraph machines(static_cast<emulator::NodeId>(o.n));
  if (!o.gantt.empty()) write_file_atomically(o.gantt, gantt_svg(r.emulated.run.trace, machines));
  o.trace.write(r.emulated.run.trace, machines);
  r.lower_bound = trees::optimal_length_lower_bound(o.n, request.model);
  r.upper_bound = trees::optimal_length_upper_bound(o.n, request.model);
  if (o.has_k && o.k <= trees::max_concurrent_transfers_limit(o.n)) {
    r.limited_upper_bound = trees::limited_length_upper_bound(o.n, o.k, request.model);
  }

  if (o.json) {
    print_json(plan_json(o, r), -1);
  } else {
    print_plan(o, r);
  }
  if (!r.check.valid) {
    fmt::print(stderr, "starnet reduce: verification failed: {}\n", r.check.problem);
    return 1;
  }
  if (!r.in_order) {
    fmt::print(stderr, "starnet reduce: verification failed: the plan does not combine v0..v{} in order\n", o.n - 1);
    return 1;
  }
  if (!r.emulated_as_planned()) {
    fmt::print(stderr,
               "starnet reduce: verification failed: the emulated run took {} (predicted {}), {} machine(s) late, root "
               "value {}\n",
               r.emulated.run.makespan.to_string(), r.plan.length.to_string(), r.emulated.report.late,
               r.emulated.root_right ? "right" : "wrong");
    return 1;
  }
  return 0;
}

/// Draws Figure 2 into @p plot, its script beside it (tools/plot.hpp).
void draw_figure2(const std::vector<trees::Figure2Row>& rows, const std::string& plot, int max_n) {
  std::string ratios = "# n, binomial strategy (d = c), Fibonacci strategy (min(d, c) = 0): length / optimal length\n";
  for (const auto& row : rows) {
    ratios += fmt::format("{} {:.9f} {:.9f}\n", row.n, row.binomial_ratio().to_double(), row.fibonacci_ratio().to_double());
  }
  const std::string script =
      gnuplot_terminal(plot, 900, 540) +
      fmt::format("set title \"Strategy length / optimal length (Canon and Antoniu 2012, Figure 2)\"\n"
                  "set xlabel \"number of elements n\"\n"
                  "set ylabel \"ratio to the optimum\"\n"
                  "set logscale x\n"
                  "set xrange [2:{}]\n"
                  "set yrange [0.95:2.05]\n"
                  "set key bottom right\n"
                  "set grid\n",
                  max_n) +
      "plot $ratios using 1:2 with lines lw 1.5 title \"binomial strategy, d = c\", \\\n"
      "     $ratios using 1:3 with lines lw 1.5 title \"Fibonacci strategy, min(d, c) = 0\", \\\n"
      "     2 with lines dt 2 lc rgb 'gray40' title \"bound of Theorems 18 and 19\"\n";
  draw_gnuplot(plot,
               fmt::format("Figure 2 of Canon & Antoniu (RR-7898, 2012), from `starnet reduce --study figure2 --max-n {}`.",
                           max_n),
               script, {{"ratios", ratios}});
}

/// The largest ratio of a column and the first n reaching it.
struct Worst {
  Rational ratio = 0;
  int n = 0;
};

int run_study(const ReduceOptions& o) {
  if (o.study != "figure2") throw UsageError(fmt::format("--study \"{}\" is unknown (expected figure2)", o.study));
  if (!o.algo.empty() || o.has_n || !o.d.empty() || !o.c.empty() || o.has_k || o.trace.wanted() || !o.gantt.empty()) {
    throw UsageError(
        "--study takes --max-n, --csv, --plot and --json only (not --algo, --n, --d, --c, --k, --gantt or --trace)");
  }
  if (o.max_n > MAX_ELEMENTS) {
    throw UsageError(fmt::format("--max-n {}: at most {} elements", o.max_n, MAX_ELEMENTS));
  }
  const std::vector<trees::Figure2Row> rows = trees::figure2_study(o.max_n);
  Worst binomial;
  Worst fibonacci;
  bool within = true;  // Theorems 18 and 19: both ratios lie in [1, 2]
  for (const auto& row : rows) {
    const Rational b = row.binomial_ratio();
    const Rational f = row.fibonacci_ratio();
    within = within && b >= 1 && b <= 2 && f >= 1 && f <= 2;
    if (b > binomial.ratio) binomial = {b, row.n};
    if (f > fibonacci.ratio) fibonacci = {f, row.n};
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, trees::figure2_csv(rows));
  if (!o.plot.empty()) draw_figure2(rows, o.plot, o.max_n);

  if (o.json) {
    const auto worst = [](const Worst& w) {
      nlohmann::ordered_json j;
      put_exact(j, "max_ratio", w.ratio);
      j["at_n"] = w.n;
      return j;
    };
    nlohmann::ordered_json out = {{"study", "figure2"}, {"max_n", o.max_n}, {"binomial_strategy_d_eq_c", worst(binomial)},
                          {"fibonacci_strategy_min_zero", worst(fibonacci)}, {"within_theorems_18_19", within},
                          {"verified", within}};
    if (!o.csv.empty()) out["csv"] = o.csv;
    if (!o.plot.empty()) out["plot"] = o.plot;
    print_json(std::move(out), -1);
  } else {
    fmt::print("Figure 2, 2 <= n <= {}: ratio to the optimal length\n", o.max_n);
    fmt::print("binomial strategy, d = c:          max {} ~ {:.4f} at n = {}\n", binomial.ratio.to_string(),
               binomial.ratio.to_double(), binomial.n);
    fmt::print("Fibonacci strategy, min(d, c) = 0: max {} ~ {:.4f} at n = {}\n", fibonacci.ratio.to_string(),
               fibonacci.ratio.to_double(), fibonacci.n);
    if (!o.csv.empty()) fmt::print("csv: {}\n", o.csv);
    if (!o.plot.empty()) fmt::print("plot: {} (script {}.gp)\n", o.plot, o.plot.substr(0, o.plot.size() - 4));
  }
  if (!within) {
    fmt::print(stderr, "starnet reduce: verification failed: a ratio lies outside [1, 2] (Theorems 18 and 19)\n");
    return 1;
  }
  return 0;
}

}  // namespace

void add_reduce_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "reduce",
      "Reduction trees with transfers (cost d) overlapping computations (cost c), Canon and Antoniu\n"
      "(INRIA RR-7898, 2012): plan one reduction of n elements, check the plan against the model\n"
      "(one transfer at a time per machine, a transfer only once the sender's result is complete) and\n"
      "fold it with --op to check it combines v0 + v1 + ... + v(n-1) in order, then run it on the emulator\n"
      "(transfers at their planned times, strict single-port half-duplex): verified only if the emulated\n"
      "length equals the predicted length exactly and the root holds v0 + ... + v(n-1); or run the\n"
      "Figure 2 study.\n"
      "  starnet reduce --algo greedy --n 10 --d 3/2 --c 1 [--json]\n"
      "  starnet reduce --study figure2 [--max-n 10000] [--csv ratios.csv] [--plot ratios.svg]\n"
      "Exit codes: 0 success, 1 a check failed, 2 bad input.");
  static ReduceOptions o;
  cmd->add_option("--algo", o.algo,
                  "Algorithm: greedy (Alg. 1, optimal), greedy-transfers (Alg. 2, at most K transfers at once),\n"
                  "greedy-reducers (Alg. 3, at most K reducers), binomial (n = 2^k), fibonacci (n = F(k+2)),\n"
                  "binomial-strategy, fibonacci-strategy (Section 7.3)");
  auto* n = cmd->add_option("--n", o.n, fmt::format("Number of elements, one per machine, 1..{}", MAX_ELEMENTS));
  cmd->add_option("--d", o.d, "Transfer cost d >= 0: an integer, fraction (3/2) or decimal (0.5)");
  cmd->add_option("--c", o.c, "Computation cost c >= 0: an integer, fraction or decimal");
  auto* k = cmd->add_option("--k", o.k,
                            "Limit K: concurrent transfers for greedy-transfers (1..floor(n/2)), reducers for\n"
                            "greedy-reducers (1..n-1)");
  cmd->add_option("--op", o.op, "Operator of the self-check: sum (default) or concat (not commutative)");
  cmd->add_flag("--json", o.json,
                "Print one JSON document. Plans: algo, n, d, c, [k], op, length, lower_bound, upper_bound,\n"
                "[limited_upper_bound], root, parents (root -1), children (reception order), transfers\n"
                "[{from, to, start}], reducers, max_concurrent_transfers, plan_valid, combined_in_order;\n"
                "times are numbers, with an exact KEY_exact fraction such as \"7/2\" when not integers (docs/json.md)");
  auto* study = cmd->add_option("--study", o.study, "Run a study instead of one plan: figure2");
  cmd->add_option("--max-n", o.max_n, "Figure 2 study: largest n (default 10000)")->needs(study);
  cmd->add_option("--gantt", o.gantt,
                  "Write the emulated run as an SVG Gantt chart (one row per machine, at most 1000 machines)")
      ->check(output_file({".svg"}));
  o.trace.add_to(*cmd, "every event of the emulated plan");
  cmd->add_option("--csv", o.csv, "Figure 2 study: write the exact lengths and ratios for every n as CSV")
      ->check(output_file())
      ->needs(study);
  cmd->add_option("--plot", o.plot,
                  "Figure 2 study: draw the ratios with gnuplot into FILE.svg or FILE.png (the script is\n"
                  "kept as FILE.gp)")
      ->check(output_file({".svg", ".png"}))
      ->needs(study);
  cmd->callback([&action, n, k] {
    o.has_n = n->count() > 0;
    o.has_k = k->count() > 0;
    action = [] {
      if (!o.study.empty()) return run_study(o);
      return run_plan(o);
    };
  });
}

}  // namespace starnet::tools
