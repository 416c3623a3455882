// `starnet reduce`: the reduction trees of Canon and Antoniu (RR-7898, 2012) — plan, self-check,
// report — and the Figure 2 study of their approximation ratios.
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "plot.hpp"
#include "run_pictures.hpp"

#include <starnet/api/figures.hpp>
#include <starnet/api/reduce.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/core.hpp>

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

struct ReduceOptions {
  std::string algo;
  int n = 0;
  std::string d;
  std::string c;
  int k = 0;
  bool has_n = false;
  bool has_k = false;
  std::string op = std::string(api::to_string(api::ReduceOp::SUM));
  bool json = false;
  std::string study;
  int max_n = api::DEFAULT_FIGURE2_MAX_N;
  std::string csv;
  std::string plot;
  RunPictures pictures;  // --gantt, --swimlane
  TraceOutput trace;
};

void print_plan(const api::ReduceResult& r) {
  const trees::ReductionPlan& plan = r.plan;
  const auto& o = r.request;
  fmt::print("{}: n = {}, d = {}, c = {}{}: length {} (Lemma 5: >= {}, Proposition 6: <= {}{})\n", plan.algorithm,
             plan.n(), plan.model.d().to_string(), plan.model.c().to_string(), o.k ? fmt::format(", K = {}", *o.k) : "",
             plan.length.to_string(), r.lower_bound.to_string(), r.upper_bound.to_string(),
             r.limited_upper_bound ? fmt::format(", Proposition 8: <= {}", r.limited_upper_bound->to_string()) : "");
  fmt::print("plan {}: {}, {}, at most {} transfers at once; {} {} v0..v{} in order\n",
             r.check.valid ? "valid" : "INVALID", plural(plan.transfers.size(), "transfer", "transfers"),
             plural(r.check.reducers, "reducer", "reducers"),
             r.check.max_concurrent_transfers, api::to_string(o.op), r.in_order ? "combines" : "does NOT combine",
             plan.n() - 1);
  fmt::print("emulated (single-port half-duplex, strict): length {}{}, {}; the root {} v0 {} ... {} v{}\n",
             r.run.makespan.to_string(),
             r.run.makespan == plan.length ? " = predicted" : " != predicted " + plan.length.to_string(),
             plural(r.run.counters.messages, "message", "messages"), r.root_right ? "holds" : "does NOT hold",
             o.op == api::ReduceOp::SUM ? "+" : "++", o.op == api::ReduceOp::SUM ? "+" : "++", plan.n() - 1);
  fmt::print("{}\n", r.verified() ? "verified" : "NOT VERIFIED");
}

int run_plan(const ReduceOptions& o) {
  if (o.algo.empty() || !o.has_n || o.d.empty() || o.c.empty()) {
    throw UsageError("--algorithm needs --n, --d and --c (e.g. starnet reduce --algorithm greedy --n 10 --d 1 --c 1)");
  }
  if (o.n > 0) o.pictures.require(static_cast<std::uint64_t>(o.n), fmt::format("complete:{}", o.n));
  api::ReduceRequest request;
  request.algorithm = api::parse_algorithm(o.algo);
  request.n = o.n;
  request.d = api::parse_number(o.d, "d");
  request.c = api::parse_number(o.c, "c");
  if (o.has_k) request.k = o.k;
  request.op = api::parse_reduce_op(o.op);
  request.trace = o.pictures.wanted() || o.trace.wanted();
  const api::ReduceResult r = api::plan_reduction(request);
  o.pictures.write(r.run.trace, *r.machines, r.run_title());
  o.trace.write(r.run.trace, *r.machines);
  if (o.json) {
    print_json(r.to_json(), -1);
  } else {
    print_plan(r);
  }
  if (!r.verified()) {
    fmt::print(stderr, "starnet reduce: verification failed: {}\n", r.problem());
    return 1;
  }
  return 0;
}

/// Draws Figure 2 (api::reduce_figure) into @p plot, its script beside it (tools/plot.hpp).
void draw_figure2(const api::Figure2Result& study, const std::string& plot) {
  const auto table = api::reduce_figure(study);
  const std::string script =
      gnuplot_terminal(plot, 900, 540) +
      fmt::format("set title \"{}\"\n"
                  "set xlabel \"number of elements n\"\n"
                  "set ylabel \"ratio to the optimum\"\n"
                  "set logscale x\n"
                  "set xrange [2:{}]\n"
                  "set yrange [0.95:2.05]\n"
                  "set key bottom right\n"
                  "set grid\n",
                  table.title, study.max_n) +
      fmt::format("plot ${0} using 1:2 with lines lw 1.5 title \"binomial strategy, d = c\", \\\n"
                  "     ${0} using 1:3 with lines lw 1.5 title \"Fibonacci strategy, min(d, c) = 0\", \\\n"
                  "     2 with lines dt 2 lc rgb 'gray40' title \"bound of Theorems 18 and 19\"\n",
                  table.name);
  draw_gnuplot(plot,
               fmt::format("Figure 2 of Canon & Antoniu (RR-7898, 2012), from `starnet reduce --study figure2 --max-n {}`.",
                           study.max_n),
               script, {datablock(table)});
}

int run_study(const ReduceOptions& o) {
  if (o.study != "figure2") throw UsageError(fmt::format("--study \"{}\" is unknown (expected figure2)", o.study));
  if (!o.algo.empty() || o.has_n || !o.d.empty() || !o.c.empty() || o.has_k || o.trace.wanted() || o.pictures.wanted()) {
    throw UsageError(
        "--study takes --max-n, --csv, --plot and --json only (not --algorithm, --n, --d, --c, --k, --gantt, "
        "--swimlane or --trace)");
  }
  const auto r = api::reduce_figure2(o.max_n);
  if (!o.csv.empty()) write_file_atomically(o.csv, r.csv());
  if (!o.plot.empty()) draw_figure2(r, o.plot);
  if (o.json) {
    auto out = r.to_json();
    if (!o.csv.empty()) out["csv"] = o.csv;
    if (!o.plot.empty()) out["plot"] = o.plot;
    print_json(std::move(out), -1);
  } else {
    fmt::print("Figure 2, 2 <= n <= {}: ratio to the optimal length\n", o.max_n);
    fmt::print("binomial strategy, d = c:          max {} ~ {:.4f} at n = {}\n", r.binomial_max.to_string(),
               r.binomial_max.to_double(), r.binomial_at);
    fmt::print("Fibonacci strategy, min(d, c) = 0: max {} ~ {:.4f} at n = {}\n", r.fibonacci_max.to_string(),
               r.fibonacci_max.to_double(), r.fibonacci_at);
    if (!o.csv.empty()) fmt::print("csv: {}\n", o.csv);
    if (!o.plot.empty()) fmt::print("plot: {} (script {}.gp)\n", o.plot, o.plot.substr(0, o.plot.size() - 4));
  }
  if (!r.verified) {
    fmt::print(stderr, "starnet reduce: verification failed: a ratio lies outside [1, 2] (Theorems 18 and 19)\n");
    return 1;
  }
  return 0;
}

}  // namespace

void declare_reduce_command(CLI::App& cmd, Action& action) {
  static ReduceOptions o;
  const api::ReduceRequest defaults;  // the library's: what an option left out means
  cmd.add_option("--algorithm,--algo", o.algo, fmt::format(
                 "Algorithm (default {}): greedy (Alg. 1, optimal), greedy-transfers (Alg. 2, at most K transfers\n"
                 "at once), greedy-reducers (Alg. 3, at most K reducers), binomial (n = 2^k), fibonacci (n = F(k+2)),\n"
                 "binomial-strategy, fibonacci-strategy (Section 7.3)", api::to_string(defaults.algorithm)));
  auto* n = cmd.add_option("--n", o.n, fmt::format("Number of elements, one per machine, 1..{} (default {})",
                                                   api::MAX_REDUCE_ELEMENTS, defaults.n));
  cmd.add_option("--d", o.d, fmt::format("Transfer cost d >= 0: an integer, fraction (3/2) or decimal (0.5) (default {})",
                                         defaults.d.to_string()));
  cmd.add_option("--c", o.c, fmt::format("Computation cost c >= 0: an integer, fraction or decimal (default {})",
                                         defaults.c.to_string()));
  auto* k = cmd.add_option("--k", o.k,
                           "Limit K: concurrent transfers for greedy-transfers (1..floor(n/2)), reducers for\n"
                           "greedy-reducers (1..n-1)");
  cmd.add_option("--op", o.op, "Operator of the self-check: sum (default) or concat (not commutative)")
      ->check(CLI::IsMember({"sum", "concat"}));
  cmd.add_flag("--json", o.json,
               "Print one JSON document. Plans: algo, n, d, c, [k], op, length, lower_bound, upper_bound,\n"
               "[limited_upper_bound], root, parents (root -1), children (reception order), transfers\n"
               "[{from, to, start}], reducers, max_concurrent_transfers, plan_valid, combined_in_order;\n"
               "times are numbers, with an exact KEY_exact fraction such as \"7/2\" when not integers (docs/json.md)");
  auto* study = cmd.add_option("--study", o.study, "Run a study instead of one plan: figure2");
  cmd.add_option("--max-n", o.max_n, fmt::format("Figure 2 study: largest n (default {})", api::DEFAULT_FIGURE2_MAX_N))->needs(study);
  o.pictures.add_to(cmd, "the emulated run");
  o.trace.add_to(cmd, "every event of the emulated plan");
  cmd.add_option("--csv", o.csv, "Figure 2 study: write the exact lengths and ratios for every n as CSV")
      ->check(output_file())
      ->needs(study);
  cmd.add_option("--plot", o.plot,
                 "Figure 2 study: draw the ratios with gnuplot into FILE.svg or FILE.png (the script is\n"
                 "kept as FILE.gp)")
      ->check(output_file({".svg", ".png"}))
      ->needs(study);
  cmd.callback([&action, n, k] {
    o.has_n = n->count() > 0;
    o.has_k = k->count() > 0;
    action = [] {
      if (!o.study.empty()) return run_study(o);
      return run_plan(o);
    };
  });
}

}  // namespace starnet::tools
