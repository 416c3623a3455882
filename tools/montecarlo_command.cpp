// `starnet montecarlo`: the non-clairvoyant reductions of Benoit, Canon and Marchal (CCPE 2014) under
// random costs — one scenario, the studies of Figures 4–6 with the paper's statements checked on
// the data, and the worst-case instances of Section 4 (docs/montecarlo.md).
#include "command.hpp"
#include "json_output.hpp"
#include "trace_output.hpp"
#include "progress.hpp"
#include "gantt.hpp"
#include "plot.hpp"

#include <starnet/algorithms/nonclairvoyant/montecarlo.hpp>
#include <starnet/algorithms/nonclairvoyant/single_run.hpp>
#include <starnet/algorithms/nonclairvoyant/studies.hpp>
#include <starnet/algorithms/nonclairvoyant/worst_case.hpp>
#include <starnet/topology/complete_graph.hpp>
#include <starnet/core/error.hpp>

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

constexpr std::uint64_t DEFAULT_RUNS = 10'000;

struct Options {
  std::string algos = "binomial-stat,fibonacci-stat,tree-dyn,noncommut-tree-dyn";
  int n = 64;
  std::string dist = "gamma";
  double cv = 1;
  double mu_d = 1;
  double mu_c = 0;
  std::int64_t runs = 0;  // 0: the default of the mode
  std::uint64_t seed = 1;
  unsigned threads = 0;
  bool json = false;
  std::string csv;
  std::string gantt;
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

/// More worker threads than any machine starnet targets has cores; beyond, thread creation fails.
constexpr long long MAX_THREADS = 1024;

std::vector<nc::Algorithm> parse_algorithms(const std::string& list) {
  std::vector<nc::Algorithm> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    nc::Algorithm a{};
    try {
      a = nc::parse_algorithm(item);
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("--algos \"{}\": {}", list, e.what()));
    }
    if (std::find(out.begin(), out.end(), a) != out.end()) {
      throw UsageError(fmt::format("--algos \"{}\": {} is listed twice", list, item));
    }
    out.push_back(a);
  }
  if (out.empty()) throw UsageError("--algos is empty (expected a comma-separated list of algorithms)");
  return out;
}

std::uint64_t runs_or(const Options& o, std::uint64_t fallback) {
  if (o.runs == 0 && !o.has("--runs")) return fallback;
  if (o.runs < 1) throw UsageError(fmt::format("--runs {}: at least one run is needed", o.runs));
  return static_cast<std::uint64_t>(o.runs);
}

/// What the progress meter (progress.hpp) shows of a Monte-Carlo loop: 42 % 1.2M/2.9M runs, ETA 3 s.
class RunsProgress {
 public:
  void operator()(std::uint64_t done, std::uint64_t total) const {
    if (total == 0) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
    progress_detail(fmt::format("{:3.0f} % {}/{} runs, ETA {:.0f} s", 100 * fraction, done, total, eta));
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

json summary_json(const nc::AlgorithmOutcome& o, std::uint64_t runs) {
  const auto& s = o.summary;
  return {{"algorithm", std::string(nc::to_string(o.algorithm))},
          {"mean", s.mean},
          {"stddev", s.stddev},
          {"sem", s.sem},
          {"min", s.min},
          {"q10", s.q10},
          {"q50", s.q50},
          {"q90", s.q90},
          {"max", s.max},
          {"runs", runs},
          {"verified_runs", o.verified},
          {"verified", o.verified == runs}};
}

json notes_json(const std::vector<nc::StudyNote>& notes) {
  json out = json::array();
  for (const auto& n : notes) {
    out.push_back({{"figure", n.figure}, {"claim", n.claim}, {"agrees", n.agrees}, {"finding", n.finding}});
  }
  return out;
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
void plot_figure4(const nc::Figure4Result& r, const std::string& plot) {
  const std::size_t tree_dyn = nc::algorithm_index(nc::Algorithm::TREE_DYN);
  std::string data = "# one block per algorithm: CV, mean, q10, q50, q90, mean / mean(tree-dyn) at that CV\n";
  double low = 0;  // the y range of (a): the data, a little margin, no empty decades
  double high = 0;
  for (std::size_t a = 0; a < nc::ALL_ALGORITHMS.size(); ++a) {
    data += fmt::format("# {}\n", nc::to_string(nc::ALL_ALGORITHMS[a]));
    for (const auto& p : r.points) {
      const auto& s = p.outcomes[a].summary;
      data += fmt::format("{:.9g} {:.9g} {:.9g} {:.9g} {:.9g} {:.9g}\n", p.cv, s.mean, s.q10, s.q50, s.q90,
                          s.mean / p.outcomes[tree_dyn].summary.mean);
      for (const double y : {s.mean, s.q10, s.q90}) {
        if (y > 0 && (low == 0 || y < low)) low = y;
        high = std::max(high, y);
      }
    }
    data += "\n\n";
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
      fmt::format("set multiplot title \"Figure 4: schedule length, n = {}, gamma communication costs (mu_d = 1), "
                  "mu_c = 0, {} runs per CV\"\n",
                  r.n, r.runs) +
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
               script, {{"figure4", data}});
}

/// One row per (CV, μ_c/μ_d), a blank line after each CV (gnuplot's grid layout). A cell without
/// a value holds NaN: `with image` leaves it blank and keeps the grid (a missing value would not).
template <class Row>
std::string grid_data(const nc::GridResult& r, Row row) {
  std::string data;
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      data += fmt::format("{:.9g} {:.9g} {}\n", r.cvs[i], r.cost_ratios[j], row(i, j));
    }
    data += "\n";
  }
  return data;
}

std::string value_or_nan(double x) { return std::isnan(x) ? std::string("NaN") : fmt::format("{:.9g}", x); }

const std::string HEATMAP_SETUP = std::string("set xlabel 'CV (communication and computation)'\n"
                                              "set ylabel 'mu_c / mu_d'\nset rmargin 12\n") +
                                  LOG_CV_TICS + LOG_RATIO_TICS + "set xrange [*:*] noextend\nset yrange [*:*] noextend\n";

/// Figure 5(b)'s categories, the candidates of GridCell::best_noncommutative, one colour each.
constexpr nc::Algorithm FIGURE5B_METHODS[] = {nc::Algorithm::BINOMIAL_STAT, nc::Algorithm::FIBONACCI_STAT,
                                              nc::Algorithm::NONCOMMUT_TREE_DYN};

/// Data column 3 = ratio, column 4 = the best method's place in FIGURE5B_METHODS. (b) is a
/// categorical map: a palette of flat steps, one per method, labelled in the colour box.
void plot_figure5(const nc::GridResult& r, std::size_t law, const std::string& plot) {
  const auto data = grid_data(r, [&](std::size_t i, std::size_t j) {
    const auto& c = r.at(law, i, j);
    if (c.skipped) return std::string("NaN NaN");
    const auto* best = std::find(std::begin(FIGURE5B_METHODS), std::end(FIGURE5B_METHODS), c.best_noncommutative());
    STARNET_ASSERT(best != std::end(FIGURE5B_METHODS));
    return fmt::format("{:.9g} {}", c.fibonacci_over_tree_dyn(), best - std::begin(FIGURE5B_METHODS));
  });
  std::string steps;
  std::string labels;
  for (std::size_t k = 0; k < std::size(FIGURE5B_METHODS); ++k) {
    const char* colour = curve_style(FIGURE5B_METHODS[k]).colour;
    steps += fmt::format("{}{} '{}', {} '{}'", k == 0 ? "" : ", ", k, colour, k + 1, colour);
    labels += fmt::format("{}'{}' {}", k == 0 ? "" : ", ", nc::to_string(FIGURE5B_METHODS[k]), k);
  }
  const std::string script =
      gnuplot_terminal(plot, 1400, 620) +
      "set view map\nset contour base\nset cntrparam levels discrete 1\nunset surface\n"
      "set table $contour\nsplot $figure5 using (log10($1)):(log10($2)):3 with lines notitle\nunset table\n"
      "unset contour\nset surface\n" +
      HEATMAP_SETUP +
      fmt::format("set multiplot layout 1,2 title \"Figure 5 ({} costs, n = {}, {} runs per cell)\"\n",
                  st::to_string(r.distributions[law]), r.n, r.runs) +
      "set title '(a) mean(Fibonacci-stat)/mean(Tree-dyn), red line at 1'\n"
      "set palette defined (0 '#000000', 0.5 '#808080', 1 '#ffffff')\n"
      "plot $figure5 using (log10($1)):(log10($2)):3 " + image_style(plot) + " notitle, "
      "$contour using 1:2 with lines lw 2 lc rgb '#d62728' notitle\n"
      "set title '(b) best method with a non-commutative operator'\n"
      "set rmargin 22\n" +
      fmt::format("set cbrange [-0.5:{}.5]\nset palette maxcolors {}\nset palette defined ({})\n"
                  "set cbtics ({}) scale 0\n",
                  std::size(FIGURE5B_METHODS) - 1, std::size(FIGURE5B_METHODS), steps, labels) +
      "plot $figure5 using (log10($1)):(log10($2)):4 " + image_style(plot) + " notitle\n"
      "unset multiplot\n";
  draw_gnuplot(plot,
               about_study("5", fmt::format("--n {} --runs {} --seed {} --points {} --ratio-points {}", r.n, r.runs,
                                            r.seed, r.cvs.size(), r.cost_ratios.size())),
               script, {{"figure5", data}});
}

void plot_figure6(const nc::GridResult& r, const std::string& plot) {
  const auto data = grid_data(r, [&](std::size_t i, std::size_t j) {
    const auto s = nc::spread(r, i, j);
    return value_or_nan(s.dispersion) + " " + value_or_nan(s.inconsistency);
  });
  const std::string script =
      gnuplot_terminal(plot, 1400, 620) + HEATMAP_SETUP +
      fmt::format("set multiplot layout 1,2 title \"Figure 6 ({} laws of Table II, n = {}, {} runs per cell)\"\n",
                  r.distributions.size(), r.n, r.runs) +
      "set title '(a) dispersion of mean(Fibonacci-stat)/mean(Tree-dyn) across the laws'\n"
      "set cbrange [0:2]\nset palette defined (0 '#ffffff', 1 '#000000')\n"
      "plot $figure6 using (log10($1)):(log10($2)):3 " + image_style(plot) + " notitle\n"
      "set title '(b) inconsistency ratio of the best method'\n"
      "set cbrange [0:0.6]\n"
      "plot $figure6 using (log10($1)):(log10($2)):4 " + image_style(plot) + " notitle\n"
      "unset multiplot\n";
  draw_gnuplot(plot,
               about_study("6", fmt::format("--n {} --runs {} --seed {} --points {} --ratio-points {}", r.n, r.runs,
                                            r.seed, r.cvs.size(), r.cost_ratios.size())),
               script, {{"figure6", data}});
}

// ---------------------------------------------------------------------------------------------
// One scenario.

int run_scenario(const Options& o) {
  for (const auto* flag : {"--plot", "--points", "--ratio-points"}) {
    if (o.has(flag)) throw UsageError(fmt::format("{} belongs to --study", flag));
  }
  const auto algorithms = parse_algorithms(o.algos);
  const nc::Scenario scenario{o.n, st::parse_distribution(o.dist), o.cv, o.mu_d, o.mu_c};
  const std::uint64_t runs = runs_or(o, DEFAULT_RUNS);
  // --gantt and --trace both show run --run again, emulated with its events kept.
  const bool one_run = !o.gantt.empty() || o.trace.wanted();
  if (one_run) {
    if (algorithms.size() != 1) {
      throw UsageError(fmt::format("--gantt and --trace show one run of one algorithm: --algos \"{}\" names {}",
                                   o.algos, algorithms.size()));
    }
    if (o.run < 0 || static_cast<std::uint64_t>(o.run) >= runs) {
      throw UsageError(fmt::format("--run {}: expected a run of this study, 0..{}", o.run, runs - 1));
    }
    if (o.n >= 1 && !o.gantt.empty()) require_gantt_rows(topology::CompleteGraph(static_cast<emulator::NodeId>(o.n)));
  } else if (o.has("--run")) {
    throw UsageError("--run chooses the run --gantt draws and --trace records: give --gantt FILE.svg or --trace FILE");
  }

  nc::MonteCarlo mc;
  mc.algorithms(algorithms).scenario(scenario).runs(runs).seed(o.seed).threads(o.threads).keep_samples(one_run);
  mc.progress(RunsProgress{});
  mc.run();

  std::vector<std::string> failures;
  for (const auto& outcome : mc.outcomes()) {
    if (outcome.verified != runs) {
      failures.push_back(fmt::format("{}: {} of {} runs verified", nc::to_string(outcome.algorithm), outcome.verified, runs));
    }
  }
  std::optional<double> gantt_makespan;
  if (one_run) {
    const auto run_index = static_cast<std::uint64_t>(o.run);
    const auto one = nc::emulate_study_run(algorithms.front(), scenario, o.seed, run_index);
    if (one.makespan != mc.outcomes().front().makespans[run_index] || !one.verified) {
      failures.push_back(fmt::format("--run {} re-emulated to {} (the study has {})", o.run, one.makespan,
                                     mc.outcomes().front().makespans[run_index]));
    }
    const topology::CompleteGraph machines(static_cast<emulator::NodeId>(o.n));
    o.trace.write(one.trace, machines);
    if (!o.gantt.empty()) {
      GanttOptions g;
      g.title = fmt::format("{}, n = {}, {} CV {}, mu_d = {}, mu_c = {}, seed {}, run {}: makespan {:.6g}",
                            nc::to_string(algorithms.front()), o.n, o.dist, o.cv, o.mu_d, o.mu_c, o.seed, o.run,
                            one.makespan);
      write_file_atomically(o.gantt, gantt_svg(one.trace, machines, g));
      gantt_makespan = one.makespan;
    }
  }
  const double simulations = static_cast<double>(runs * algorithms.size());
  if (!o.csv.empty()) {
    std::string csv = "algorithm,n,distribution,cv,mu_d,mu_c,runs,verified_runs,mean,stddev,sem,min,q10,q50,q90,max\n";
    for (const auto& outcome : mc.outcomes()) {
      const auto& s = outcome.summary;
      csv += fmt::format("{},{},{},{},{},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n",
                         nc::to_string(outcome.algorithm), o.n, o.dist, o.cv, o.mu_d, o.mu_c, runs, outcome.verified,
                         s.mean, s.stddev, s.sem, s.min, s.q10, s.q50, s.q90, s.max);
    }
    write_file_atomically(o.csv, csv);
  }
  if (o.json) {
    json algos = json::array();
    for (const auto& outcome : mc.outcomes()) algos.push_back(summary_json(outcome, runs));
    json out = {{"n", o.n},       {"distribution", o.dist}, {"cv", o.cv},     {"mu_d", o.mu_d},
                {"mu_c", o.mu_c}, {"runs", runs},           {"seed", o.seed}, {"algorithms", algos}};
    if (gantt_makespan) out["gantt"] = {{"file", o.gantt}, {"run", o.run}, {"makespan", *gantt_makespan}};
    out["wall_seconds"] = mc.wall_seconds();
    out["simulations_per_second"] = simulations / mc.wall_seconds();
    out["verified"] = failures.empty();
    print_json(std::move(out));
  } else {
    fmt::print("Monte-Carlo: n = {}, {} costs with CV {}, mu_d = {}, mu_c = {}, {} runs, seed {}\n", o.n, o.dist, o.cv,
               o.mu_d, o.mu_c, runs, o.seed);
    fmt::print("{:<20} {:>11} {:>11} {:>10} {:>11} {:>11} {:>11}  {}\n", "algorithm", "mean", "stddev", "sem", "q10",
               "q50", "q90", "verified");
    for (const auto& outcome : mc.outcomes()) {
      const auto& s = outcome.summary;
      fmt::print("{:<20} {:>11.6g} {:>11.6g} {:>10.3g} {:>11.6g} {:>11.6g} {:>11.6g}  {}/{}\n",
                 nc::to_string(outcome.algorithm), s.mean, s.stddev, s.sem, s.q10, s.q50, s.q90, outcome.verified, runs);
    }
    if (gantt_makespan) fmt::print("Gantt chart of run {} written to {} (makespan {:.6g})\n", o.run, o.gantt, *gantt_makespan);
    fmt::print("{:.0f} simulations in {:.2f} s: {:.0f} simulations/s\n", simulations, mc.wall_seconds(),
               simulations / mc.wall_seconds());
  }
  return report_unverified(failures);
}

// ---------------------------------------------------------------------------------------------
// Studies.

std::string figure4_csv(const nc::Figure4Result& r) {
  std::string csv = "cv,algorithm,runs,verified_runs,mean,stddev,sem,min,q10,q50,q90,max\n";
  for (const auto& p : r.points) {
    for (const auto& outcome : p.outcomes) {
      const auto& s = outcome.summary;
      csv += fmt::format("{:.9g},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", p.cv,
                         nc::to_string(outcome.algorithm), r.runs, outcome.verified, s.mean, s.stddev, s.sem, s.min,
                         s.q10, s.q50, s.q90, s.max);
    }
  }
  return csv;
}

std::string figure5_csv(const nc::GridResult& r, std::size_t law) {
  std::string csv = "cv,mu_c_over_mu_d";
  for (const auto a : nc::ALL_ALGORITHMS) csv += fmt::format(",mean_{}", nc::to_string(a));
  for (const auto a : nc::ALL_ALGORITHMS) csv += fmt::format(",sem_{}", nc::to_string(a));
  csv += ",fibonacci_over_tree_dyn,best_noncommutative\n";
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto& c = r.at(law, i, j);
      csv += fmt::format("{:.9g},{:.9g}", r.cvs[i], r.cost_ratios[j]);
      if (c.skipped) {
        csv += std::string(10, ',') + "\n";
        continue;
      }
      for (const auto& s : c.summary) csv += fmt::format(",{:.17g}", s.mean);
      for (const auto& s : c.summary) csv += fmt::format(",{:.17g}", s.sem);
      csv += fmt::format(",{:.17g},{}\n", c.fibonacci_over_tree_dyn(), nc::to_string(c.best_noncommutative()));
    }
  }
  return csv;
}

std::string figure6_csv(const nc::GridResult& r) {
  std::string csv = "cv,mu_c_over_mu_d,laws,skipped,ratio_min,ratio_max,argmin,argmax,dispersion,modal_best,modal_count,"
                    "inconsistency";
  for (const auto law : r.distributions) csv += fmt::format(",ratio_{}", st::to_string(law));
  for (const auto law : r.distributions) csv += fmt::format(",best_{}", st::to_string(law));
  csv += "\n";
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto s = nc::spread(r, i, j);
      csv += fmt::format("{:.9g},{:.9g},{},{},{:.17g},{:.17g},{},{},{},{},{},{}", r.cvs[i], r.cost_ratios[j], s.laws,
                         s.skipped, s.ratio_min, s.ratio_max, st::to_string(s.argmin), st::to_string(s.argmax),
                         std::isnan(s.dispersion) ? "" : fmt::format("{:.17g}", s.dispersion), nc::to_string(s.modal_best),
                         s.modal_count, std::isnan(s.inconsistency) ? "" : fmt::format("{:.17g}", s.inconsistency));
      for (std::size_t law = 0; law < r.distributions.size(); ++law) {
        const auto& c = r.at(law, i, j);
        csv += c.skipped ? "," : fmt::format(",{:.17g}", c.fibonacci_over_tree_dyn());
      }
      for (std::size_t law = 0; law < r.distributions.size(); ++law) {
        const auto& c = r.at(law, i, j);
        csv += c.skipped ? "," : fmt::format(",{}", nc::to_string(c.best_noncommutative()));
      }
      csv += "\n";
    }
  }
  return csv;
}

json nullable(double x) { return std::isnan(x) ? json(nullptr) : json(x); }

json grid_cells_json(const nc::GridResult& r, std::size_t law) {
  json cells = json::array();
  for (std::size_t i = 0; i < r.cvs.size(); ++i) {
    for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
      const auto& c = r.at(law, i, j);
      json cell = {{"cv", r.cvs[i]}, {"mu_c_over_mu_d", r.cost_ratios[j]}, {"skipped", c.skipped}};
      if (!c.skipped) {
        json means = json::object();
        for (std::size_t a = 0; a < 4; ++a) means[std::string(nc::to_string(nc::ALL_ALGORITHMS[a]))] = c.summary[a].mean;
        cell["means"] = means;
        cell["fibonacci_over_tree_dyn"] = c.fibonacci_over_tree_dyn();
        cell["best_noncommutative"] = std::string(nc::to_string(c.best_noncommutative()));
      }
      cells.push_back(cell);
    }
  }
  return cells;
}

int run_study(const Options& o) {
  for (const auto* flag : {"--algos", "--dist", "--cv", "--mu-d", "--mu-c", "--gantt", "--run", "--trace"}) {
    if (o.has(flag)) {
      throw UsageError(fmt::format("{} is fixed by --study {} (it takes --runs, --seed, --threads, --n, --points, "
                                   "--ratio-points, --csv, --plot, --json)",
                                   flag, o.study));
    }
  }
  if (o.study != "figure4" && o.study != "figure5" && o.study != "figure6") {
    throw UsageError(fmt::format("--study \"{}\" is unknown (expected figure4, figure5 or figure6)", o.study));
  }
  if (o.study == "figure4" && o.has("--ratio-points")) throw UsageError("--ratio-points belongs to figure5 and figure6");
  if (o.points < 2) throw UsageError(fmt::format("--points {}: at least 2 CVs (0.01 and 10)", o.points));
  if (o.ratio_points < 2) {
    throw UsageError(fmt::format("--ratio-points {}: at least 2 values of mu_c/mu_d (0.1 and 10)", o.ratio_points));
  }
  nc::StudyOptions options;
  options.n = o.n;
  options.seed = o.seed;
  options.threads = o.threads;
  options.progress = RunsProgress{};
  const auto cvs = nc::log_spaced(nc::CV_MIN, nc::CV_MAX, o.points);

  if (o.study == "figure4") {
    options.runs = runs_or(o, nc::FIGURE4_RUNS);
    const auto r = nc::figure4_study(cvs, options);
    const auto notes = nc::figure4_notes(r);
    if (!o.csv.empty()) write_file_atomically(o.csv, figure4_csv(r));
    if (!o.plot.empty()) plot_figure4(r, o.plot);
    const double simulations = static_cast<double>(r.runs * r.points.size() * 4);
    if (o.json) {
      json points = json::array();
      for (const auto& p : r.points) {
        json algos = json::array();
        for (const auto& outcome : p.outcomes) algos.push_back(summary_json(outcome, r.runs));
        points.push_back({{"cv", p.cv}, {"algorithms", algos}});
      }
      const json out = {{"study", "figure4"}, {"n", r.n},          {"distribution", "gamma"},
                        {"mu_d", 1},          {"mu_c", 0},         {"runs", r.runs},
                        {"seed", r.seed},     {"points", points},  {"notes", notes_json(notes)},
                        {"wall_seconds", r.wall_seconds}, {"simulations_per_second", simulations / r.wall_seconds},
                        {"verified", r.all_verified()}};
      print_json(out);
    } else {
      fmt::print("Figure 4: n = {}, gamma costs, mu_d = 1, mu_c = 0, {} runs per CV, seed {}\n", r.n, r.runs, r.seed);
      fmt::print("{:>9}", "CV");
      for (const auto a : nc::ALL_ALGORITHMS) fmt::print(" {:>19}", nc::to_string(a));
      fmt::print("\n");
      for (const auto& p : r.points) {
        fmt::print("{:>9.4g}", p.cv);
        for (const auto& outcome : p.outcomes) fmt::print(" {:>19.6g}", outcome.summary.mean);
        fmt::print("\n");
      }
      print_notes(notes);
      fmt::print("{:.0f} simulations in {:.1f} s: {:.0f} simulations/s\n", simulations, r.wall_seconds,
                 simulations / r.wall_seconds);
    }
    return report_unverified(r.all_verified() ? std::vector<std::string>{}
                                              : std::vector<std::string>{"a run of the study gave a wrong result"});
  }

  options.runs = runs_or(o, nc::GRID_RUNS);
  const auto ratios = nc::log_spaced(nc::COST_RATIO_MIN, nc::COST_RATIO_MAX, o.ratio_points);
  std::vector<st::DistributionKind> laws{st::DistributionKind::GAMMA};
  if (o.study == "figure6") laws.assign(st::ALL_DISTRIBUTIONS.begin(), st::ALL_DISTRIBUTIONS.end());
  const auto r = nc::grid_study(cvs, ratios, laws, options);
  const std::size_t gamma = o.study == "figure6" ? 6 : 0;  // index of gamma in the law list
  const auto notes = o.study == "figure5" ? nc::figure5_notes(r, gamma) : nc::figure6_notes(r);
  if (!o.csv.empty()) write_file_atomically(o.csv, o.study == "figure5" ? figure5_csv(r, gamma) : figure6_csv(r));
  if (!o.plot.empty()) {
    if (o.study == "figure5") {
      plot_figure5(r, gamma, o.plot);
    } else {
      plot_figure6(r, o.plot);
    }
  }
  const std::uint64_t run_cells = r.cells.size() - r.skipped();
  const double simulations = static_cast<double>(run_cells * r.runs * 4);
  if (o.json) {
    json out = {{"study", o.study}, {"n", r.n},         {"mu_d", 1},          {"runs", r.runs},
                {"seed", r.seed},   {"cvs", r.cvs},     {"cost_ratios", r.cost_ratios}};
    json law_names = json::array();
    for (const auto law : r.distributions) law_names.push_back(std::string(st::to_string(law)));
    out["distributions"] = law_names;
    out["skipped_cells"] = r.skipped();
    if (o.study == "figure5") {
      out["cells"] = grid_cells_json(r, gamma);
    } else {
      json cells = json::array();
      for (std::size_t i = 0; i < r.cvs.size(); ++i) {
        for (std::size_t j = 0; j < r.cost_ratios.size(); ++j) {
          const auto s = nc::spread(r, i, j);
          json ratios_by_law = json::object();
          json best_by_law = json::object();
          for (std::size_t law = 0; law < r.distributions.size(); ++law) {
            const auto& c = r.at(law, i, j);
            if (c.skipped) continue;
            const std::string name(st::to_string(r.distributions[law]));
            ratios_by_law[name] = c.fibonacci_over_tree_dyn();
            best_by_law[name] = std::string(nc::to_string(c.best_noncommutative()));
          }
          cells.push_back({{"cv", r.cvs[i]},
                           {"mu_c_over_mu_d", r.cost_ratios[j]},
                           {"laws", s.laws},
                           {"skipped", s.skipped},
                           {"dispersion", nullable(s.dispersion)},
                           {"modal_best", std::string(nc::to_string(s.modal_best))},
                           {"inconsistency", nullable(s.inconsistency)},
                           {"fibonacci_over_tree_dyn", ratios_by_law},
                           {"best_noncommutative", best_by_law}});
        }
      }
      out["cells"] = cells;
    }
    out["notes"] = notes_json(notes);
    out["wall_seconds"] = r.wall_seconds;
    out["simulations_per_second"] = simulations / r.wall_seconds;
    out["verified"] = r.all_verified();
    print_json(std::move(out));
  } else {
    fmt::print("{}: n = {}, {} law{}, {} CVs x {} values of mu_c/mu_d, {} runs per cell, seed {}; {} cells skipped "
               "(CV outside the law's range)\n",
               o.study == "figure5" ? "Figure 5" : "Figure 6", r.n, r.distributions.size(),
               r.distributions.size() == 1 ? "" : "s", r.cvs.size(), r.cost_ratios.size(), r.runs, r.seed, r.skipped());
    print_notes(notes);
    fmt::print("{:.0f} simulations in {:.1f} s: {:.0f} simulations/s\n", simulations, r.wall_seconds,
               simulations / r.wall_seconds);
  }
  return report_unverified(r.all_verified() ? std::vector<std::string>{}
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
  std::vector<std::string> failures;
  json rows = json::array();
  std::string csv = "instance,algorithm,n,d,D,c,C,makespan,optimum,optimum_certified,ratio,bound,bound_reached,within_bound\n";
  if (!o.json) {
    fmt::print("Worst-case instances of Section 4 (Table I), emulated with exact costs\n");
    fmt::print("{:<22} {:<19} {:>5} {:>9} {:>7} {:>12} {:>9}  {}\n", "instance", "algorithm", "n", "makespan", "optimum",
               "ratio", "bound", "");
  }
  for (const auto& w : nc::table1_instances()) {
    for (const auto& out : nc::run_worst_case(w)) {
      const double ratio = out.ratio.to_double();
      const bool within = ratio <= out.bound * (1 + 1e-12);
      const std::string where =
          !within ? "ABOVE the proven bound" : (out.bound_exact && std::abs(ratio - out.bound) <= 1e-12 * out.bound ? "= bound" : "< bound");
      if (!out.verified) failures.push_back(fmt::format("{} n = {}: {} gave a wrong result", w.name, out.n, nc::to_string(out.algorithm)));
      if (!out.optimum_certified) failures.push_back(fmt::format("{} n = {}: the optimum is not certified", w.name, out.n));
      if (!within) {
        failures.push_back(fmt::format("{} n = {}: {} reaches ratio {:.4f}, above {} = {:.4f} (docs/montecarlo.md)", w.name,
                                       out.n, nc::to_string(out.algorithm), ratio, out.bound_formula, out.bound));
      }
      json row = {{"instance", w.name},
                  {"source", w.source},
                  {"algorithm", std::string(nc::to_string(out.algorithm))},
                  {"n", out.n},
                  {"verified", out.verified},
                  {"optimum_certified", out.optimum_certified},
                  {"bound_formula", out.bound_formula},
                  {"bound", out.bound},
                  {"bound_reached", out.bound_exact},
                  {"within_bound", within}};
      for (const auto& [key, value] : {std::pair{"d", &w.d}, std::pair{"D", &w.D}, std::pair{"c", &w.c},
                                       std::pair{"C", &w.C}, std::pair{"makespan", &out.makespan},
                                       std::pair{"optimum", &out.optimum}, std::pair{"ratio", &out.ratio}}) {
        put_exact(row, key, *value);
      }
      rows.push_back(std::move(row));
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.17g},{},{}\n", w.name, nc::to_string(out.algorithm), out.n,
                         w.d.to_string(), w.D.to_string(), w.c.to_string(), w.C.to_string(), out.makespan.to_string(),
                         out.optimum.to_string(), out.optimum_certified, out.ratio.to_string(), out.bound,
                         out.bound_exact, within);
      if (!o.json) {
        fmt::print("{:<22} {:<19} {:>5} {:>9} {:>7} {:>12} {:>9.4f}  {}\n", w.name, nc::to_string(out.algorithm), out.n,
                   out.makespan.to_string(), out.optimum.to_string(), fmt::format("{:.4f}", ratio), out.bound, where);
      }
    }
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, csv);
  if (o.json) print_json({{"worst_case", rows}, {"verified", failures.empty()}});
  return report_unverified(failures);
}

}  // namespace

void add_montecarlo_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "montecarlo",
      "Non-clairvoyant reductions (Benoit, Canon, Marchal, CCPE 2014) on the emulator with random\n"
      "heterogeneous costs: Binomial-stat, Fibonacci-stat, Tree-dyn, Non-Commut-Tree-dyn, every run\n"
      "verified. Three modes:\n"
      "  one scenario:  --algos LIST --n N --dist NAME --cv X --mu-d M --mu-c M --runs R --seed S\n"
      "                 (summary per algorithm; --gantt FILE.svg --run I draws one run)\n"
      "  a study:       --study figure4|figure5|figure6 [--runs R] [--csv FILE] [--plot FILE]\n"
      "                 (the paper's figures, with its statements checked on the data)\n"
      "  worst cases:   --worst-case (the instances of Section 4 reaching Table I's ratios)\n"
      "Same --seed, same numbers whatever --threads. Exit codes: 0 success, 1 a run was not\n"
      "verified (or a worst case broke its proven bound), 2 bad input. See docs/montecarlo.md.");
  static Options o;
  cmd->add_option("--algos", o.algos,
                  "Comma-separated algorithms: binomial-stat, fibonacci-stat, tree-dyn, noncommut-tree-dyn (default: all)");
  cmd->add_option("--n", o.n, "Number of processors (default 64)");
  cmd->add_option("--dist", o.dist,
                  "Cost law of Table II: bernoulli, beta0.01, beta1, beta100, binomial, exponential, gamma,\n"
                  "poisson, triangle, uniform (default gamma)");
  cmd->add_option("--cv", o.cv, "Coefficient of variation of both costs, within the law's range (default 1)")
      ->check(finite_number(0));
  cmd->add_option("--mu-d", o.mu_d, "Mean transfer time mu_d >= 0 (default 1)")->check(finite_number(0));
  cmd->add_option("--mu-c", o.mu_c, "Mean reduction time mu_c >= 0; 0: free computation (default 0)")
      ->check(finite_number(0));
  cmd->add_option("--runs", o.runs,
                  fmt::format("Monte-Carlo runs (default {}; figure4: {}; figure5/6: {} per cell)", DEFAULT_RUNS,
                              nc::FIGURE4_RUNS, nc::GRID_RUNS));
  cmd->add_option("--seed", o.seed, "Seed: run r of algorithm a draws from Philox(seed, r, a) (default 1)")
      ->check(any_seed());
  cmd->add_option("--threads", o.threads, fmt::format("Worker threads, 0..{} (default 0: all cores)", MAX_THREADS))
      ->check(integer_in(0, MAX_THREADS));
  cmd->add_flag("--json", o.json,
                "Print one JSON document: per algorithm mean, stddev, sem, min, q10, q50, q90, max, runs, verified\n"
                "(studies: points or cells, and notes; --worst-case: one row per instance and algorithm)");
  cmd->add_option("--csv", o.csv, "Write the summary (study: the figure's data) as CSV to FILE")->check(output_file());
  cmd->add_option("--gantt", o.gantt, "Draw run --run of the (single) algorithm as a Gantt chart, SVG (n <= 1000)")
      ->check(output_file({".svg"}));
  cmd->add_option("--run", o.run, "The run --gantt draws and --trace records, 0..runs-1 (default 0)");
  cmd->add_option("--study", o.study, "figure4 | figure5 | figure6: reproduce a figure of Section 5");
  cmd->add_option("--plot", o.plot, "With --study: draw the figure with gnuplot into FILE.svg or FILE.png")->check(output_file({".svg", ".png"}));
  cmd->add_option("--points", o.points, fmt::format("With --study: CVs log-spaced over [0.01, 10] (default {})",
                                                    nc::DEFAULT_CV_POINTS));
  cmd->add_option("--ratio-points", o.ratio_points,
                  fmt::format("With --study figure5|figure6: values of mu_c/mu_d log-spaced over [0.1, 10] (default {})",
                              nc::DEFAULT_COST_RATIO_POINTS));
  cmd->add_flag("--worst-case", o.worst_case, "Run the worst-case instances of Section 4 and compare with Table I");
  o.trace.add_to(*cmd, "every event of run --run of the (single) algorithm");
  cmd->callback([cmd, &action] {
    for (const auto* opt : cmd->get_options()) {
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
