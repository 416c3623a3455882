// `starnet montecarlo`: the non-clairvoyant reductions of Benoit, Canon and Marchal (CCPE 2014) under
// random costs — one scenario, the studies of Figures 4–6 with the paper's statements checked on
// the data, and the worst-case instances of Section 4 (docs/montecarlo.md).
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "progress.hpp"
#include "plot.hpp"
#include "run_pictures.hpp"

#include <starnet/api/figures.hpp>
#include <starnet/api/montecarlo.hpp>
#include <starnet/api/settings.hpp>
#include <starnet/api/core.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>


namespace starnet::tools {
namespace {

namespace nc = algorithms::nonclairvoyant;
namespace st = algorithms::stochastic;
using json = nlohmann::ordered_json;

struct Options {
  // The scenario's settings and their defaults are the library's; --runs and --run are checked here,
  // --algos and --dist read by the library's parsers.
  api::MonteCarloRequest scenario;
  std::string algorithms;  // empty: the library's default (all four)
  std::string dist;        // empty: the library's default
  std::string fast_path;   // on | off, read by the library's parser
  std::int64_t runs = 0;  // 0: the default of the mode
  bool json = false;
  std::string csv;
  RunPictures pictures;  // --gantt, --swimlane: run --run
  std::int64_t run = 0;
  std::string study;
  std::string plot;
  int points = nc::DEFAULT_CV_POINTS;
  int ratio_points = nc::DEFAULT_COST_RATIO_POINTS;
  bool worst_case = false;
  TraceOutput trace;  // --trace: run --run of the single algorithm
  // Which options were given (CLI11 counts), to refuse combinations that make no sense.
  std::vector<std::string> given;
  [[nodiscard]] bool has(const std::string& flag) const {
    return std::find(given.begin(), given.end(), flag) != given.end();
  }
};


/// --runs, at least one.
std::uint64_t runs_given(const Options& o) {
  if (o.runs < 1) throw UsageError(fmt::format("--runs {}: at least one run is needed", o.runs));
  return static_cast<std::uint64_t>(o.runs);
}

void print_notes(const std::vector<nc::StudyNote>& notes) {
  fmt::print("The paper's statements, checked on these data:\n");
  for (const auto& n : notes) {
    fmt::print("  [{}] Figure {}: \"{}\"\n      {}\n", n.agrees ? "agrees " : "DIFFERS", n.figure, n.claim, n.finding);
  }
}

/// Fails with exit 1 (a verification failed) after the output, naming what failed.
int report_unverified(const std::vector<std::string>& failures) {
  for (const auto& f : failures) fmt::print(stderr, "starnet montecarlo: verification failed: {}\n", f);
  return failures.empty() ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------
// Plots (tools/plot.hpp runs gnuplot and keeps each script, data inline, beside its figure).

/// How an algorithm is drawn in every figure: Okabe–Ito colours, told apart without colour too.
struct CurveStyle {
  const char* colour;
  int dash;
  int point;
};

CurveStyle curve_style(nc::Algorithm a) {
  switch (a) {
    case nc::Algorithm::BINOMIAL_STAT: return {"#0072B2", 1, 7};
    case nc::Algorithm::FIBONACCI_STAT: return {"#D55E00", 2, 5};
    case nc::Algorithm::TREE_DYN: return {"#009E73", 3, 9};
    case nc::Algorithm::NONCOMMUT_TREE_DYN: return {"#CC79A7", 4, 13};
  }
  return {"black", 1, 1};
}

std::string about_study(const std::string& figure, const std::string& options) {
  return fmt::format("Figure {} of Benoit, Canon and Marchal (CCPE 2014), from\n`starnet montecarlo --study figure{} {}`"
                     " (docs/montecarlo.md).",
                     figure, figure, options);
}

const char* const LOG_CV_TICS = "set xtics (\"0.01\" -2, \"0.1\" -1, \"1\" 0, \"10\" 1)\n";
const char* const LOG_RATIO_TICS = "set ytics (\"0.1\" -1, \"0.2\" log10(0.2), \"0.5\" log10(0.5), \"1\" 0, "
                                   "\"2\" log10(2), \"5\" log10(5), \"10\" 1)\n";

/// A log axis' tics at 1, 2 and 5 times the powers of ten within [@p low, @p high] (gnuplot's own
/// would label the decades only); empty when none falls inside.
std::string log_tics(const char* axis, double low, double high) {
  std::string tics;
  for (auto e = static_cast<int>(std::floor(std::log10(low))); e <= static_cast<int>(std::ceil(std::log10(high))); ++e) {
    for (const double mantissa : {1.0, 2.0, 5.0}) {
      const double tic = mantissa * std::pow(10.0, e);
      if (tic >= low && tic <= high) tics += fmt::format("{}{:g}", tics.empty() ? "" : ", ", tic);
    }
  }
  return tics.empty() ? std::string() : fmt::format("set {}tics ({})\n", axis, tics);
}

/// `with image` on the grid of Figures 5 and 6: in SVG every cell its own rectangle (`pixels`),
/// since viewers smooth an embedded image when they scale it; pngcairo draws cells sharp itself.
std::string image_style(const std::string& plot) { return plot.ends_with(".svg") ? "with image pixels" : "with image"; }

/// Figure 4's bars of the four algorithms stand side by side around each CV, this far apart in
/// log10(CV) (7 CVs a decade are 0.14 apart).
constexpr double BAR_SPACING_LOG10 = 0.018;

/// (a) means and 10–90 % bars in log-log; (b) each mean over Tree-dyn's at the same CV, in linear
/// y, where the curves that (a) piles up above CV 1 come apart. One key for both, right of them.
void plot_figure4(const nc::Figure4Result& r, const api::FigureTable& table, const std::string& plot) {
  double low = 0;  // the y range of (a): the data, a little margin, no empty decades
  double high = 0;
  for (const auto& block : table.blocks) {
    for (const auto& row : block.rows) {
      for (const std::size_t column : {1, 2, 4}) {  // mean, q10, q90
        const double y = row[column];
        if (y > 0 && (low == 0 || y < low)) low = y;
        high = std::max(high, y);
      }
    }
  }
  std::string bars;
  std::string means;
  std::string relative;
  for (std::size_t a = 0; a < nc::ALL_ALGORITHMS.size(); ++a) {
    const auto style = curve_style(nc::ALL_ALGORITHMS[a]);
    const auto line = fmt::format("with linespoints lw 2 dt {} pt {} ps 0.8 lc rgb '{}'", style.dash, style.point,
                                  style.colour);
    bars += fmt::format("$figure4 index {0} using ($1*beside({0})):3:(0):($5-$3) with vectors nohead lw 1.5 lc rgb '{1}' "
                        "notitle, \\\n     ",
                        a, style.colour);
    means += fmt::format("{}$figure4 index {} using 1:2 {} title '{}'", means.empty() ? "" : ", \\\n     ", a, line,
                         nc::to_string(nc::ALL_ALGORITHMS[a]));
    relative += fmt::format("{}$figure4 index {} using 1:6 {} notitle", relative.empty() ? "" : ", \\\n     ", a, line);
  }
  const std::string script =
      gnuplot_terminal(plot, 960, 900) +
      fmt::format("set multiplot title \"{}\"\n", table.title) +
      "set lmargin at screen 0.09\nset rmargin at screen 0.74\n"
      "set logscale x\n" +
      fmt::format("set xrange [{:.9g}:{:.9g}]\n", r.points.front().cv / 1.1, r.points.back().cv * 1.1) +
      "set grid\nset key at screen 0.76, screen 0.86 left top Left reverse box spacing 1.3\n"
      "set tmargin at screen 0.90\nset bmargin at screen 0.42\nset format x ''\n"
      "set logscale y\n" +
      (low > 0 ? fmt::format("set yrange [{:.9g}:{:.9g}]\n", low / 1.25, high * 1.25) + log_tics("y", low / 1.25, high * 1.25)
               : std::string()) +
      "set ylabel 'schedule length'\n"
      "set title '(a) mean (points) and 10 % to 90 % quantiles (bars), log scale'\n" +
      fmt::format("beside(a) = 10**({}*(a - {:.1f}))\n", BAR_SPACING_LOG10, (nc::ALL_ALGORITHMS.size() - 1) / 2.0) +
      "plot " + bars + means + "\n" +
      "set tmargin at screen 0.38\nset bmargin at screen 0.08\n"
      "unset logscale y\nset yrange [*:*]\nset ytics autofreq\nset format x '%g'\n"
      "set xlabel 'coefficient of variation of the communication costs'\n"
      "set ylabel 'mean / mean(tree-dyn)'\nunset key\n"
      "set title '(b) mean over the mean of Tree-dyn at the same CV, linear scale'\n"
      "plot " + relative + "\n" +
      "unset multiplot\n";
  draw_gnuplot(plot,
               about_study("4", fmt::format("--n {} --runs {} --seed {} --points {}", r.n, r.runs, r.seed,
                                            r.points.size())),
               script, {datablock(table)});
}

const std::string HEATMAP_SETUP = std::string("set xlabel 'CV (communication and computation)'\n"
                                              "set ylabel 'mu_c / mu_d'\nset rmargin 12\n") +
                                  LOG_CV_TICS + LOG_RATIO_TICS + "set xrange [*:*] noextend\nset yrange [*:*] noextend\n";

/// Runs gnuplot on a grid figure's @p script with @p table as its datablock.
void draw_grid_figure(const nc::GridResult& r, const std::string& script, const api::FigureTable& table,
                      const std::string& plot) {
  draw_gnuplot(plot,
               about_study(table.name.substr(std::string_view("figure").size()),
                           fmt::format("--n {} --runs {} --seed {} --points {} --ratio-points {}", r.n, r.runs, r.seed,
                                       r.cvs.size(), r.cost_ratios.size())),
               script, {datablock(table)});
}

/// A heat map of a grid figure: column @p column of @p table, a cell per (CV, cost ratio), in log-log.
std::string heat_map(const api::FigureTable& table, int column, const std::string& plot) {
  return fmt::format("${} using (log10($1)):(log10($2)):{} {} notitle", table.name, column, image_style(plot));
}

/// Data column 3 = ratio, column 4 = the best method's code (api::FIGURE5B_METHODS). (b) is a
/// categorical map: a palette of flat steps, one per method, labelled in the colour box.
void plot_figure5(const nc::GridResult& r, const api::FigureTable& table, const std::string& plot) {
  std::string steps;
  std::string labels;
  for (std::size_t k = 0; k < api::FIGURE5B_METHODS.size(); ++k) {
    const char* colour = curve_style(api::FIGURE5B_METHODS[k]).colour;
    steps += fmt::format("{}{} '{}', {} '{}'", k == 0 ? "" : ", ", k, colour, k + 1, colour);
    labels += fmt::format("{}'{}' {}", k == 0 ? "" : ", ", table.categories[k], k);
  }
  const std::string script =
      gnuplot_terminal(plot, 1400, 620) +
      "set view map\nset contour base\nset cntrparam levels discrete 1\nunset surface\n"
      "set table $contour\nsplot $figure5 using (log10($1)):(log10($2)):3 with lines notitle\nunset table\n"
      "unset contour\nset surface\n" +
      HEATMAP_SETUP +
      fmt::format("set multiplot layout 1,2 title \"{}\"\n", table.title) +
      "set title '(a) mean(Fibonacci-stat)/mean(Tree-dyn), red line at 1'\n"
      "set palette defined (0 '#000000', 0.5 '#808080', 1 '#ffffff')\n"
      "plot " + heat_map(table, 3, plot) + ", $contour using 1:2 with lines lw 2 lc rgb '#d62728' notitle\n"
      "set title '(b) best method with a non-commutative operator'\n"
      "set rmargin 22\n" +
      fmt::format("set cbrange [-0.5:{}.5]\nset palette maxcolors {}\nset palette defined ({})\n"
                  "set cbtics ({}) scale 0\n",
                  api::FIGURE5B_METHODS.size() - 1, api::FIGURE5B_METHODS.size(), steps, labels) +
      "plot " + heat_map(table, 4, plot) + "\nunset multiplot\n";
  draw_grid_figure(r, script, table, plot);
}

void plot_figure6(const nc::GridResult& r, const api::FigureTable& table, const std::string& plot) {
  const std::string script =
      gnuplot_terminal(plot, 1400, 620) + HEATMAP_SETUP +
      fmt::format("set multiplot layout 1,2 title \"{}\"\n", table.title) +
      "set title '(a) dispersion of mean(Fibonacci-stat)/mean(Tree-dyn) across the laws'\n"
      "set cbrange [0:2]\nset palette defined (0 '#ffffff', 1 '#000000')\n"
      "plot " + heat_map(table, 3, plot) + "\n"
      "set title '(b) inconsistency ratio of the best method'\nset cbrange [0:0.6]\n"
      "plot " + heat_map(table, 4, plot) + "\nunset multiplot\n";
  draw_grid_figure(r, script, table, plot);
}

// ---------------------------------------------------------------------------------------------
// One scenario.

int run_scenario(const Options& o) {
  for (const auto* flag : {"--plot", "--points", "--ratio-points"}) {
    if (o.has(flag)) throw UsageError(fmt::format("{} belongs to --study", flag));
  }
  // --gantt, --swimlane and --trace all show run --run again, emulated with its events kept.
  const bool one_run = o.pictures.wanted() || o.trace.wanted();
  if (!one_run && o.has("--run")) {
    throw UsageError("--run chooses the run --gantt and --swimlane draw and --trace records: give --gantt FILE.svg, "
                     "--swimlane FILE.svg or --trace FILE");
  }
  if (one_run && o.scenario.n >= 1) {
    o.pictures.require(static_cast<std::uint64_t>(o.scenario.n), fmt::format("complete:{}", o.scenario.n));
  }
  api::MonteCarloRequest request = o.scenario;
  if (o.has("--algos")) request.algorithms = api::parse_montecarlo_algorithms(o.algorithms);
  if (o.has("--dist")) request.dist = api::parse_cost_law(o.dist);
  if (o.has("--runs")) request.runs = runs_given(o);
  if (o.has("--fast-path")) request.fast_path = api::parse_fast_path(o.fast_path);
  if (one_run) {
    if (o.run < 0) throw UsageError(fmt::format("--run {}: expected a run of this study, 0..runs − 1", o.run));
    request.run = static_cast<std::uint64_t>(o.run);
  }
  const auto r = api::run_montecarlo(request);
  if (r.run) {
    o.trace.write(r.run->trace, *r.run->machines);
    o.pictures.write(r.run->trace, *r.run->machines, r.run_title());
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, r.csv());
  const double simulations = static_cast<double>(r.runs * r.outcomes.size());
  if (o.json) {
    auto out = r.to_json();
    if (!o.pictures.gantt.empty()) out["gantt"] = {{"file", o.pictures.gantt}, {"run", o.run}, {"makespan", r.run->makespan}};
    if (!o.pictures.swimlane.empty()) {
      out["swimlane"] = {{"file", o.pictures.swimlane}, {"run", o.run}, {"makespan", r.run->makespan}};
    }
    print_json(std::move(out));
  } else {
    const auto& sc = r.request;
    fmt::print("Monte-Carlo: n = {}, {} costs with CV {}, mu_d = {}, mu_c = {}, {}, seed {}\n", sc.n, st::to_string(sc.dist), sc.cv,
               sc.mu_d, sc.mu_c, plural(r.runs, "run", "runs"), sc.seed);
    fmt::print("{:<20} {:>11} {:>11} {:>10} {:>11} {:>11} {:>11}  {}\n", "algorithm", "mean", "stddev", "sem", "q10",
               "q50", "q90", "verified");
    for (const auto& outcome : r.outcomes) {
      const auto& s = outcome.summary;
      fmt::print("{:<20} {:>11.6g} {:>11.6g} {:>10.3g} {:>11.6g} {:>11.6g} {:>11.6g}  {}/{}\n",
                 nc::to_string(outcome.algorithm), s.mean, s.stddev, s.sem, s.q10, s.q50, s.q90, outcome.verified,
                 r.runs);
    }
    if (!o.pictures.gantt.empty()) {
      fmt::print("Gantt chart of run {} written to {} (makespan {:.6g})\n", o.run, o.pictures.gantt, r.run->makespan);
    }
    if (!o.pictures.swimlane.empty()) {
      fmt::print("Space-time diagram of run {} written to {} (makespan {:.6g})\n", o.run, o.pictures.swimlane,
                 r.run->makespan);
    }
    fmt::print("{:.0f} simulations in {:.2f} s: {:.0f} simulations/s\n", simulations, r.wall_seconds,
               simulations / r.wall_seconds);
  }
  return report_unverified(r.failures);
}

// ---------------------------------------------------------------------------------------------
// Studies.

int run_study(const Options& o) {
  for (const auto* flag : {"--algos", "--dist", "--cv", "--mu-d", "--mu-c", "--gantt", "--swimlane", "--run", "--trace"}) {
    if (o.has(flag)) {
      throw UsageError(fmt::format("{} is fixed by --study {} (it takes --runs, --seed, --threads, --n, --points, "
                                   "--ratio-points, --fast-path, --csv, --plot, --json)",
                                   flag, o.study));
    }
  }
  if (o.study == "figure4" && o.has("--ratio-points")) throw UsageError("--ratio-points belongs to figure5 and figure6");
  api::MonteCarloStudyRequest request;
  request.study = o.study;
  request.n = o.scenario.n;
  if (o.has("--runs")) request.runs = runs_given(o);
  request.seed = o.scenario.seed;
  request.threads = o.scenario.threads;
  request.points = o.points;
  request.ratio_points = o.ratio_points;
  if (o.has("--fast-path")) request.fast_path = api::parse_fast_path(o.fast_path);
  const auto r = api::run_montecarlo_study(request);
  if (!o.csv.empty()) write_file_atomically(o.csv, r.csv());
  if (!o.plot.empty()) {
    const auto table = api::montecarlo_figure(r);
    if (const auto* f4 = std::get_if<nc::Figure4Result>(&r.data)) {
      plot_figure4(*f4, table, o.plot);
    } else if (o.study == "figure5") {
      plot_figure5(std::get<nc::GridResult>(r.data), table, o.plot);
    } else {
      plot_figure6(std::get<nc::GridResult>(r.data), table, o.plot);
    }
  }
  if (o.json) {
    print_json(r.to_json());
  } else if (const auto* f4 = std::get_if<nc::Figure4Result>(&r.data)) {
    fmt::print("Figure 4: n = {}, gamma costs, mu_d = 1, mu_c = 0, {} runs per CV, seed {}\n", f4->n, f4->runs, f4->seed);
    fmt::print("{:>9}", "CV");
    for (const auto a : nc::ALL_ALGORITHMS) fmt::print(" {:>19}", nc::to_string(a));
    fmt::print("\n");
    for (const auto& p : f4->points) {
      fmt::print("{:>9.4g}", p.cv);
      for (const auto& outcome : p.outcomes) fmt::print(" {:>19.6g}", outcome.summary.mean);
      fmt::print("\n");
    }
  } else {
    const auto& g = std::get<nc::GridResult>(r.data);
    fmt::print("{}: n = {}, {} law{}, {} CVs x {} values of mu_c/mu_d, {} runs per cell, seed {}; {} cells skipped "
               "(CV outside the law's range)\n",
               o.study == "figure5" ? "Figure 5" : "Figure 6", g.n, g.distributions.size(),
               g.distributions.size() == 1 ? "" : "s", g.cvs.size(), g.cost_ratios.size(), g.runs, g.seed, g.skipped());
  }
  if (!o.json) {
    print_notes(r.notes);
    fmt::print("{:.0f} simulations in {:.1f} s: {:.0f} simulations/s\n", r.simulations(), r.wall_seconds(),
               r.simulations() / r.wall_seconds());
  }
  return report_unverified(r.verified() ? std::vector<std::string>{}
                                        : std::vector<std::string>{"a run of the study gave a wrong result"});
}

// ---------------------------------------------------------------------------------------------
// Worst cases.

int run_worst_cases(const Options& o) {
  for (const auto& flag : o.given) {
    if (flag != "--worst-case" && flag != "--json" && flag != "--csv") {
      throw UsageError(fmt::format("{} does not apply to --worst-case (it takes --json and --csv)", flag));
    }
  }
  const auto r = api::montecarlo_worst_cases();
  if (!o.csv.empty()) write_file_atomically(o.csv, r.csv());
  if (o.json) {
    print_json(r.to_json());
    return report_unverified(r.failures);
  }
  fmt::print("Worst-case instances of Section 4 (Table I), emulated with exact costs\n");
  fmt::print("{:<22} {:<19} {:>5} {:>9} {:>7} {:>12} {:>9}  {}\n", "instance", "algorithm", "n", "makespan", "optimum",
             "ratio", "bound", "");
  for (const auto& row : r.rows) {
    const auto& out = row.outcome;
    // The ratio equals its bound up to the double's rounding: "= bound".
    constexpr double EQUAL = 1e-12;
    const double ratio = out.ratio.to_double();
    const std::string where = !row.within ? "ABOVE the proven bound"
                              : (out.bound_exact && std::abs(ratio - out.bound) <= EQUAL * out.bound) ? "= bound"
                                                                                                     : "< bound";
    fmt::print("{:<22} {:<19} {:>5} {:>9} {:>7} {:>12} {:>9.4f}  {}\n", row.instance.name, nc::to_string(out.algorithm),
               out.n, out.makespan.to_string(), out.optimum.to_string(), fmt::format("{:.4f}", ratio), out.bound, where);
  }
  return report_unverified(r.failures);
}

}  // namespace

void declare_montecarlo_command(CLI::App& cmd, Action& action) {
  static Options o;
  auto& sc = o.scenario;
  const api::MonteCarloRequest defaults;
  cmd.add_option("--algos", o.algorithms,
                 "Comma-separated algorithms: binomial-stat, fibonacci-stat, tree-dyn, noncommut-tree-dyn (default: all)");
  cmd.add_option("--n", sc.n, fmt::format("Number of processors (default {})", defaults.n));
  cmd.add_option("--dist", o.dist,
                 fmt::format("Cost law of Table II: bernoulli, beta0.01, beta1, beta100, binomial, exponential, gamma,\n"
                             "poisson, triangle, uniform (default {})",
                             st::to_string(defaults.dist)));
  cmd.add_option("--cv", sc.cv,
                 fmt::format("Coefficient of variation of both costs, within the law's range (default {})", defaults.cv))
      ->check(finite_number(0));
  cmd.add_option("--mu-d", sc.mu_d, fmt::format("Mean transfer time mu_d >= 0 (default {})", defaults.mu_d))
      ->check(finite_number(0));
  cmd.add_option("--mu-c", sc.mu_c,
                 fmt::format("Mean reduction time mu_c >= 0; 0: free computation (default {})", defaults.mu_c))
      ->check(finite_number(0));
  cmd.add_option("--runs", o.runs,
                 fmt::format("Monte-Carlo runs (default {}; figure4: {}; figure5/6: {} per cell)", api::DEFAULT_MONTECARLO_RUNS,
                             nc::FIGURE4_RUNS, nc::GRID_RUNS));
  cmd.add_option("--seed", sc.seed,
                 fmt::format("Seed: run r of algorithm a draws from Philox(seed, r, a) (default {})", defaults.seed))
      ->check(any_seed());
  cmd.add_option("--threads", sc.threads, fmt::format("Worker threads, 0..{} (default 0: all cores)", api::MAX_THREADS))
      ->check(integer_in(0, api::MAX_THREADS));
  cmd.add_option("--fast-path", o.fast_path,
                 "on | off: the runs on the fast path, the general engine's makespans bit for bit (default on),\n"
                 "or on the general engine (--run's run always takes it)");
  cmd.add_flag("--json", o.json,
               "Print one JSON document: per algorithm mean, stddev, sem, min, q10, q50, q90, max, runs, verified\n"
               "(studies: points or cells, and notes; --worst-case: one row per instance and algorithm)");
  cmd.add_option("--csv", o.csv, "Write the summary (study: the figure's data) as CSV to FILE")->check(output_file());
  o.pictures.add_to(cmd, "run --run of the (single) algorithm");
  cmd.add_option("--run", o.run, "The run --gantt and --swimlane draw and --trace records, 0..runs-1 (default 0)");
  cmd.add_option("--study", o.study, "figure4 | figure5 | figure6: reproduce a figure of Section 5");
  cmd.add_option("--plot", o.plot, "With --study: draw the figure with gnuplot into FILE.svg or FILE.png")->check(output_file({".svg", ".png"}));
  cmd.add_option("--points", o.points, fmt::format("With --study: CVs log-spaced over [0.01, 10] (default {})",
                                                   nc::DEFAULT_CV_POINTS));
  cmd.add_option("--ratio-points", o.ratio_points,
                 fmt::format("With --study figure5|figure6: values of mu_c/mu_d log-spaced over [0.1, 10] (default {})",
                             nc::DEFAULT_COST_RATIO_POINTS));
  cmd.add_flag("--worst-case", o.worst_case, "Run the worst-case instances of Section 4 and compare with Table I");
  o.trace.add_to(cmd, "every event of run --run of the (single) algorithm");
  cmd.callback([&cmd, &action] {
    for (const auto* opt : cmd.get_options()) {
      if (opt->count() > 0) o.given.push_back(opt->get_name());
    }
    action = [] {
      if (o.worst_case) {
        if (!o.study.empty()) throw UsageError("--worst-case and --study are two different modes: give one");
        return run_worst_cases(o);
      }
      if (!o.study.empty()) return run_study(o);
      return run_scenario(o);
    };
  });
}

}  // namespace starnet::tools
